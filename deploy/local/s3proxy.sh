#!/usr/bin/env bash
# Local S3-compatible object storage for Corridor: S3Proxy on 127.0.0.1:9000 with its filesystem
# backend, run from its jar on Maven Central with Java 17 (customer-kyb's presigned uploads).
#
#   deploy/local/s3proxy.sh up      reuse an S3 endpoint already answering on 127.0.0.1:9000, else
#                                   download the jar (once, SHA-1 checked) and start ours; then
#                                   create the bucket corridor-files if missing
#   deploy/local/s3proxy.sh down    stop it only if we started it (SIGTERM, 30 s, then SIGKILL)
#   deploy/local/s3proxy.sh status  one line
#   deploy/local/s3proxy.sh reset   down, then delete every bucket and object (keeps the jar)
#
# Credentials: access key corridor-local, secret corridor-local-secret: fixed, like PostgreSQL's
# corridor/corridor, so every clone on this machine can reuse the server (it listens on 127.0.0.1
# only). services.sh passes them to the services (S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY).
# State: .local/s3proxy/{s3proxy-<ver>.jar,s3proxy.properties,data}, .local/run/s3proxy.{pid,started},
# .local/log/s3proxy.log.
set -euo pipefail

S3PROXY_VERSION="${CORRIDOR_S3PROXY_VERSION:-4.1.0}"

COMPONENT=s3proxy
# shellcheck source=deploy/local/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

S3_HOST=127.0.0.1
S3_PORT=9000
S3_ENDPOINT="http://$S3_HOST:$S3_PORT"
S3_REGION=us-east-1
S3_ACCESS_KEY=corridor-local
S3_BUCKET=corridor-files
S3PROXY_URL="https://repo1.maven.org/maven2/org/gaul/s3proxy/$S3PROXY_VERSION/s3proxy-$S3PROXY_VERSION-jar-with-dependencies.jar"
S3PROXY_HOME="$CORRIDOR_LOCAL/s3proxy"
S3PROXY_JAR="$S3PROXY_HOME/s3proxy-$S3PROXY_VERSION.jar"
S3PROXY_DATA="$S3PROXY_HOME/data"
S3PROXY_CONF="$S3PROXY_HOME/s3proxy.properties"
S3PROXY_PID="$RUN_DIR/s3proxy.pid"
S3PROXY_LOG="$LOG_DIR/s3proxy.log"
CURRENT_LOG="$S3PROXY_LOG"
MARKER="$RUN_DIR/s3proxy.started"
S3PROXY_JAVA_OPTS="${S3PROXY_JAVA_OPTS:--Xms64m -Xmx256m}"
READY_TIMEOUT=60
STOP_TIMEOUT=30

JAVA=""
SECRET=corridor-local-secret
OURS=no # yes when the server on the port is the one this script started

# s3_fail "what" : dies; with our log when the server is ours, else saying whose it is not.
s3_fail() {
  if [ "$OURS" = yes ]; then die "$1" "$S3PROXY_LOG"; fi
  die "$1; the server on $S3_HOST:$S3_PORT was not started by us: stop it or free the port"
}

# The jar in .local/s3proxy, downloaded once and checked against the .sha1 Maven Central publishes.
ensure_jar() {
  [ -s "$S3PROXY_JAR" ] && return 0
  local tmp="$S3PROXY_JAR.tmp" want got
  mkdir -p "$S3PROXY_HOME"
  run_logged "$S3PROXY_LOG" "downloading S3Proxy $S3PROXY_VERSION from Maven Central (≈55 MB)" \
    curl -fsSL --retry 3 -o "$tmp" "$S3PROXY_URL"
  want=$(curl -fsSL --retry 3 "$S3PROXY_URL.sha1" 2>>"$S3PROXY_LOG" | grep -oE '^[0-9a-f]{40}') ||
    die "could not fetch $S3PROXY_URL.sha1" "$S3PROXY_LOG"
  got=$(sha1sum "$tmp" | cut -c1-40)
  if [ "$got" != "$want" ]; then
    rm -f "$tmp"
    die "$S3PROXY_URL: SHA-1 $got, Maven Central says $want; deleted the download"
  fi
  mv "$tmp" "$S3PROXY_JAR"
  step "jar ready: $S3PROXY_JAR (SHA-1 $got, as published)"
}

write_config() {
  mkdir -p "$S3PROXY_DATA"
  # Holds the secret: readable by us alone.
  (
    umask 077
    cat >"$S3PROXY_CONF.tmp" <<EOF
s3proxy.endpoint=$S3_ENDPOINT
s3proxy.authorization=aws-v2-or-v4
s3proxy.identity=$S3_ACCESS_KEY
s3proxy.credential=$SECRET
# Browsers upload straight to presigned URLs (docs/decisions/0008-customer-api.md, "Files").
s3proxy.cors-allow-all=true
jclouds.provider=filesystem
jclouds.filesystem.basedir=$S3PROXY_DATA
EOF
  )
  mv "$S3PROXY_CONF.tmp" "$S3PROXY_CONF"
}

ours_running() { pid_running "$S3PROXY_PID" "s3proxy"; }

start_ours() {
  write_config
  rm -f "$MARKER" "$S3PROXY_PID"
  step "starting S3Proxy $S3PROXY_VERSION (java -jar, filesystem backend $S3PROXY_DATA, log: $S3PROXY_LOG)"
  printf '\n===== %s: starting S3Proxy %s (%s)\n' "$(date '+%F %T')" "$S3PROXY_VERSION" "$S3PROXY_CONF" >>"$S3PROXY_LOG"
  # As for Kafka: own session, and the pid file holds the JVM's pid. The status listener keeps
  # logback's start-up chatter out of the log.
  # shellcheck disable=SC2086 # S3PROXY_JAVA_OPTS is a list of JVM flags
  setsid bash -c 'echo $$ >"$1"; shift; exec "$@"' _ "$S3PROXY_PID" \
    nohup "$JAVA" $S3PROXY_JAVA_OPTS -XX:+UseSerialGC -Djava.awt.headless=true \
    -Dlogback.statusListenerClass=ch.qos.logback.core.status.NopStatusListener \
    -jar "$S3PROXY_JAR" --properties "$S3PROXY_CONF" </dev/null >>"$S3PROXY_LOG" 2>&1 &
  local i
  for ((i = 0; i < 50; i++)); do
    [ -s "$S3PROXY_PID" ] && break
    sleep 0.1
  done
  echo "$S3PROXY_VERSION $(date '+%F %T')" >"$MARKER"
}

running_version() {
  local v=""
  [ -s "$MARKER" ] && read -r v _ <"$MARKER"
  echo "${v:-unknown}"
}

# s3_status METHOD PATH : the HTTP status of a SigV4-signed request ("000" when nothing answers).
# The credentials go to curl on a file descriptor, never on its command line.
s3_status() {
  local method=(-X "$1")
  [ "$1" != HEAD ] || method=(--head) # -X HEAD would wait for a body that never comes
  curl -sS -o /dev/null -w '%{http_code}' --max-time 5 "${method[@]}" \
    --aws-sigv4 "aws:amz:$S3_REGION:s3" -K <(printf 'user = "%s:%s"\n' "$S3_ACCESS_KEY" "$SECRET") \
    -H "x-amz-content-sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" \
    "$S3_ENDPOINT$2" 2>/dev/null || true
}

wait_ready() { # when the server is ours, its death ends the wait at once
  local deadline=$((SECONDS + READY_TIMEOUT)) said=0 status
  while :; do
    status=$(s3_status GET /)
    case "$status" in
      200) return 0 ;;
      403) s3_fail "$S3_ENDPOINT refuses access key $S3_ACCESS_KEY and secret $SECRET" ;;
    esac
    if [ "$OURS" = yes ] && ! ours_running; then
      rm -f "$MARKER" "$S3PROXY_PID"
      die "S3Proxy exited during startup" "$S3PROXY_LOG"
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      s3_fail "$S3_ENDPOINT did not answer a signed ListBuckets within ${READY_TIMEOUT}s (last HTTP status $status)"
    fi
    if [ "$said" = 0 ]; then
      step "waiting for S3Proxy to answer on $S3_ENDPOINT (timeout ${READY_TIMEOUT}s)"
      said=1
    fi
    sleep 0.5
  done
}

ensure_bucket() {
  local status
  status=$(s3_status HEAD "/$S3_BUCKET")
  case "$status" in
    200) step "bucket present: $S3_BUCKET" ;;
    404)
      status=$(s3_status PUT "/$S3_BUCKET")
      [ "$status" = 200 ] || s3_fail "creating bucket $S3_BUCKET answered HTTP $status"
      step "created bucket $S3_BUCKET"
      ;;
    *) s3_fail "HEAD bucket $S3_BUCKET answered HTTP $status" ;;
  esac
}

cmd_up() {
  if ours_running; then
    OURS=yes
    [ -e "$MARKER" ] || echo "unknown $(date '+%F %T')" >"$MARKER"
    step "reusing our S3Proxy $(running_version) (pid $(pid_of "$S3PROXY_PID")) on $S3_ENDPOINT"
  elif port_open "$S3_HOST" "$S3_PORT"; then
    rm -f "$MARKER"
    step "reusing the S3 endpoint already answering on $S3_ENDPOINT (not started by us)"
  else
    ensure_java
    ensure_jar
    start_ours
    OURS=yes
  fi
  wait_ready
  ensure_bucket
  step "ready: $S3_ENDPOINT, bucket $S3_BUCKET, access key $S3_ACCESS_KEY ($(if [ "$OURS" = yes ]; then echo "ours, S3Proxy $(running_version)"; else echo reused; fi))"
}

cmd_down() {
  if ours_running; then
    stop_pid "$S3PROXY_PID" "our S3Proxy" "$STOP_TIMEOUT"
    rm -f "$MARKER" "$S3PROXY_PID"
  elif [ -e "$MARKER" ]; then
    rm -f "$MARKER" "$S3PROXY_PID"
    step "our S3Proxy is not running (removed stale marker)"
  elif port_open "$S3_HOST" "$S3_PORT"; then
    step "the S3 endpoint on $S3_ENDPOINT was not started by us; leaving it running"
  else
    step "not running"
  fi
}

cmd_status() {
  if ours_running; then
    echo "s3proxy: running (ours, S3Proxy $(running_version), pid $(pid_of "$S3PROXY_PID"), data $S3PROXY_DATA) on $S3_ENDPOINT"
  elif port_open "$S3_HOST" "$S3_PORT"; then
    echo "s3proxy: running on $S3_ENDPOINT (not started by us)"
  else
    echo "s3proxy: stopped"
    exit 3
  fi
}

cmd_reset() {
  cmd_down
  step "deleting $S3PROXY_DATA (the jar is kept)"
  rm -rf "$S3PROXY_DATA"
}

case "${1:-}" in
  up) cmd_up ;;
  down) cmd_down ;;
  status) cmd_status ;;
  reset) cmd_reset ;;
  *) echo "usage: $0 up|down|status|reset" >&2; exit 2 ;;
esac
