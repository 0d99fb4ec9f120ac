#!/usr/bin/env bash
# `pnpm test:service <service>`: one service's tests (issue 33, decision 0055) with npm test's set-up
# (toolchain, packages, build, servers, Chromium, schemathesis) and none of the rest (lint, charts,
# cluster check, bench): its unit and integration specs, those of the packages only it runs with, and
# the e2e suites test/e2e/services.yaml says exercise it (deploy/local/service-tests.mjs). Like npm
# test, the e2e-serial suites among them run after the others, alone on one worker.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
service=${1:?usage: pnpm test:service <identity|customer-kyb|payments|notification|dashboard|gateway> [jest options]}
shift
took() { echo "[test:service] $1 done at $((SECONDS / 60)) min $((SECONDS % 60)) s"; }
bash "$here/workspace.sh"
bash "$here/infra.sh" up
# shellcheck source=deploy/local/lib.sh
command -v chromium >/dev/null 2>&1 || (COMPONENT=test && . "$here/lib.sh" && apt_install chromium)
bash "$here/schemathesis.sh"
# shellcheck source=deploy/local/toolchain.sh
. "$here/toolchain.sh"
cd "$CORRIDOR_ROOT"
# A name that is no service stops here (with no pattern, jest would run every suite).
selection=$(node deploy/local/service-tests.mjs "$service")
mapfile -t patterns <<<"$selection"
took "set-up"
echo "[test:service] $service: ${patterns[*]}"
# read-your-writes' 200 sequences (npm test's count) are the longest suite of payments' set, 2.5-5 min
# of one worker; 50 keep its claim (no stale refusal) in a quarter of the time (decision 0055).
export READ_YOUR_WRITES_SEQUENCES=${READ_YOUR_WRITES_SEQUENCES:-50}
export CORRIDOR_TEST_TIME_LIMIT=${CORRIDOR_TEST_TIME_LIMIT:-20m}
status=0
workers=${CORRIDOR_TEST_WORKERS:-3}
bash "$here/run-jest.sh" --maxWorkers="$workers" --selectProjects unit integration e2e "$@" -- "${patterns[@]}" || status=$?
took "jest on $workers workers"
bash "$here/run-jest.sh" --maxWorkers=1 --selectProjects e2e-serial --passWithNoTests "$@" -- "${patterns[@]}" || status=$?
took "jest e2e-serial"
exit "$status"
