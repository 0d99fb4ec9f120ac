#!/usr/bin/env bash
# `npm test`: the same set-up as `npm start` (minus starting the services: the suites start their
# own on free ports), then lint and every jest project. Ends with jest's summary.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
bash "$here/workspace.sh"
bash "$here/infra.sh" up
# shellcheck source=deploy/local/toolchain.sh
. "$here/toolchain.sh"
cd "$CORRIDOR_ROOT"
echo "[test] lint: buf lint, generated code up to date, eslint, prettier"
pnpm run --silent lint
bash "$here/../helm/check.sh"
echo "[test] jest: unit, integration, e2e"
exec pnpm run --silent jest --ci "$@"
