#!/usr/bin/env bash
# `npm test`: the same set-up as `npm start` (minus starting the services: the suites start their
# own on free ports), then lint, the chart checks, every jest project with the cluster check beside
# them, and a smoke run of the bench.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
# The cluster check's Kubernetes is built from source the first time (≈7-17 min on 2 cores). It
# builds now, beside the set-up (downloads, installs, the workspace build, the servers: nothing
# timed), at the lowest CPU and I/O priority, and jest starts only once it has ended: beside jest it
# starved the suites (decision 0024, "The Kubernetes build"). Its exit code goes to a file, which the
# wait below and the cluster check read.
mkdir -p "$here/../../.local/log"
kube_build_log="$here/../../.local/log/kube-build-background.log"
kube_build_status="$here/../../.local/log/kube-build-background.status"
rm -f "$kube_build_status"
(
  code=0
  nice -n 19 ionice -c 3 bash "$here/../kube/cluster.sh" build >"$kube_build_log" 2>&1 || code=$?
  echo "$code" >"$kube_build_status"
) &
# Whatever ends this script early, nothing it started in the background outlives it.
trap 'kill $(jobs -p) 2>/dev/null || true' EXIT
# Each step's time, so a slow one shows in CI's log (SECONDS: bash's clock since this script began).
took() { echo "[test] $1 done at $((SECONDS / 60)) min $((SECONDS % 60)) s"; }
bash "$here/workspace.sh"
bash "$here/infra.sh" up
# The payer-page e2e suite drives Debian's headless Chromium (puppeteer-core brings no browser).
# shellcheck source=deploy/local/lib.sh
command -v chromium >/dev/null 2>&1 || (COMPONENT=test && . "$here/lib.sh" && apt_install chromium)
# The schemathesis e2e suite fuzzes the public API from its OpenAPI document (a pinned PyPI install).
bash "$here/schemathesis.sh"
took "set-up (toolchain, packages, build, servers, Chromium, schemathesis)"
# shellcheck source=deploy/local/toolchain.sh
. "$here/toolchain.sh"
cd "$CORRIDOR_ROOT"
# Lint beside the chart checks and jest (its output after jest's): its 15 s of CPU cost jest less
# than its wall time would cost the run.
lint_log="$here/../../.local/log/lint-background.log"
pnpm run --silent lint >"$lint_log" 2>&1 &
lint=$!
status=0
bash "$here/../helm/check.sh"
took "chart checks"
# The contract gates against the previous release (test/contracts/README.md): buf breaking, the
# OpenAPI diff. Before the wait for the Kubernetes build, so a fresh machine's oasdiff build hides in it.
bash "$here/../release/contract-gates.sh" || status=1
took "contract gates"
# The Kubernetes build must be over before jest starts (above); on a warm machine it is at once.
until [ -s "$kube_build_status" ]; do sleep 2; done
took "the cluster check's Kubernetes build (beside the set-up; exit $(cat "$kube_build_status"))"
# The cluster check beside jest (it needs the chart checks' helm): mostly waiting on its control
# plane and kwok, at a lower priority than the tests, its start windows in quiet-machine time
# (lib.sh wait_until). Its output is printed after jest's.
cluster_log="$here/../../.local/log/cluster-check-background.log"
(
  cat "$kube_build_log"
  if [ "$(cat "$kube_build_status")" != 0 ]; then
    echo "[test] FAILED: building the cluster check's Kubernetes (above)"
    exit 1
  fi
  nice -n 10 bash "$here/../helm/cluster-check.sh"
) >"$cluster_log" 2>&1 &
cluster_check=$!
# The jest workers, then, alone on one, the suites that need the machine to themselves
# (jest.config.mjs SERIAL_E2E), each run fenced by run-jest.sh (--forceExit and a time limit).
# Three workers on two cores: many e2e suites spend their time waiting (retry schedules, restarts,
# leases), and a third overlaps that waiting; the suites that load the machine run after, alone.
workers=${CORRIDOR_TEST_WORKERS:-3}
echo "[test] jest: unit, integration, e2e ($workers workers)"
bash "$here/run-jest.sh" --maxWorkers="$workers" --selectProjects unit integration e2e "$@" || status=$?
took "jest on $workers workers"
echo "[test] jest: e2e-serial (one worker, nothing beside it)"
bash "$here/run-jest.sh" --maxWorkers=1 --selectProjects e2e-serial --passWithNoTests "$@" || status=$?
took "jest e2e-serial"
bash "$here/skew.sh" "$@" || status=$?; took "jest skew (deploy/local/skew.sh: changed services beside previous releases)"
# The bench cannot rot unseen (issue 14): every phase of pnpm bench for a second, each answer 2xx and
# the books balanced, nothing recorded. Timings are not tests: no figure is checked here.
echo "[test] bench smoke: pnpm bench's phases for a second each"
if ! (pnpm exec tsc -b bench && BENCH_SMOKE=1 BENCH_SECONDS=1 BENCH_WARM_UP_SECONDS=0 timeout 5m node bench/dist/run-bench.js); then
  echo "[test] FAILED: the bench smoke run (above)" >&2
  status=1
fi
took "bench smoke"
code=0
wait "$lint" || code=$?
echo "[test] lint: buf lint, generated code up to date, eslint, prettier"
cat "$lint_log"
[ "$code" -eq 0 ] || status=$code
took "lint (beside the chart checks and jest)"
code=0
wait "$cluster_check" || code=$?
cat "$cluster_log"
[ "$code" -eq 0 ] || status=$code
took "cluster check (beside jest)"
exit "$status"
