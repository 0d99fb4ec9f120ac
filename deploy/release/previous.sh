#!/usr/bin/env bash
# The previous release, as a git commit: what a release of this tree is checked against (issue 33).
#
#   previous.sh <service>   the newest release/<service>/<version> behind HEAD
#   previous.sh contract    the newest release/*/* behind HEAD, whichever service it names:
#                           proto/ and the public OpenAPI document are shared by every release
#   previous.sh at <commit> every release name on that commit, one a line
#
# Releases are the tags release/<service>/<version>, and deploy/release/releases.txt records each
# with its commit (the runbook's tagging step), so a clone made without tags still knows them; a name
# the two place on different commits stops this script. "Behind HEAD" is an ancestor of HEAD that is
# not HEAD itself, so a tagged commit is checked against the release before it. With no such release,
# the merge base with main stands in (the issue's rule until a first release exists). It prints
# `<commit> <tag or "merge-base">`, and fails only outside git.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

# "<name> <commit>" of every release, tags (peeled to their commit) and releases.txt alike.
releases() {
  {
    git tag --list 'release/*/*' --format='%(refname:strip=2) %(if)%(*objectname)%(then)%(*objectname)%(else)%(objectname)%(end)'
    [ ! -f deploy/release/releases.txt ] || grep -Ev '^[[:space:]]*(#|$)' deploy/release/releases.txt || true
  } | sort -u
}
all=$(releases)
clash=$(awk '{ print $1 }' <<<"$all" | uniq -d)
if [ -n "$clash" ]; then
  echo "previous.sh: the tag and deploy/release/releases.txt name different commits for: $clash" >&2
  exit 1
fi

what=${1:?usage: previous.sh <service>|contract|at <commit>}
case "$what" in
  at)
    commit=$(git rev-parse "${2:?usage: previous.sh at <commit>}^{commit}")
    awk -v commit="$commit" '$2 == commit { print $1 }' <<<"$all"
    exit 0
    ;;
  contract) pattern='release/*/*' ;;
  identity | customer-kyb | payments | notification | dashboard | gateway) pattern="release/$what/*" ;;
  *) echo "previous.sh: no service named '$what'" >&2 && exit 2 ;;
esac
head=$(git rev-parse HEAD)
# The releases behind HEAD as "<commit time> <name> <commit>", newest commit first, then the highest
# version: commits made in the same second still have an order.
behind=$(while read -r name commit; do
  # shellcheck disable=SC2254 # the pattern is a glob on purpose
  case "$name" in $pattern) ;; *) continue ;; esac
  if [ "$commit" = "$head" ] || ! git merge-base --is-ancestor "$commit" HEAD 2>/dev/null; then continue; fi
  echo "$(git show -s --format=%ct "$commit") $name $commit"
done <<<"$all" | sort -k1,1nr -k2,2Vr)
if [ -n "$behind" ]; then
  read -r _ name commit <<<"$behind"
  echo "$commit $name"
else
  echo "$(git merge-base HEAD main 2>/dev/null || git rev-parse HEAD) merge-base"
fi
