#!/usr/bin/env bash
# Corridor's own processes on this machine, built into services/<name>/dist.
#
#   deploy/local/services.sh up      migrate, then (re)start every service in order; wait until ready
#   deploy/local/services.sh down    stop the services this script started
#
# Logs: .local/log/<service>.log; pids: .local/run/<service>.pid. The admin token and identity's and
# notification's master keys are made once and kept in .local/admin-token,
# .local/identity-secret-key and .local/notification-secret-key; object storage's credentials are
# S3Proxy's fixed local ones (deploy/local/s3proxy.sh).
set -euo pipefail
COMPONENT=services
# shellcheck source=deploy/local/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# shellcheck source=deploy/local/toolchain.sh
. "$CORRIDOR_DEPLOY/toolchain.sh" || die "could not provide Node 24 and pnpm" "$LOG_DIR/toolchain.log"

# Start order: a service comes after everything it calls.
SERVICES=(identity customer-kyb notification payments gateway)
# Services with a database and migrations.
MIGRATED=(identity customer-kyb notification payments)

pid_alive() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

stop_service() {
  local name=$1 pidfile="$RUN_DIR/$1.pid" pid i
  pid_alive "$pidfile" || { rm -f "$pidfile"; return 0; }
  pid=$(cat "$pidfile")
  step "stopping $name (pid $pid)"
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 100; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
  rm -f "$pidfile"
}

# start_service NAME [VARIABLE=value...]: the variables are set for that service alone.
start_service() {
  local name=$1 log="$LOG_DIR/$1.log" pidfile="$RUN_DIR/$1.pid" i from
  shift
  stop_service "$name" # a restart picks up the code just built
  step "starting $name (log: $log)"
  printf '\n===== %s: starting %s\n' "$(date '+%F %T')" "$name" >>"$log"
  # Only this start's lines count: the log also holds earlier runs' "listening".
  from=$(($(stat -c %s "$log") + 1))
  (cd "$CORRIDOR_ROOT/services/$name" && exec env "$@" nohup node dist/main.js </dev/null >>"$log" 2>&1) &
  echo $! >"$pidfile"
  for ((i = 0; i < 300; i++)); do
    pid_alive "$pidfile" || die "$name exited during start" "$log"
    grep -q "\"msg\":\"$name listening\"" <(tail -c "+$from" "$log") && return 0
    sleep 0.1
  done
  die "$name did not report listening within 30 s" "$log"
}

cmd_up() {
  local name
  export ADMIN_TOKEN IDENTITY_SECRET_KEY NOTIFICATION_SECRET_KEY S3_ACCESS_KEY_ID S3_SECRET_ACCESS_KEY
  ADMIN_TOKEN=$(local_secret admin-token)
  IDENTITY_SECRET_KEY=$(local_secret identity-secret-key)
  NOTIFICATION_SECRET_KEY=$(local_secret notification-secret-key)
  # S3Proxy's credentials (deploy/local/s3proxy.sh), for customer-kyb's file uploads.
  S3_ACCESS_KEY_ID=corridor-local
  S3_SECRET_ACCESS_KEY=corridor-local-secret
  # Kafka of deploy/local/kafka.sh, whose topics (deploy/local/topics.txt) carry no prefix: identity,
  # customer-kyb and payments publish to, and notification and payments consume, the same names.
  export KAFKA_BROKERS=127.0.0.1:9092 KAFKA_TOPIC_PREFIX=''
  for name in "${MIGRATED[@]}"; do
    CURRENT_LOG="$LOG_DIR/$name.log"
    run_logged "$CURRENT_LOG" "migrating $name" node "$CORRIDOR_ROOT/services/$name/dist/migrate.js" up
  done
  for name in "${SERVICES[@]}"; do
    case $name in
      # Prometheus /metrics of the webhook deliveries: http://127.0.0.1:9464/metrics
      notification) start_service "$name" METRICS_PORT=9464 ;;
      *) start_service "$name" ;;
    esac
  done
  for ((i = 0; i < 100; i++)); do
    if curl -fsS http://127.0.0.1:8080/readyz >/dev/null 2>&1; then
      step "ready: public API http://127.0.0.1:8080, admin API http://127.0.0.1:8081"
      return 0
    fi
    sleep 0.2
  done
  die "the gateway is not ready: $(curl -sS http://127.0.0.1:8080/readyz 2>&1)" "$LOG_DIR/gateway.log"
}

cmd_down() {
  local i
  for ((i = ${#SERVICES[@]} - 1; i >= 0; i--)); do stop_service "${SERVICES[$i]}"; done
}

case "${1:-}" in
  up) cmd_up ;;
  down) cmd_down ;;
  *) echo "usage: $0 up|down" >&2; exit 2 ;;
esac
