#!/usr/bin/env bash
# Corridor local infrastructure: PostgreSQL, Redis, Kafka, S3Proxy (S3-compatible object storage).
#
#   deploy/local/infra.sh up      postgres, redis, kafka, s3proxy (in that order); stops at the first failure
#   deploy/local/infra.sh down    s3proxy, kafka, redis, postgres; each stops only what Corridor started
#   deploy/local/infra.sh status  one line per service; exit 0 only if all four are running
#
# Each service script reuses a server already answering on its port, so `up` on a running set
# only checks and returns. Logs: .local/log/.
set -euo pipefail
COMPONENT=infra
# shellcheck source=deploy/local/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

SERVICES=(postgres redis kafka s3proxy)

cmd_up() {
  local s start=$SECONDS
  for s in "${SERVICES[@]}"; do
    step "$s: up"
    if ! "$CORRIDOR_DEPLOY/$s.sh" up; then
      die "$s did not come up (its error and log path are above; all logs in $LOG_DIR); services after it were not started"
    fi
  done
  step "all up in $((SECONDS - start))s: postgres 127.0.0.1:5432 (corridor/corridor), redis 127.0.0.1:6379, kafka 127.0.0.1:9092, s3proxy http://127.0.0.1:9000 (bucket corridor-files)"
}

cmd_down() {
  local i s failed=""
  for ((i = ${#SERVICES[@]} - 1; i >= 0; i--)); do
    s=${SERVICES[$i]}
    step "$s: down"
    "$CORRIDOR_DEPLOY/$s.sh" down || failed="$failed $s"
  done
  [ -z "$failed" ] || die "could not stop:$failed (logs in $LOG_DIR)"
}

cmd_status() {
  local s rc=0
  for s in "${SERVICES[@]}"; do
    "$CORRIDOR_DEPLOY/$s.sh" status || rc=3
  done
  exit "$rc"
}

case "${1:-}" in
  up) cmd_up ;;
  down) cmd_down ;;
  status) cmd_status ;;
  *) echo "usage: $0 up|down|status" >&2; exit 2 ;;
esac
