#!/usr/bin/env bash
# Corridor's own processes on this machine, built into services/<name>/dist.
#
#   deploy/local/services.sh up            migrate, then start every service in order (one that runs,
#                                          unchanged, is left as it is); wait until every replica is ready
#   deploy/local/services.sh restart NAME  migrate and restart that service's replicas one at a time
#   deploy/local/services.sh down          stop the services this script started, every replica
#
# CORRIDOR_REPLICAS=N (default 1), or CORRIDOR_REPLICAS_<SERVICE> for one service (IDENTITY, CUSTOMER_KYB,
# NOTIFICATION, PAYMENTS, GATEWAY, DASHBOARD), runs N replicas of each: replica 1 is <service> on its
# usual ports, replica k is <service>-k on each port + 100*(k-1), and every other service is given the
# list of all of a gRPC service's replicas (docs/decisions/0036-local-replicas-and-supervision.md).
# `restart` without those variables keeps the counts of the last `up` (.local/run/replicas).
#
# Each replica runs under deploy/local/supervise.mjs, which restarts it when it crashes (after 0.5 s,
# doubling up to 15 s) and writes a line in its log each time, and whose death (even SIGKILL) takes the
# service with it (deploy/local/exit-with-supervisor.mjs). Logs: .local/log/<replica>.log; pids:
# .local/run/<replica>.pid (the supervisor) and .local/run/<replica>.child.pid (the service itself: kill
# -9 it and it comes back by itself; SIGTERM it and it stays stopped); .local/run/<replica>.build: what
# it was started from, so `up` restarts it only when rebuilt or reconfigured. A service left running
# without its supervisor (an orphan) is stopped by `up` and `down` first. CORRIDOR_RUN_DIR moves the
# pid files (test/house/local-supervision.spec.ts). The admin token and identity's and
# notification's master keys are made once and kept in .local/admin-token,
# .local/identity-secret-key and .local/notification-secret-key; object storage's credentials are
# S3Proxy's fixed local ones (deploy/local/s3proxy.sh).
set -euo pipefail
COMPONENT=services
# shellcheck source=deploy/local/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# shellcheck source=deploy/local/toolchain.sh
. "$CORRIDOR_DEPLOY/toolchain.sh" || die "could not provide Node 24 and pnpm" "$LOG_DIR/toolchain.log"
RUN_DIR=${CORRIDOR_RUN_DIR:-$RUN_DIR}
mkdir -p "$RUN_DIR"

# Start order: a service comes after everything it calls (the dashboard calls the four gRPC services
# and writes the gateway's access cache).
SERVICES=(identity customer-kyb notification payments gateway dashboard)
# Services with a database and migrations.
MIGRATED=(identity customer-kyb notification payments)
# The gRPC services, with the variable that is both their own bind address and their callers' address
# of them, and their first replica's port.
declare -A GRPC_VARIABLE=([identity]=IDENTITY_GRPC_ADDRESS [customer-kyb]=CUSTOMER_GRPC_ADDRESS
  [notification]=NOTIFICATION_GRPC_ADDRESS [payments]=PAYMENTS_GRPC_ADDRESS)
declare -A GRPC_PORT=([identity]=50051 [customer-kyb]=50052 [notification]=50053 [payments]=50054)
GRPC_SERVICES=(identity customer-kyb notification payments)
# Replica k listens on each of replica 1's ports + 100*(k-1): 1 to 9 keeps them clear of 9000-9093.
MAX_REPLICAS=9
REPLICAS_FILE="$RUN_DIR/replicas"

# replica_count SERVICE: sets COUNT[SERVICE] to CORRIDOR_REPLICAS_<SERVICE>, else CORRIDOR_REPLICAS,
# else (restart only) the count of the last `up`, else 1. Not a $(…): die must end the script.
declare -A COUNT=()
replica_count() {
  local variable count
  variable=CORRIDOR_REPLICAS_$(tr 'a-z-' 'A-Z_' <<<"$1")
  count=${!variable:-${CORRIDOR_REPLICAS:-}}
  if [ -z "$count" ] && [ "${USE_RECORDED_REPLICAS:-0}" = 1 ] && [ -s "$REPLICAS_FILE" ]; then
    count=$(awk -v s="$1" '$1 == s { print $2 }' "$REPLICAS_FILE")
  fi
  count=${count:-1}
  if ! [[ "$count" =~ ^[1-9][0-9]*$ ]] || ((count > MAX_REPLICAS)); then
    die "$variable (or CORRIDOR_REPLICAS) must be a whole number from 1 to $MAX_REPLICAS (got '$count')"
  fi
  COUNT[$1]=$count
}

# replica_name SERVICE K: replica 1 keeps the service's name, replica k is SERVICE-k.
replica_name() { if (($2 == 1)); then echo "$1"; else echo "$1-$2"; fi; }

# grpc_addresses SERVICE: every replica of a gRPC service, comma-separated (its callers' list).
grpc_addresses() {
  local k list=()
  for ((k = 1; k <= COUNT[$1]; k++)); do list+=("127.0.0.1:$((GRPC_PORT[$1] + 100 * (k - 1)))"); done
  (IFS=, && echo "${list[*]}")
}

# replica_environment SERVICE K: the VARIABLE=value lines for that replica alone. With one replica of
# everything it is what it always was (the services' defaults are replica 1's addresses).
replica_environment() {
  local service=$1 k=$2 offset=$((100 * ($2 - 1))) other
  for other in "${GRPC_SERVICES[@]}"; do
    if [ "$other" = "$service" ]; then
      # Its own bind address; replica 1's is the default.
      if ((k > 1)); then echo "${GRPC_VARIABLE[$other]}=127.0.0.1:$((GRPC_PORT[$other] + offset))"; fi
    elif ((COUNT[$other] > 1)); then
      echo "${GRPC_VARIABLE[$other]}=$(grpc_addresses "$other")"
    fi
  done
  case $service in
    # Prometheus /metrics of the webhook deliveries: http://127.0.0.1:9464/metrics (replica k: + 100*(k-1))
    notification) echo "METRICS_PORT=$((9464 + offset))" ;;
    gateway)
      if ((k > 1)); then printf 'GATEWAY_PUBLIC_PORT=%s\nGATEWAY_ADMIN_PORT=%s\n' $((8080 + offset)) $((8081 + offset)); fi
      ;;
    # The members' web app (README.md, "Dashboard"): its own origin, and the API it shows (the first
    # gateway's). The gRPC addresses are the services' local defaults (127.0.0.1:50051 to 50054) or,
    # with replicas, their lists, as for the gateway.
    dashboard)
      echo "DASHBOARD_PORT=$((8090 + offset))"
      echo "DASHBOARD_ORIGIN=http://127.0.0.1:$((8090 + offset))"
      echo "API_BASE_URL=http://127.0.0.1:8080"
      ;;
  esac
  return 0
}

# alive PID: it runs (a zombie, dead but not yet reaped by init, does not count).
alive() {
  local state
  [ -n "$1" ] && kill -0 "$1" 2>/dev/null || return 1
  state=$(sed -E 's/^[0-9]+ \(.*\) (.).*/\1/' "/proc/$1/stat" 2>/dev/null) || return 1
  [ "$state" != Z ]
}

# pid_alive PIDFILE: its pid runs.
pid_alive() { alive "$(pid_of "$1")"; }

# is_supervisor NAME PIDFILE: the pid is alive and is supervise.mjs running NAME (not a reused pid).
is_supervisor() { pid_alive "$2" && pid_running "$2" "supervise.mjs $1 "; }

# is_service NAME PIDFILE: the pid is alive and is the service supervise.mjs started as NAME (its
# environment says so: CORRIDOR_SUPERVISED_AS), or, started by an older supervise.mjs, a dist/main.js
# running in services/<service>.
is_service() {
  local pid
  pid_alive "$2" || return 1
  pid=$(pid_of "$2")
  # Not a pipe into grep -q: pipefail would count tr's SIGPIPE as a failure.
  grep -qxF "CORRIDOR_SUPERVISED_AS=$1" < <(tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null) && return 0
  [ "$(readlink "/proc/$pid/cwd" 2>/dev/null)" = "$CORRIDOR_ROOT/services/${1%-[0-9]*}" ] &&
    pid_running "$2" "dist/main.js"
}

# kill_pid PID WHAT: SIGTERM, up to 10 s, then SIGKILL.
kill_pid() {
  local pid=$1 i
  kill -TERM "$pid" 2>/dev/null || return 0
  for ((i = 0; i < 100; i++)); do
    alive "$pid" || return 0
    sleep 0.1
  done
  warn "$2 (pid $pid) still alive after 10 s; sending SIGKILL"
  kill -KILL "$pid" 2>/dev/null || true
}

# known_replicas SERVICE: the replicas of SERVICE that have a pid file, whatever the counts now.
known_replicas() {
  local file name
  for file in "$RUN_DIR/$1".pid "$RUN_DIR/$1".child.pid "$RUN_DIR/$1"-*.pid; do
    [ -e "$file" ] || continue
    name=${file##*/}
    name=${name%.pid}
    name=${name%.child}
    if [[ "$name" =~ ^$1(-[0-9]+)?$ ]]; then echo "$name"; fi
  done | sort -u -V
}

# stop_orphan NAME: a service whose supervisor is gone (SIGKILLed) is stopped, and said.
stop_orphan() {
  local name=$1 pidfile="$RUN_DIR/$1.pid" childfile="$RUN_DIR/$1.child.pid" pid
  if ! is_supervisor "$name" "$pidfile" && is_service "$name" "$childfile"; then
    pid=$(pid_of "$childfile")
    step "$name runs without its supervisor (an orphan, pid $pid): stopping it"
    kill_pid "$pid" "$name"
    rm -f "$pidfile" "$childfile" "$RUN_DIR/$name.build"
  fi
  return 0
}

stop_orphans() {
  local service name
  for service in "${SERVICES[@]}"; do
    for name in $(known_replicas "$service"); do stop_orphan "$name"; done
  done
}

# stop_replica NAME: SIGTERM to its supervisor, which stops the service (SIGKILL after 10 s) and exits.
stop_replica() {
  local name=$1 pidfile="$RUN_DIR/$1.pid" childfile="$RUN_DIR/$1.child.pid" pid child="" i
  stop_orphan "$name"
  if is_supervisor "$name" "$pidfile"; then
    pid=$(pid_of "$pidfile")
    if is_service "$name" "$childfile"; then child=$(pid_of "$childfile"); fi
    step "stopping $name (pid $pid)"
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < 150; i++)); do
      is_supervisor "$name" "$pidfile" || break
      sleep 0.1
    done
    if is_supervisor "$name" "$pidfile"; then kill -KILL "$pid" 2>/dev/null || true; fi
    # The supervisor waited for it, unless it was killed: then its service goes too, now.
    if alive "$child"; then kill -KILL "$child" 2>/dev/null || true; fi
  fi
  rm -f "$pidfile" "$childfile" "$RUN_DIR/$name.build"
}

# build_stamp SERVICE: a hash of the service's dist and of every workspace package's dist it imports
# (each file's path, size and time): a build that changed any of them changes it.
build_stamp() {
  local -A seen=()
  local queue=("$CORRIDOR_ROOT/services/$1") dirs=() dir dep
  while ((${#queue[@]})); do
    dir=${queue[0]}
    queue=("${queue[@]:1}")
    [ -z "${seen[$dir]:-}" ] || continue
    seen[$dir]=1
    if [ -d "$dir/dist" ]; then dirs+=("$dir/dist"); fi
    for dep in "$dir"/node_modules/@corridor/*; do
      if [ -e "$dep" ]; then queue+=("$(readlink -f "$dep")"); fi
    done
  done
  ((${#dirs[@]})) || { echo none; return 0; }
  find "${dirs[@]}" -type f -printf '%p %s %T@\n' | LC_ALL=C sort | md5sum | cut -d' ' -f1
}

# start_replica SERVICE K MODE: MODE "up" leaves a replica that runs, unchanged, as it is; "restart"
# restarts it whatever it is.
start_replica() {
  local service=$1 k=$2 mode=$3 name log pidfile childfile buildfile i from this_start build settings
  local variables=()
  name=$(replica_name "$service" "$k")
  log="$LOG_DIR/$name.log" pidfile="$RUN_DIR/$name.pid" childfile="$RUN_DIR/$name.child.pid" buildfile="$RUN_DIR/$name.build"
  mapfile -t variables < <(replica_environment "$service" "$k")
  build=$(build_stamp "$service")
  settings=$(printf '%s\n' "${variables[@]}" | md5sum | cut -d' ' -f1)
  if [ "$mode" = up ] && is_supervisor "$name" "$pidfile" && is_service "$name" "$childfile"; then
    if [ ! -s "$buildfile" ] || grep -qxF "build $build" "$buildfile"; then
      if [ ! -s "$buildfile" ] || grep -qxF "settings $settings" "$buildfile"; then
        step "$name is running (pid $(pid_of "$childfile"), supervisor $(pid_of "$pidfile")), unchanged: left as it is"
        return 0
      fi
      step "$name's settings changed since it started ($service's replicas or those it calls): restarting"
    else
      step "$name was rebuilt since it started: restarting"
    fi
  fi
  stop_replica "$name" # a restart picks up the code just built
  step "starting $name (log: $log)"
  printf '\n===== %s: starting %s\n' "$(date '+%F %T')" "$name" >>"$log"
  # Only this start's lines count: the log also holds earlier runs' "listening".
  from=$(($(stat -c %s "$log") + 1))
  (cd "$CORRIDOR_ROOT/services/$service" && exec env "${variables[@]}" nohup node "$CORRIDOR_DEPLOY/supervise.mjs" "$name" \
    --child-pid-file "$childfile" -- node dist/main.js </dev/null >>"$log" 2>&1) &
  echo $! >"$pidfile"
  printf 'build %s\nsettings %s\n' "$build" "$settings" >"$buildfile"
  for ((i = 0; i < 300; i++)); do
    pid_alive "$pidfile" || die "$name exited during start" "$log"
    this_start=$(tail -c "+$from" "$log")
    grep -q "\"msg\":\"$service listening\"" <<<"$this_start" && return 0
    # The supervisor would retry for ever; a service that cannot start is a failure to read now.
    if grep -q "supervisor: $name exited" <<<"$this_start"; then
      stop_replica "$name"
      die "$name exited during start" "$log"
    fi
    sleep 0.1
  done
  stop_replica "$name"
  die "$name did not report listening within 30 s" "$log"
}

# count_replicas: COUNT[service] for every service; record_replicas: what `restart` and start.sh read.
count_replicas() {
  local service
  for service in "${SERVICES[@]}"; do replica_count "$service"; done
}
record_replicas() {
  local service
  for service in "${SERVICES[@]}"; do echo "$service ${COUNT[$service]}"; done >"$REPLICAS_FILE"
}

# stop_surplus SERVICE: its replicas beyond COUNT (left from an `up` with more).
stop_surplus() {
  local name k
  for name in $(known_replicas "$1"); do
    k=1
    if [ "$name" != "$1" ] && [[ "$name" =~ -([0-9]+)$ ]]; then k=${BASH_REMATCH[1]}; fi
    if ((k > COUNT[$1])); then
      step "$name is beyond $1's $((COUNT[$1])) replica(s) now: stopping it"
      stop_replica "$name"
    fi
  done
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

# wait_ready URL LOG: its /readyz answers 200 within 20 s.
wait_ready() {
  local i
  for ((i = 0; i < 100; i++)); do
    curl -fsS "$1/readyz" >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  die "$1 is not ready: $(curl -sS "$1/readyz" 2>&1)" "$2"
}

cmd_up() {
  local service k offset public=() admin=() dashboard=()
  # Before anything else: a service left by a SIGKILLed supervisor would hold its port.
  stop_orphans
  count_replicas
  for service in "${SERVICES[@]}"; do stop_surplus "$service"; done
  record_replicas
  export_environment
  # Once per service, not per replica: they share its database.
  for service in "${MIGRATED[@]}"; do migrate_service "$service"; done
  for service in "${SERVICES[@]}"; do
    for ((k = 1; k <= COUNT[$service]; k++)); do start_replica "$service" "$k" up; done
  done
  for ((k = 1; k <= COUNT[gateway]; k++)); do
    offset=$((100 * (k - 1)))
    wait_ready "http://127.0.0.1:$((8080 + offset))" "$LOG_DIR/$(replica_name gateway "$k").log"
    public+=("http://127.0.0.1:$((8080 + offset))")
    admin+=("http://127.0.0.1:$((8081 + offset))")
  done
  for ((k = 1; k <= COUNT[dashboard]; k++)); do
    offset=$((100 * (k - 1)))
    wait_ready "http://127.0.0.1:$((8090 + offset))" "$LOG_DIR/$(replica_name dashboard "$k").log"
    dashboard+=("http://127.0.0.1:$((8090 + offset))")
  done
  step "ready: public API ${public[*]}, admin API ${admin[*]}, dashboard ${dashboard[*]}"
}

# restart NAME: every replica of NAME, one at a time (each listens before the next stops), so the
# others keep answering meanwhile.
cmd_restart() {
  local k
  [[ " ${SERVICES[*]} " == *" $1 "* ]] || die "no service named '$1' (one of: ${SERVICES[*]})"
  USE_RECORDED_REPLICAS=1
  count_replicas
  stop_orphans
  stop_surplus "$1"
  export_environment
  migrate_service "$1"
  for ((k = 1; k <= COUNT[$1]; k++)); do start_replica "$1" "$k" restart; done
}

cmd_down() {
  local i name
  # Orphans first (said as such), then every replica that has a pid file, whatever the counts now.
  stop_orphans
  for ((i = ${#SERVICES[@]} - 1; i >= 0; i--)); do
    for name in $(known_replicas "${SERVICES[$i]}" | sort -r -V); do stop_replica "$name"; done
  done
  rm -f "$REPLICAS_FILE"
}

usage() { echo "usage: $0 up|down|restart NAME" >&2; exit 2; }
case "${1:-}" in
  up) [ $# -eq 1 ] || usage; cmd_up ;;
  down) [ $# -eq 1 ] || usage; cmd_down ;;
  restart) [ $# -eq 2 ] || usage; cmd_restart "$2" ;;
  *) usage ;;
esac
