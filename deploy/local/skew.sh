#!/usr/bin/env bash
# The version-skew suite (issue 33, decision 0053): this tree's services beside previous releases'.
#
#   deploy/local/skew.sh [jest options]   the pairs of every service whose code changed since its
#                                         previous release (npm test runs this)
#   CORRIDOR_SKEW=all deploy/local/skew.sh   the full matrix, both sides of all five (pnpm test:skew)
#   CORRIDOR_SKEW='payments identity@head' deploy/local/skew.sh   the pairs named (a service: both)
#
# A service's code is what its image is built from (services/<service> and the workspace packages
# it runs with, less specs and docs, plus the .proto files and its resolved dependencies: decision
# 0054), compared with the commit deploy/release/previous.sh names for it (work tree included).
# A changed gateway runs every pair with the gateway at HEAD calling an older service. When nothing
# changed, one pair still runs, so the suite cannot rot unseen: the one HEAD's commit picks, so each
# commit runs the same one and successive commits go round the matrix. The previous releases are
# built first (deploy/release/build-previous.sh), outside jest's time limits.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
# shellcheck source=deploy/local/toolchain.sh
. "$here/toolchain.sh"
cd "$CORRIDOR_ROOT"
services=(identity customer-kyb payments notification dashboard)

# Whether a service's code (what its image is built from: the version-bump check's definition,
# deploy/release/service-code.mjs) differs from its previous release's.
changed() {
  local commit
  commit=$(bash deploy/release/previous.sh "$1" | cut -d' ' -f1)
  [ -n "$(node deploy/release/service-code.mjs changed "$1" "$commit")" ]
}

if [ -n "${CORRIDOR_SKEW:-}" ]; then
  pairs=$CORRIDOR_SKEW
  echo "[skew] CORRIDOR_SKEW=$pairs"
else
  pairs=""
  for service in "${services[@]}"; do
    if changed "$service"; then
      echo "[skew] $service changed since $(bash deploy/release/previous.sh "$service" | cut -d' ' -f2): both its pairs"
      pairs="$pairs $service"
    fi
  done
  if changed gateway; then
    echo "[skew] the gateway changed since $(bash deploy/release/previous.sh gateway | cut -d' ' -f2): every service at its previous release beside it"
    pairs="$pairs ${services[*]/%/@previous}"
  fi
  if [ -z "$pairs" ]; then
    matrix=("${services[@]/%/@previous}" "${services[@]/%/@head}")
    pick=$((16#$(git rev-parse --short=7 HEAD) % ${#matrix[@]}))
    pairs=${matrix[$pick]}
    echo "[skew] no service changed since its previous release; one pair so the suite cannot rot: $pairs (picked by HEAD's commit)"
  fi
fi

# Which sides run, and the releases they need built: a service's own on its previous side, every
# process's (the gateway's too) on the HEAD side.
on_previous=() on_head=()
for word in $pairs; do
  for service in "${services[@]}"; do
    case "$word" in
      all | "$service") on_previous+=("$service") on_head+=("$service") ;;
      "$service@previous") on_previous+=("$service") ;;
      "$service@head") on_head+=("$service") ;;
    esac
  done
done
specs=() builds=("${on_previous[@]}")
[ ${#on_previous[@]} -eq 0 ] || specs+=(test/skew/service-at-previous.skew.spec.ts)
[ ${#on_head[@]} -eq 0 ] || specs+=(test/skew/rest-at-previous.skew.spec.ts) builds=(gateway "${services[@]}")
[ ${#specs[@]} -gt 0 ] || { echo "[skew] CORRIDOR_SKEW names no pair: $pairs" >&2 && exit 2; }
for service in $(printf '%s\n' "${builds[@]}" | sort -u); do bash deploy/release/build-previous.sh "$service" >/dev/null; done

echo "[skew] jest: ${specs[*]}"
export CORRIDOR_SKEW=$pairs
exec bash "$here/run-jest.sh" --selectProjects skew --maxWorkers=2 --runTestsByPath "${specs[@]}" "$@"
