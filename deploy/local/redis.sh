#!/usr/bin/env bash
# Local Redis for Corridor on 127.0.0.1:6379.
#
#   deploy/local/redis.sh up      reuse a Redis already answering PING on 127.0.0.1:6379, else
#                                 start our own (installing Debian's redis-server if missing)
#   deploy/local/redis.sh down    stop it only if we started it
#   deploy/local/redis.sh status  one line
#
# State: .local/redis (AOF data), .local/run/redis.pid, .local/run/redis.started (marker),
# .local/log/redis.log.
set -euo pipefail
COMPONENT=redis
# shellcheck source=deploy/local/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

REDIS_HOST=127.0.0.1
REDIS_PORT=6379
REDIS_DIR="$CORRIDOR_LOCAL/redis"
REDIS_PID="$RUN_DIR/redis.pid"
REDIS_LOG="$LOG_DIR/redis.log"
CURRENT_LOG="$REDIS_LOG"
MARKER="$RUN_DIR/redis.started"
READY_TIMEOUT=30

# Prints the reply to PING (e.g. PONG, or an -ERR/-NOAUTH line); fails if nothing answers.
redis_ping() {
  if command -v redis-cli >/dev/null 2>&1; then
    timeout 3 redis-cli -h "$REDIS_HOST" -p "$REDIS_PORT" ping 2>/dev/null | head -n 1
    return "${PIPESTATUS[0]}"
  fi
  timeout 3 bash -c '
    exec 3<>"/dev/tcp/$1/$2" || exit 1
    printf "PING\r\n" >&3
    IFS= read -r -t 2 line <&3 || exit 1
    line=${line%$'"'"'\r'"'"'}
    echo "${line#+}"' _ "$REDIS_HOST" "$REDIS_PORT" 2>/dev/null
}
answers_pong() { [ "$(redis_ping)" = PONG ]; }

ours_running() { pid_running "$REDIS_PID" "redis-server"; }

install_redis() {
  apt_install redis-server
  command -v redis-server >/dev/null 2>&1 || die "redis-server still not on PATH after apt-get install" "$LOG_DIR/apt.log"
  # Debian's package starts its own service from its maintainer scripts when it can; there is no
  # systemd here and apt_install blocks that via policy-rc.d, but check rather than trust it.
  local f
  for f in /run/redis/redis-server.pid /var/run/redis/redis-server.pid; do
    if pid_running "$f" "redis-server"; then
      step "the Debian redis-server service started on its own (pid $(pid_of "$f")); stopping it"
      stop_pid "$f" "Debian's redis-server service" 30
    fi
  done
}

start_ours() {
  command -v redis-server >/dev/null 2>&1 || install_redis
  mkdir -p "$REDIS_DIR"
  rm -f "$MARKER"
  step "starting redis-server $(redis-server --version | awk '{print $3}' | tr -d 'v=') (log: $REDIS_LOG)"
  if ! redis-server --daemonize yes --bind "$REDIS_HOST" --port "$REDIS_PORT" \
    --dir "$REDIS_DIR" --pidfile "$REDIS_PID" --logfile "$REDIS_LOG" \
    --save "" --appendonly yes >>"$REDIS_LOG" 2>&1; then
    die "redis-server did not start" "$REDIS_LOG"
  fi
  date '+%F %T' >"$MARKER"
  wait_until "$READY_TIMEOUT" "Redis to answer PING" "$REDIS_LOG" answers_pong
  ours_running || die "Redis answers but our redis-server (pidfile $REDIS_PID) is not running" "$REDIS_LOG"
}

cmd_up() {
  local reply
  if ours_running; then
    [ -e "$MARKER" ] || date '+%F %T' >"$MARKER"
    wait_until "$READY_TIMEOUT" "our Redis to answer PING" "$REDIS_LOG" answers_pong
    step "reusing our Redis (pid $(pid_of "$REDIS_PID")) on $REDIS_HOST:$REDIS_PORT"
  elif port_open "$REDIS_HOST" "$REDIS_PORT"; then
    rm -f "$MARKER"
    reply=$(redis_ping || true)
    case "$reply" in
      PONG) step "reusing the Redis already answering on $REDIS_HOST:$REDIS_PORT (not started by us)" ;;
      *NOAUTH*) die "the Redis on $REDIS_HOST:$REDIS_PORT (not ours) requires a password; Corridor expects none" ;;
      *) die "something listens on $REDIS_HOST:$REDIS_PORT but does not answer PING with PONG (got: '${reply:-nothing}'); free the port" ;;
    esac
  else
    start_ours
  fi
  step "ready: redis://$REDIS_HOST:$REDIS_PORT"
}

cmd_down() {
  if ours_running; then
    stop_pid "$REDIS_PID" "our redis-server" 30
    rm -f "$MARKER" "$REDIS_PID"
  elif [ -e "$MARKER" ]; then
    rm -f "$MARKER"
    step "our Redis is not running (removed stale marker)"
  elif port_open "$REDIS_HOST" "$REDIS_PORT"; then
    step "Redis on $REDIS_HOST:$REDIS_PORT was not started by us; leaving it running"
  else
    step "not running"
  fi
}

cmd_status() {
  if ours_running; then
    echo "redis: running (ours, pid $(pid_of "$REDIS_PID"), data $REDIS_DIR) on $REDIS_HOST:$REDIS_PORT"
  elif port_open "$REDIS_HOST" "$REDIS_PORT"; then
    echo "redis: running on $REDIS_HOST:$REDIS_PORT (not started by us)"
  else
    echo "redis: stopped"
    exit 3
  fi
}

case "${1:-}" in
  up) cmd_up ;;
  down) cmd_down ;;
  status) cmd_status ;;
  *) echo "usage: $0 up|down|status" >&2; exit 2 ;;
esac
