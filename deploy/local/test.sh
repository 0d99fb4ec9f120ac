#!/usr/bin/env bash
# `npm test`: the same set-up as `npm start` (minus starting the services: the suites start their
# own on free ports), then lint and every jest project. Ends with jest's summary.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
bash "$here/workspace.sh"
bash "$here/infra.sh" up
# The payer-page e2e suite drives Debian's headless Chromium (puppeteer-core brings no browser).
# shellcheck source=deploy/local/lib.sh
command -v chromium >/dev/null 2>&1 || (COMPONENT=test && . "$here/lib.sh" && apt_install chromium)
# The schemathesis e2e suite fuzzes the public API from its OpenAPI document (a pinned PyPI install).
bash "$here/schemathesis.sh"
# shellcheck source=deploy/local/toolchain.sh
. "$here/toolchain.sh"
cd "$CORRIDOR_ROOT"
echo "[test] lint: buf lint, generated code up to date, eslint, prettier"
pnpm run --silent lint
bash "$here/../helm/check.sh"
echo "[test] jest: unit, integration, e2e"
# One worker on 2 CPUs: with two, the concurrency suites (200 swaps or payouts at once on one wallet)
# shared the machine with another suite's platform and got 504s past the gRPC deadline. Anything a
# failed suite left open would keep jest waiting for ever: --forceExit ends it after the summary (the
# testing package kills the service processes with it), and the time limit stops a hang long before
# CI's own does.
limit=${CORRIDOR_TEST_TIME_LIMIT:-55m}
status=0
timeout --kill-after=30s "$limit" pnpm run --silent jest --ci --forceExit --maxWorkers=1 "$@" || status=$?
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
  echo "[test] jest did not finish within $limit: stopped" >&2
fi
exit "$status"
