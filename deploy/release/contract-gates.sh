#!/usr/bin/env bash
# The contract gates of `npm test` (issue 33, decisions 0048 and 0050): this tree against the previous
# release (deploy/release/previous.sh contract), failing with every break it finds, named, unless
# docs/api/accepted-breaking-changes.yaml accepts it with a reason. The event corpus, the third gate,
# is a jest spec (test/contracts/event-corpus.spec.ts, decision 0049).
#
#   contract-gates.sh [--proto DIR] [--openapi FILE] [--accepted FILE]
#
#   proto    `buf breaking` (proto/buf.yaml: FILE) of DIR (default: this tree's proto/) against the
#            previous release's proto/, taken from git (git archive <commit> proto)
#   openapi  oasdiff's breaking changes from the previous release's public OpenAPI document, recorded
#            in docs/api/<release tag>/openapi.json, to FILE (default: the one the built gateway serves)
#   verdict  each break, failing unless the accepted list (default docs/api/accepted-breaking-changes.yaml,
#            its format at its top) accepts it with its reason
#
# The options are for the specs that make a break on a scratch copy (test/contracts/contract-gates.spec.ts):
# they run this same script. oasdiff is built once with the machine's Go into .local/go/bin, beside
# the chart checks' helm, and reused.
set -euo pipefail
OASDIFF_VERSION=v1.37.0

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
root=$(cd "$here/../.." && pwd -P)
proto_dir=$root/proto
openapi=
accepted=$root/docs/api/accepted-breaking-changes.yaml
while [ $# -gt 0 ]; do
  case "$1" in
    --proto) proto_dir=$(cd "$2" && pwd -P) && shift 2 ;;
    --openapi) openapi=$2 && shift 2 ;;
    --accepted) accepted=$2 && shift 2 ;;
    *) echo "usage: contract-gates.sh [--proto DIR] [--openapi FILE] [--accepted FILE]" >&2 && exit 2 ;;
  esac
done

say() { printf '[contracts] %s\n' "$*"; }
fail() {
  printf '[contracts] FAILED: %s\n' "$1" >&2
  if [ -n "${2:-}" ] && [ -s "$2" ]; then sed 's/^/    | /' "$2" | tail -n 40 >&2; fi
  exit 1
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

read -r commit tag < <(bash "$here/previous.sh" contract)
say "against the previous release: $tag ($(git -C "$root" rev-parse --short "$commit"))"

# ---- proto: buf breaking against the release's proto/ ------------------------------------------------
mkdir -p "$work/previous"
git -C "$root" archive "$commit" proto | tar -x -C "$work/previous"
# buf exits 100 when it found breaks (listed as JSON lines), anything else but 0 when it could not check.
code=0
(cd "$(dirname "$proto_dir")" &&
  "$root/node_modules/.bin/buf" breaking "$(basename "$proto_dir")" --against "$work/previous/proto" \
    --error-format json) >"$work/proto.jsonl" 2>"$work/buf.log" || code=$?
if [ "$code" -ne 0 ] && [ "$code" -ne 100 ]; then
  cat "$work/proto.jsonl" >>"$work/buf.log"
  fail "buf breaking could not compare proto/ with $tag's (exit $code)" "$work/buf.log"
fi

# ---- openapi: oasdiff from the release's recorded document to this tree's ---------------------------
recorded=
for candidate in $(bash "$here/previous.sh" at "$commit"); do
  if [ -f "$root/docs/api/$candidate/openapi.json" ]; then recorded=$root/docs/api/$candidate/openapi.json && break; fi
done
[ -n "$recorded" ] ||
  fail "no recorded public OpenAPI document of $tag: record the release with 'pnpm run contracts:record <its tag>' (test/contracts/README.md)"

gobin=$root/.local/go/bin
oasdiff=$gobin/oasdiff
# The version the binary was built from (go version -m), so a changed OASDIFF_VERSION builds anew.
built=
[ -x "$oasdiff" ] && built=$(go version -m "$oasdiff" 2>/dev/null | awk '$1 == "mod" { print $3 }')
if [ "$built" != "$OASDIFF_VERSION" ]; then
  command -v go >/dev/null 2>&1 || fail "go is not on PATH: the OpenAPI gate builds oasdiff with the machine's Go (1.26 or newer)"
  started=$SECONDS
  say "oasdiff $OASDIFF_VERSION: go install github.com/oasdiff/oasdiff@$OASDIFF_VERSION (first time only)"
  mkdir -p "$gobin"
  GOBIN=$gobin go install -trimpath -ldflags "-s -w" "github.com/oasdiff/oasdiff@$OASDIFF_VERSION" >"$work/go.log" 2>&1 ||
    fail "go install github.com/oasdiff/oasdiff@$OASDIFF_VERSION" "$work/go.log"
  say "oasdiff $OASDIFF_VERSION: built in $((SECONDS - started)) s"
fi
if [ -z "$openapi" ]; then
  openapi=$work/openapi.json
  node "$here/openapi-document.mjs" >"$openapi" 2>"$work/document.log" ||
    fail "printing the gateway's OpenAPI document (is services/gateway built?)" "$work/document.log"
fi
"$oasdiff" breaking "$recorded" "$openapi" --format json >"$work/openapi-findings.json" 2>"$work/oasdiff.log" ||
  fail "oasdiff could not compare the OpenAPI documents" "$work/oasdiff.log"

# ---- the verdict: every finding, accepted or not ---------------------------------------------------
node "$here/contract-verdict.mjs" --against "$tag" --commit "$commit" \
  --proto "$work/proto.jsonl" --openapi "$work/openapi-findings.json" \
  --accepted "$accepted"
