#!/usr/bin/env bash
# Corridor's own processes on this machine, built into services/<name>/dist.
#
#   deploy/local/services.sh up            migrate, then (re)start every service in order; wait until ready
#   deploy/local/services.sh restart NAME  migrate and restart that service alone; wait until it listens
#   deploy/local/services.sh down          stop the services this script started
#
# Each service runs under deploy/local/supervise.mjs, which restarts it when it crashes (after 0.5 s,
# doubling up to 15 s) and writes a line in its log each time. Logs: .local/log/<service>.log; pids:
# .local/run/<service>.pid (the supervisor) and .local/run/<service>.child.pid (the service itself: kill
# -9 it and it comes back by itself; SIGTERM it and it stays stopped). The admin token and identity's and
# notification's master keys are made once and kept in .local/admin-token,
# .local/identity-secret-key and .local/notification-secret-key; object storage's credentials are
# S3Proxy's fixed local ones (deploy/local/s3proxy.sh).
set -euo pipefail
COMPONENT=services
# shellcheck source=deploy/local/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# shellcheck source=deploy/local/toolchain.sh
. "$CORRIDOR_DEPLOY/toolchain.sh" || die "could not provide Node 24 and pnpm" "$LOG_DIR/toolchain.log"

# Start order: a service comes after everything it calls (the dashboard calls the four gRPC services
# and writes the gateway's access cache).
SERVICES=(identity customer-kyb notification payments gateway dashboard)
# Services with a database and migrations.
MIGRATED=(identity customer-kyb notification payments)

pid_alive() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

# stop_service NAME: SIGTERM to its supervisor, which stops the service (SIGKILL after 10 s) and exits.
stop_service() {
  local name=$1 pidfile="$RUN_DIR/$1.pid" childfile="$RUN_DIR/$1.child.pid" pid i
  pid_alive "$pidfile" || { rm -f "$pidfile" "$childfile"; return 0; }
  pid=$(cat "$pidfile")
  step "stopping $name (pid $pid)"
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 150; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    kill -KILL "$pid" 2>/dev/null || true
    if pid_alive "$childfile"; then kill -KILL "$(cat "$childfile")" 2>/dev/null || true; fi
  fi
  rm -f "$pidfile" "$childfile"
}

# start_service NAME [VARIABLE=value...]: the variables are set for that service alone.
start_service() {
  local name=$1 log="$LOG_DIR/$1.log" pidfile="$RUN_DIR/$1.pid" i from this_start
  shift
  stop_service "$name" # a restart picks up the code just built
  step "starting $name (log: $log)"
  printf '\n===== %s: starting %s\n' "$(date '+%F %T')" "$name" >>"$log"
  # Only this start's lines count: the log also holds earlier runs' "listening".
  from=$(($(stat -c %s "$log") + 1))
  (cd "$CORRIDOR_ROOT/services/$name" && exec env "$@" nohup node "$CORRIDOR_DEPLOY/supervise.mjs" "$name" \
    --child-pid-file "$RUN_DIR/$name.child.pid" -- node dist/main.js </dev/null >>"$log" 2>&1) &
  echo $! >"$pidfile"
  for ((i = 0; i < 300; i++)); do
    pid_alive "$pidfile" || die "$name exited during start" "$log"
    this_start=$(tail -c "+$from" "$log")
    grep -q "\"msg\":\"$name listening\"" <<<"$this_start" && return 0
    # The supervisor would retry for ever; a service that cannot start is a failure to read now.
    if grep -q "supervisor: $name exited" <<<"$this_start"; then
      stop_service "$name"
      die "$name exited during start" "$log"
    fi
    sleep 0.1
  done
  stop_service "$name"
  die "$name did not report listening within 30 s" "$log"
}

# start_named NAME: start_service with the variables that service alone needs.
start_named() {
  case $1 in
    # Prometheus /metrics of the webhook deliveries: http://127.0.0.1:9464/metrics
    notification) start_service "$1" METRICS_PORT=9464 ;;
    # The members' web app (README.md, "Dashboard"): its own origin, and the API it shows. The gRPC
    # addresses are the services' local defaults (127.0.0.1:50051 to 50054), as for the gateway.
    dashboard) start_service "$1" DASHBOARD_PORT=8090 DASHBOARD_ORIGIN=http://127.0.0.1:8090 API_BASE_URL=http://127.0.0.1:8080 ;;
    *) start_service "$1" ;;
  esac
}

# migrate_service NAME: its migrations up, when it has a database.
migrate_service() {
  [[ " ${MIGRATED[*]} " == *" $1 "* ]] || return 0
  CURRENT_LOG="$LOG_DIR/$1.log"
  run_logged "$CURRENT_LOG" "migrating $1" node "$CORRIDOR_ROOT/services/$1/dist/migrate.js" up
}

# The environment every service shares.
export_environment() {
  export ADMIN_TOKEN IDENTITY_SECRET_KEY NOTIFICATION_SECRET_KEY S3_ACCESS_KEY_ID S3_SECRET_ACCESS_KEY
  ADMIN_TOKEN=$(local_secret admin-token)
  IDENTITY_SECRET_KEY=$(local_secret identity-secret-key)
  NOTIFICATION_SECRET_KEY=$(local_secret notification-secret-key)
  # S3Proxy's credentials (deploy/local/s3proxy.sh), for customer-kyb's file uploads.
  S3_ACCESS_KEY_ID=corridor-local
  S3_SECRET_ACCESS_KEY=corridor-local-secret
  # Every service refuses to start without it (no default): this machine's platform is a sandbox.
  export CORRIDOR_ENVIRONMENT=sandbox
  # Kafka of deploy/local/kafka.sh, whose topics (deploy/local/topics.txt) carry no prefix: identity,
  # customer-kyb and payments publish to, and notification and payments consume, the same names.
  export KAFKA_BROKERS=127.0.0.1:9092 KAFKA_TOPIC_PREFIX=''
  # The gateway and the dashboard share Redis's keys (the access cache: a key the dashboard revokes
  # is refused by the gateway at once), so one prefix for both.
  export REDIS_KEY_PREFIX=corridor
  # The links of identity's invitation and password-reset mails, and the sandbox admin API's
  # invitation_url. SMTP_URL stays unset: identity's mail relay is off and mails stay queued in its
  # outbox (no mail catcher runs here); the sandbox reads invitation links from the admin API.
  export DASHBOARD_URL=http://127.0.0.1:8090
}

cmd_up() {
  local name
  export_environment
  for name in "${MIGRATED[@]}"; do migrate_service "$name"; done
  for name in "${SERVICES[@]}"; do start_named "$name"; done
  for ((i = 0; i < 100; i++)); do
    if curl -fsS http://127.0.0.1:8080/readyz >/dev/null 2>&1 && curl -fsS http://127.0.0.1:8090/readyz >/dev/null 2>&1; then
      step "ready: public API http://127.0.0.1:8080, admin API http://127.0.0.1:8081, dashboard http://127.0.0.1:8090"
      return 0
    fi
    sleep 0.2
  done
  curl -fsS http://127.0.0.1:8080/readyz >/dev/null 2>&1 ||
    die "the gateway is not ready: $(curl -sS http://127.0.0.1:8080/readyz 2>&1)" "$LOG_DIR/gateway.log"
  die "the dashboard is not ready: $(curl -sS http://127.0.0.1:8090/readyz 2>&1)" "$LOG_DIR/dashboard.log"
}

cmd_restart() {
  [[ " ${SERVICES[*]} " == *" $1 "* ]] || die "no service named '$1' (one of: ${SERVICES[*]})"
  export_environment
  migrate_service "$1"
  start_named "$1"
}

cmd_down() {
  local i
  for ((i = ${#SERVICES[@]} - 1; i >= 0; i--)); do stop_service "${SERVICES[$i]}"; done
}

usage() { echo "usage: $0 up|down|restart NAME" >&2; exit 2; }
case "${1:-}" in
  up) [ $# -eq 1 ] || usage; cmd_up ;;
  down) [ $# -eq 1 ] || usage; cmd_down ;;
  restart) [ $# -eq 2 ] || usage; cmd_restart "$2" ;;
  *) usage ;;
esac
