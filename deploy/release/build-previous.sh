#!/usr/bin/env bash
# The previous release of a service, built to run beside this tree (issue 33, the version-skew suite).
#
#   build-previous.sh <service>   prints the folder of the commit previous.sh names for the service,
#                                 with its packages installed and its workspace built
#
# The commit's files go to .local/releases/<commit>/ (git archive: no worktree to prune), its
# packages are installed there (offline from pnpm's store when it holds them, else online, as on a
# fresh machine) and it is built with its own tsconfig. A `.built` file written last marks a finished
# build, so a later call only prints the folder; a folder without it (a build killed midway) is made
# again. Several releases share one commit (release/*/0.1.0): one build serves them all, and a lock
# keeps two callers from building the same commit at once. Progress goes to stderr, the output of
# the install and the build to .local/log/release-<commit>.log.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
service=${1:?usage: build-previous.sh <service>}
read -r commit tag < <(bash "$here/previous.sh" "$service")
# shellcheck source=deploy/local/toolchain.sh
. "$here/../local/toolchain.sh"
releases="$CORRIDOR_LOCAL/releases"
folder="$releases/$commit"
log="$CORRIDOR_LOCAL/log/release-$commit.log"
mkdir -p "$releases" "$CORRIDOR_LOCAL/log"
exec 9>"$releases/$commit.lock"
flock 9
if [ ! -f "$folder/.built" ]; then
  echo "[release] building $service's previous release $tag ($commit) into $folder (log: $log)" >&2
  started=$SECONDS
  rm -rf "$folder"
  mkdir -p "$folder"
  git -C "$CORRIDOR_ROOT" archive "$commit" | tar -x -C "$folder"
  : >"$log"
  fail() {
    echo "[release] FAILED: $1 of $commit; the end of $log:" >&2
    tail -n 30 "$log" >&2
    exit 1
  }
  (
    cd "$folder"
    pnpm install --frozen-lockfile --offline --reporter=append-only >>"$log" 2>&1 ||
      pnpm install --frozen-lockfile --prefer-offline --reporter=append-only >>"$log" 2>&1
  ) || fail "installing the packages"
  (cd "$folder" && pnpm exec tsc -b tsconfig.build.json >>"$log" 2>&1) || fail "building"
  echo "$commit built $(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$folder/.built"
  echo "[release] $tag ($commit) built in $((SECONDS - started)) s" >&2
fi
echo "$folder"
