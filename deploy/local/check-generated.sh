#!/usr/bin/env bash
# Fails when packages/contracts/src/gen is not what `pnpm generate` makes from proto/ now.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
cd "$root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
buf generate proto --template proto/buf.gen.yaml -o "$tmp"
if ! diff -r "$tmp/packages/contracts/src/gen" packages/contracts/src/gen >"$tmp/diff.txt"; then
  echo "generated code is stale: run 'pnpm generate' and commit packages/contracts/src/gen" >&2
  head -n 40 "$tmp/diff.txt" >&2
  exit 1
fi
