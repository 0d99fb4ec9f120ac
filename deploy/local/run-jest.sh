#!/usr/bin/env bash
# One jest run as npm test, test:service and the skew suite make it: `run-jest.sh [jest options]`.
# Anything a failed suite left open would keep jest waiting for ever: --forceExit ends it after the
# summary (jest's global tear-down kills the shared platforms, the testing package the rest), and the
# time limit (CORRIDOR_TEST_TIME_LIMIT, default 40m) stops a hang long before CI's own does. Exits
# with jest's code. The caller has Node and pnpm on PATH (toolchain.sh).
set -uo pipefail
limit=${CORRIDOR_TEST_TIME_LIMIT:-40m}
code=0
timeout --kill-after=30s "$limit" pnpm run --silent jest --ci --forceExit "$@" || code=$?
if [ "$code" -eq 124 ] || [ "$code" -eq 137 ]; then echo "[test] jest did not finish within $limit: stopped" >&2; fi
exit "$code"
