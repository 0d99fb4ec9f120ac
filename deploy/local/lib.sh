# shellcheck shell=bash
# Shared helpers for deploy/local/{postgres,redis,kafka,s3proxy,infra,services}.sh.
# Sourced (not executed) by those scripts after they set COMPONENT and `set -euo pipefail`.

CORRIDOR_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
CORRIDOR_LOCAL="$CORRIDOR_ROOT/.local"
CORRIDOR_DEPLOY="$CORRIDOR_ROOT/deploy/local"
LOG_DIR="$CORRIDOR_LOCAL/log"
RUN_DIR="$CORRIDOR_LOCAL/run"
export CORRIDOR_ROOT CORRIDOR_LOCAL
mkdir -p "$LOG_DIR" "$RUN_DIR"

COMPONENT="${COMPONENT:-infra}"

step() { printf '[%s] %s\n' "$COMPONENT" "$*"; }
warn() { printf '[%s] WARNING: %s\n' "$COMPONENT" "$*" >&2; }

# die "what failed" [log file]
die() {
  printf '[%s] FAILED: %s\n' "$COMPONENT" "$1" >&2
  if [ -n "${2:-}" ]; then
    if [ -s "$2" ]; then
      printf '[%s] last lines of %s:\n' "$COMPONENT" "$2" >&2
      tail -n 15 "$2" | sed 's/^/    | /' >&2
    fi
    printf '[%s] read the log: %s\n' "$COMPONENT" "$2" >&2
  fi
  exit 1
}

# Anything that fails without being handled explicitly still gets a clear message.
set -E
trap 'die "unexpected error (exit $?) at ${BASH_SOURCE[0]##*/}:$LINENO running: $BASH_COMMAND" "${CURRENT_LOG:-}"' ERR

# run_logged LOG "description" cmd... : one step line, output appended to LOG, dies on failure.
run_logged() {
  local log=$1 desc=$2
  shift 2
  step "$desc"
  printf '\n=== %s: %s\n$ %s\n' "$(date '+%F %T')" "$desc" "$*" >>"$log"
  if ! "$@" >>"$log" 2>&1; then
    die "$desc" "$log"
  fi
}

# port_open HOST PORT : true if something accepts TCP connections there.
port_open() {
  timeout 2 bash -c 'exec 3<>"/dev/tcp/$1/$2"' _ "$1" "$2" 2>/dev/null
}

# now_ms : milliseconds since the epoch (bash's own clock, no process).
now_ms() {
  local now=${EPOCHREALTIME/./}
  echo "${now:0:-3}"
}

# slowdown_percent : how many times slower than quiet the machine runs now, in percent (100 = quiet):
# the last minute's load per core, 100 to 600. The same measure as @corridor/testing's MachineClock.
slowdown_percent() {
  local load cores percent
  read -r load _ </proc/loadavg
  cores=$(nproc)
  percent=$((10#${load%.*} * 100 / cores + 10#${load#*.} / cores))
  ((percent < 100)) && percent=100
  ((percent > 600)) && percent=600
  echo "$percent"
}

# stretch SECONDS : a tool's own time limit (helm --timeout, kubectl --timeout) of SECONDS on a
# quiet machine, stretched by the load now, e.g. "240s" for 120 on a machine running 2× slower.
stretch() {
  echo "$(($1 * $(slowdown_percent) / 100))s"
}

# wait_until SECONDS "what" LOG cmd... : polls cmd (quietly) every 0.5 s until it succeeds, for
# SECONDS of quiet-machine time: each half second counts less while the machine is loaded (a build or
# jest beside it), up to 6 times the window, so a start is not failed for the load alone.
wait_until() {
  local secs=$1 what=$2 log=$3
  shift 3
  local spent_ms=0 slowdown worst=100 now last
  if "$@" >/dev/null 2>&1; then return 0; fi
  last=$(now_ms)
  step "waiting for $what (timeout ${secs}s of quiet-machine time)"
  until "$@" >/dev/null 2>&1; do
    if ((spent_ms >= secs * 1000)); then
      die "$what did not happen within ${secs}s of quiet-machine time (the machine ran up to $((worst / 100)).$((worst % 100 / 10))× slower meanwhile)" "$log"
    fi
    sleep 0.5
    slowdown=$(slowdown_percent)
    ((slowdown > worst)) && worst=$slowdown
    now=$(now_ms)
    spent_ms=$((spent_ms + (now - last) * 100 / slowdown))
    last=$now
  done
}

# pid_of PIDFILE : the pid on the first line of PIDFILE (empty if none).
pid_of() {
  [ -s "$1" ] || return 0
  head -n 1 "$1" | tr -dc '0-9'
}

# pid_running PIDFILE TEXT : true if the pid in PIDFILE is alive and its command line contains TEXT.
pid_running() {
  local pid cmd
  pid=$(pid_of "$1")
  [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] || return 1
  cmd=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null) || return 1
  [[ "$cmd" == *"$2"* ]]
}

# stop_pid PIDFILE NAME TIMEOUT : SIGTERM, wait up to TIMEOUT s, then SIGKILL.
stop_pid() {
  local pidfile=$1 name=$2 secs=$3 pid i
  pid=$(pid_of "$pidfile")
  step "stopping $name (pid $pid, SIGTERM, up to ${secs}s)"
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < secs * 2; i++)); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.5
  done
  warn "$name (pid $pid) still alive after ${secs}s; sending SIGKILL"
  kill -KILL "$pid" 2>/dev/null || true
  sleep 0.5
}

# maybe_sudo cmd... : run as root (directly when we are root).
maybe_sudo() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else die "need root (or sudo) to run: $*"
  fi
}

_APT_UPDATED=0
# apt_install PKG... : apt-get update (once per run), then install without starting services.
apt_install() {
  local log="$LOG_DIR/apt.log"
  command -v apt-get >/dev/null 2>&1 || die "apt-get not available; install $* yourself"
  if [ "$_APT_UPDATED" -eq 0 ]; then
    run_logged "$log" "apt-get update" maybe_sudo apt-get update
    _APT_UPDATED=1
  fi
  # A policy-rc.d that answers 101 stops the package's maintainer scripts from starting its
  # own service (it would grab the port we want). Only added if none exists, removed afterwards.
  local policy=/usr/sbin/policy-rc.d added_policy=0
  if [ ! -e "$policy" ] && [ "$(id -u)" -eq 0 ]; then
    printf '#!/bin/sh\n# temporary, added by corridor deploy/local\nexit 101\n' >"$policy"
    chmod 755 "$policy"
    added_policy=1
  fi
  local rc=0
  step "apt-get install -y $* (log: $log)"
  printf '\n=== %s: apt-get install %s\n' "$(date '+%F %T')" "$*" >>"$log"
  maybe_sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@" >>"$log" 2>&1 || rc=$?
  if [ "$added_policy" -eq 1 ]; then rm -f "$policy"; fi
  [ "$rc" -eq 0 ] || die "apt-get install $*" "$log"
}

# local_secret NAME : 256 random bits as hex, made once into .local/NAME and reused by every start.
local_secret() {
  local file="$CORRIDOR_LOCAL/$1"
  if [ ! -s "$file" ]; then
    (umask 077 && od -An -vtx1 -N32 /dev/urandom | tr -d ' \n' >"$file.tmp" && mv "$file.tmp" "$file")
  fi
  cat "$file"
}

# java_major JAVA_BIN -> 17, 21, ... (fails if it does not run)
java_major() {
  local out
  out=$("$1" -version 2>&1) || return 1
  [[ "$out" =~ version\ \"([0-9]+)(\.([0-9]+))? ]] || return 1
  if [ "${BASH_REMATCH[1]}" = 1 ]; then echo "${BASH_REMATCH[3]}"; else echo "${BASH_REMATCH[1]}"; fi
}

# ensure_java : sets JAVA to a Java >= 17 (Debian's openjdk-17-jre-headless when there is none).
# shellcheck disable=SC2034 # JAVA is for the sourcing script
ensure_java() {
  local m="" j
  if command -v java >/dev/null 2>&1; then m=$(java_major java || true); fi
  if [[ "$m" =~ ^[0-9]+$ ]] && [ "$m" -ge 17 ]; then JAVA=java; return 0; fi
  step "java is ${m:-missing}; $COMPONENT needs Java >= 17"
  apt_install openjdk-17-jre-headless
  for j in /usr/lib/jvm/java-17-openjdk-*/bin/java; do
    if [ -x "$j" ]; then JAVA=$j; return 0; fi
  done
  die "openjdk-17-jre-headless installed but no /usr/lib/jvm/java-17-openjdk-*/bin/java" "$LOG_DIR/apt.log"
}
