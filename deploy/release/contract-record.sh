#!/usr/bin/env bash
# Records a release's contract, once, for the gates that later releases run (issue 33, decisions
# 0049 and 0050; the runbook step of test/contracts/README.md):
#
#   contract-record.sh release/<service>/<version>     (pnpm run contracts:record release/…)
#
#   test/contracts/events/<tag>/   the event corpus (test/contracts/record-events.ts): every event
#                                  type and variant, binary with a readable JSON twin
#   docs/api/<tag>/openapi.json    the public OpenAPI document the gateway serves
#
# Both come from this tree's built code, so that code must be the release's: with the tag already
# made, this tree must not differ from it in what makes them (proto/, packages/, the gateway's and
# notification's sources); else run it in a checkout of the tag. Without the tag, commit what this
# writes and put the tag on that commit. One commit may carry several services' tags: record once,
# under any of them (the gates find the recording through any tag of the commit).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
cd "$root"
tag=${1:-}
[[ "$tag" =~ ^release/(identity|customer-kyb|payments|notification|dashboard|gateway)/[0-9]+\.[0-9]+\.[0-9]+$ ]] ||
  { echo "usage: contract-record.sh release/<service>/<version> (e.g. release/payments/0.2.0)" >&2 && exit 2; }
events=test/contracts/events/$tag
document=docs/api/$tag/openapi.json
if [ -e "$events" ] || [ -e "$document" ]; then
  echo "[contracts] $tag is recorded already ($events, $document): a release's record never changes" >&2
  exit 1
fi
MADE_FROM=(proto packages services/gateway/src services/notification/src)
if git rev-parse --verify --quiet "$tag^{commit}" >/dev/null; then
  for other in $(git tag --points-at "$tag^{commit}" --list 'release/*/*'); do
    if [ -e "test/contracts/events/$other" ]; then
      echo "[contracts] $tag's commit is recorded already, as $other: the gates find it through either tag" >&2
      exit 1
    fi
  done
  if ! git diff --quiet "$tag" -- "${MADE_FROM[@]}"; then
    echo "[contracts] this tree differs from $tag in ${MADE_FROM[*]}: record it from a checkout of $tag" >&2
    git diff --stat "$tag" -- "${MADE_FROM[@]}" | tail -n 20 >&2
    exit 1
  fi
  echo "[contracts] recording $tag from this tree: the same ${MADE_FROM[*]} as the tag"
else
  echo "[contracts] recording $tag from this tree: commit it, then tag that commit $tag"
fi
# shellcheck source=deploy/local/toolchain.sh
. deploy/local/toolchain.sh
pnpm exec tsc -b tsconfig.build.json
node test/contracts/record-events.ts "$events"
mkdir -p "$(dirname "$document")"
node deploy/release/openapi-document.mjs >"$document"
echo "[contracts] recorded $document"
