#!/usr/bin/env bash
# Local Apache Kafka for Corridor: one KRaft node (broker + controller), 127.0.0.1:9092
# (controller 127.0.0.1:9093), run from the official jars resolved from Maven Central.
#
#   deploy/local/kafka.sh up      reuse a broker already answering on 127.0.0.1:9092, else resolve
#                                 the jars (cached), format storage once, start ours; then create
#                                 the topics listed in deploy/local/topics.txt
#   deploy/local/kafka.sh down    stop it only if we started it (SIGTERM, 30 s, then SIGKILL)
#   deploy/local/kafka.sh status  one line
#   deploy/local/kafka.sh reset   down, then delete the data and cluster id (keeps the jars)
#
# State: .local/kafka/{libs-<ver>,data,cluster.id,server.properties}, .local/m2 (Maven cache),
# .local/run/kafka.{pid,started}, .local/log/kafka.log (broker), .local/log/kafka-setup.log.
set -euo pipefail

# Newest Kafka that resolves from Maven Central and passes the kafkajs 2.2.4 probe; see
# docs/decisions/0004-kafka-4-from-maven-central-jars.md. CORRIDOR_KAFKA_VERSION overrides it (e.g. 3.9.2).
KAFKA_VERSION="${CORRIDOR_KAFKA_VERSION:-4.3.1}"

COMPONENT=kafka
# shellcheck source=deploy/local/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

KAFKA_HOST=127.0.0.1
KAFKA_PORT=9092
KAFKA_BOOTSTRAP="$KAFKA_HOST:$KAFKA_PORT"
KAFKA_SRC="$CORRIDOR_DEPLOY/kafka"
KAFKA_HOME="$CORRIDOR_LOCAL/kafka"
KAFKA_DATA="$KAFKA_HOME/data"
KAFKA_LIBS="$KAFKA_HOME/libs-$KAFKA_VERSION"
KAFKA_CONF="$KAFKA_HOME/server.properties"
TOOLS_CONF="$KAFKA_HOME/tools.properties"
CLUSTER_ID_FILE="$KAFKA_HOME/cluster.id"
DATA_VERSION_FILE="$KAFKA_HOME/data.version"
KAFKA_PID="$RUN_DIR/kafka.pid"
KAFKA_LOG="$LOG_DIR/kafka.log"
SETUP_LOG="$LOG_DIR/kafka-setup.log"
CURRENT_LOG="$SETUP_LOG"
MARKER="$RUN_DIR/kafka.started"
TOPICS_FILE="$CORRIDOR_DEPLOY/topics.txt"
KAFKA_HEAP_OPTS="${KAFKA_HEAP_OPTS:--Xms256m -Xmx512m}"
READY_TIMEOUT=90
STOP_TIMEOUT=30

if [ "${KAFKA_VERSION%%.*}" -ge 4 ]; then
  KAFKA_LOGGING=log4j2
  LOG_CONF_OPT="-Dlog4j2.configurationFile=$KAFKA_SRC/log4j2.properties"
else
  KAFKA_LOGGING=reload4j
  LOG_CONF_OPT="-Dlog4j.configuration=file:$KAFKA_SRC/log4j.properties"
fi

JAVA=""
TOPIC_CMD=""

# ---- prerequisites ------------------------------------------------------------------------------
# java_major and ensure_java: lib.sh (shared with S3Proxy).

ensure_mvn() {
  command -v mvn >/dev/null 2>&1 && return 0
  step "mvn missing; installing Debian's maven"
  apt_install maven
}

# Jars for $KAFKA_VERSION in $KAFKA_LIBS; re-resolved only when missing or pom.xml changed.
ensure_libs() {
  local pom="$KAFKA_SRC/pom.xml" stamp tmp
  stamp="$(sha256sum "$pom" | cut -c1-16) $KAFKA_LOGGING"
  if [ -f "$KAFKA_LIBS/.complete" ] && [ "$(<"$KAFKA_LIBS/.complete")" = "$stamp" ]; then
    TOPIC_CMD=$(<"$KAFKA_LIBS/.topic-command")
    return 0
  fi
  ensure_mvn
  tmp="$KAFKA_LIBS.tmp"
  rm -rf "$tmp"
  mkdir -p "$KAFKA_HOME"
  run_logged "$SETUP_LOG" "resolving Kafka $KAFKA_VERSION jars from Maven Central into $KAFKA_LIBS (mvn, cached in .local/m2)" \
    mvn -q -B -Dstyle.color=never -f "$pom" -Dmaven.repo.local="$CORRIDOR_LOCAL/m2" \
    -Dkafka.version="$KAFKA_VERSION" -Dkafka.logging="$KAFKA_LOGGING" \
    dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$tmp"
  [ -f "$tmp/kafka_2.13-$KAFKA_VERSION.jar" ] || die "mvn finished but $tmp has no kafka_2.13-$KAFKA_VERSION.jar" "$SETUP_LOG"
  # Zip central directories hold entry names uncompressed, so grep finds the class files.
  if grep -lqF 'org/apache/kafka/tools/TopicCommand.class' "$tmp"/*.jar; then
    TOPIC_CMD=org.apache.kafka.tools.TopicCommand
  elif grep -lqF 'kafka/admin/TopicCommand.class' "$tmp"/*.jar; then
    TOPIC_CMD=kafka.admin.TopicCommand
  else
    die "no TopicCommand class in the Kafka $KAFKA_VERSION jars ($tmp)"
  fi
  echo "$TOPIC_CMD" >"$tmp/.topic-command"
  echo "$stamp" >"$tmp/.complete"
  rm -rf "$KAFKA_LIBS"
  mv "$tmp" "$KAFKA_LIBS"
  step "jars ready: $(find "$KAFKA_LIBS" -name '*.jar' | wc -l) jars, topic tool $TOPIC_CMD"
}

# run_class CLASS ARGS... : a Kafka CLI class, small heap, quick JVM start, WARN logging to stderr,
# killed after $TOOL_TIMEOUT seconds.
TOOL_TIMEOUT=120
run_class() {
  timeout "$TOOL_TIMEOUT" "$JAVA" -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.awt.headless=true \
    -Dcorridor.log.level=WARN "$LOG_CONF_OPT" -cp "$KAFKA_LIBS/*" "$@"
}

write_configs() {
  mkdir -p "$KAFKA_DATA"
  sed "s|@DATA_DIR@|$KAFKA_DATA|g" "$KAFKA_SRC/server.properties" >"$KAFKA_CONF.tmp"
  mv "$KAFKA_CONF.tmp" "$KAFKA_CONF"
  printf 'request.timeout.ms=5000\ndefault.api.timeout.ms=10000\n' >"$TOOLS_CONF"
}

format_storage() {
  if [ -f "$KAFKA_DATA/meta.properties" ]; then
    local have
    have=$(cat "$DATA_VERSION_FILE" 2>/dev/null || echo unknown)
    if [ "$have" != "$KAFKA_VERSION" ]; then
      if [ "${have%%.*}" != "${KAFKA_VERSION%%.*}" ] || [ "$have" = unknown ]; then
        die "$KAFKA_DATA was formatted by Kafka $have, this script runs $KAFKA_VERSION; run '$0 reset' (deletes local Kafka data) and 'up' again"
      fi
      echo "$KAFKA_VERSION" >"$DATA_VERSION_FILE" # same major: Kafka upgrades the data itself
    fi
    return 0
  fi
  if [ ! -s "$CLUSTER_ID_FILE" ]; then
    step "generating a cluster id ($CLUSTER_ID_FILE)"
    run_class kafka.tools.StorageTool random-uuid 2>>"$SETUP_LOG" | tr -d '[:space:]' >"$CLUSTER_ID_FILE.tmp" ||
      die "kafka.tools.StorageTool random-uuid" "$SETUP_LOG"
    [ -s "$CLUSTER_ID_FILE.tmp" ] || die "kafka.tools.StorageTool random-uuid printed nothing" "$SETUP_LOG"
    mv "$CLUSTER_ID_FILE.tmp" "$CLUSTER_ID_FILE"
  fi
  run_logged "$SETUP_LOG" "formatting storage $KAFKA_DATA (cluster id $(<"$CLUSTER_ID_FILE"))" \
    run_class kafka.tools.StorageTool format -t "$(<"$CLUSTER_ID_FILE")" -c "$KAFKA_CONF" --ignore-formatted
  echo "$KAFKA_VERSION" >"$DATA_VERSION_FILE"
}

ours_running() { pid_running "$KAFKA_PID" "kafka.Kafka"; }

start_ours() {
  write_configs
  format_storage
  rm -f "$MARKER" "$KAFKA_PID"
  step "starting Kafka $KAFKA_VERSION (java kafka.Kafka, heap $KAFKA_HEAP_OPTS, log: $KAFKA_LOG)"
  printf '\n===== %s: starting Kafka %s (%s)\n' "$(date '+%F %T')" "$KAFKA_VERSION" "$KAFKA_CONF" >>"$KAFKA_LOG"
  # setsid: own session, so the broker outlives this shell and its terminal; the inner bash
  # writes its pid and execs nohup/java, so the pid file holds the JVM's pid.
  # shellcheck disable=SC2086 # KAFKA_HEAP_OPTS is a list of JVM flags
  setsid bash -c 'echo $$ >"$1"; shift; exec "$@"' _ "$KAFKA_PID" \
    nohup "$JAVA" $KAFKA_HEAP_OPTS -server -XX:+UseG1GC -XX:MaxGCPauseMillis=20 \
    -XX:InitiatingHeapOccupancyPercent=35 -XX:+ExplicitGCInvokesConcurrent -Djava.awt.headless=true \
    -Dcorridor.log.level=INFO "$LOG_CONF_OPT" -Dkafka.logs.dir="$LOG_DIR" \
    -cp "$KAFKA_LIBS/*" kafka.Kafka "$KAFKA_CONF" </dev/null >>"$KAFKA_LOG" 2>&1 &
  local i
  for ((i = 0; i < 50; i++)); do
    [ -s "$KAFKA_PID" ] && break
    sleep 0.1
  done
  echo "$KAFKA_VERSION $(date '+%F %T')" >"$MARKER"
}

running_version() { # version recorded in the marker by start_ours
  local v=""
  [ -s "$MARKER" ] && read -r v _ <"$MARKER"
  echo "${v:-unknown}"
}

# Prints the topic names; fails if the broker does not answer.
list_topics() {
  TOOL_TIMEOUT=30 run_class "$TOPIC_CMD" --bootstrap-server "$KAFKA_BOOTSTRAP" \
    --command-config "$TOOLS_CONF" --list 2>>"$SETUP_LOG"
}

EXISTING_TOPICS=""
wait_ready() { # $1 = yes when the broker is ours (then its death ends the wait at once)
  local ours=$1 deadline=$((SECONDS + READY_TIMEOUT)) said=0
  while :; do
    if port_open "$KAFKA_HOST" "$KAFKA_PORT" && EXISTING_TOPICS=$(list_topics); then
      return 0
    fi
    if [ "$ours" = yes ] && ! ours_running; then
      rm -f "$MARKER" "$KAFKA_PID"
      local first_error
      first_error=$(awk '/^===== .*starting Kafka/ {n = NR} {line[NR] = $0} END {for (i = n; i <= NR; i++) if (line[i] ~ / (ERROR|FATAL) /) {print line[i]; exit}}' "$KAFKA_LOG")
      die "Kafka exited during startup${first_error:+; first error: $first_error}" "$KAFKA_LOG"
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      die "Kafka did not answer a topic listing on $KAFKA_BOOTSTRAP within ${READY_TIMEOUT}s (tool errors: $SETUP_LOG)" "$KAFKA_LOG"
    fi
    if [ "$said" = 0 ]; then
      step "waiting for Kafka to list topics on $KAFKA_BOOTSTRAP (timeout ${READY_TIMEOUT}s)"
      said=1
    fi
    sleep 1
  done
}

ensure_topics() {
  local name parts _rest created=0
  [ -f "$TOPICS_FILE" ] || die "missing $TOPICS_FILE"
  while read -r name parts _rest || [ -n "${name:-}" ]; do
    if [ -z "${name:-}" ] || [ "${name:0:1}" = "#" ]; then continue; fi
    [[ "$name" =~ ^[A-Za-z0-9._-]+$ ]] || die "bad topic name '$name' in $TOPICS_FILE"
    [[ "${parts:-}" =~ ^[0-9]+$ ]] || die "bad partition count for '$name' in $TOPICS_FILE (lines are: name partitions)"
    if grep -qxF -- "$name" <<<"$EXISTING_TOPICS"; then continue; fi
    run_logged "$SETUP_LOG" "creating topic $name ($parts partitions)" \
      run_class "$TOPIC_CMD" --bootstrap-server "$KAFKA_BOOTSTRAP" --command-config "$TOOLS_CONF" \
      --create --if-not-exists --topic "$name" --partitions "$parts" --replication-factor 1
    created=$((created + 1))
  done <"$TOPICS_FILE"
  if [ "$created" -eq 0 ]; then
    step "topics present: $(awk '!/^#/ && NF {print $1}' "$TOPICS_FILE" | xargs)"
  fi
}

# ---- commands -----------------------------------------------------------------------------------
cmd_up() {
  local ours=no
  mkdir -p "$KAFKA_HOME"
  ensure_java
  ensure_libs
  [ -f "$TOOLS_CONF" ] || write_configs
  if ours_running; then
    ours=yes
    [ -e "$MARKER" ] || echo "unknown $(date '+%F %T')" >"$MARKER"
    step "reusing our Kafka $(running_version) (pid $(pid_of "$KAFKA_PID")) on $KAFKA_BOOTSTRAP"
    if [ "$(running_version)" != "$KAFKA_VERSION" ]; then
      warn "the running broker is Kafka $(running_version), this script is set to $KAFKA_VERSION; run '$0 down' then 'up' to switch"
    fi
  elif port_open "$KAFKA_HOST" "$KAFKA_PORT"; then
    rm -f "$MARKER"
    step "reusing the Kafka already answering on $KAFKA_BOOTSTRAP (not started by us)"
  else
    start_ours
    ours=yes
  fi
  wait_ready "$ours"
  ensure_topics
  step "ready: bootstrap $KAFKA_BOOTSTRAP ($(if [ "$ours" = yes ]; then echo "ours, Kafka $(running_version)"; else echo reused; fi))"
}

cmd_down() {
  if ours_running; then
    stop_pid "$KAFKA_PID" "our Kafka" "$STOP_TIMEOUT"
    rm -f "$MARKER" "$KAFKA_PID"
  elif [ -e "$MARKER" ]; then
    rm -f "$MARKER" "$KAFKA_PID"
    step "our Kafka is not running (removed stale marker)"
  elif port_open "$KAFKA_HOST" "$KAFKA_PORT"; then
    step "Kafka on $KAFKA_BOOTSTRAP was not started by us; leaving it running"
  else
    step "not running"
  fi
}

cmd_status() {
  if ours_running; then
    echo "kafka: running (ours, Kafka $(running_version), pid $(pid_of "$KAFKA_PID"), data $KAFKA_DATA) on $KAFKA_BOOTSTRAP"
  elif port_open "$KAFKA_HOST" "$KAFKA_PORT"; then
    echo "kafka: running on $KAFKA_BOOTSTRAP (not started by us)"
  else
    echo "kafka: stopped"
    exit 3
  fi
}

cmd_reset() {
  cmd_down
  step "deleting $KAFKA_DATA, $CLUSTER_ID_FILE (jars in $KAFKA_HOME/libs-* are kept)"
  rm -rf "$KAFKA_DATA" "$CLUSTER_ID_FILE" "$DATA_VERSION_FILE"
}

case "${1:-}" in
  up) cmd_up ;;
  down) cmd_down ;;
  status) cmd_status ;;
  reset) cmd_reset ;;
  *) echo "usage: $0 up|down|status|reset" >&2; exit 2 ;;
esac
