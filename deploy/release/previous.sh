#!/usr/bin/env bash
# The previous release, as a git commit: what a release of this tree is checked against (issue 33).
#
#   previous.sh <service>   the newest release/<service>/<version> tag behind HEAD
#   previous.sh contract    the newest release/*/* tag behind HEAD, whichever service it names:
#                           proto/ and the public OpenAPI document are shared by every release
#
# "Behind HEAD" is an ancestor of HEAD that is not HEAD itself, so a tagged commit is checked against
# the release before it. With no such tag, the merge base with main stands in (the issue's rule until
# a first release exists). It prints `<commit> <tag or "merge-base">`, and fails only outside git.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
what=${1:?usage: previous.sh <service>|contract}
case "$what" in
  contract) pattern='release/*/*' ;;
  identity | customer-kyb | payments | notification | dashboard | gateway) pattern="release/$what/*" ;;
  *) echo "previous.sh: no service named '$what'" >&2 && exit 2 ;;
esac
# Newest by the tagged commit's date (git's last --sort is the primary key), then by version: commits
# made in the same second still have an order.
tag=$(git tag --list "$pattern" --merged HEAD --no-contains HEAD --sort=-v:refname --sort=-committerdate | head -n 1)
if [ -n "$tag" ]; then
  echo "$(git rev-parse "$tag^{commit}") $tag"
else
  echo "$(git merge-base HEAD main 2>/dev/null || git rev-parse HEAD) merge-base"
fi
