#!/usr/bin/env bash
# Local PostgreSQL for Corridor on 127.0.0.1:5432.
#
#   deploy/local/postgres.sh up      reuse a server already answering on 127.0.0.1:5432, else
#                                    initdb + start our own in .local/postgres; then ensure the
#                                    role corridor/corridor (SUPERUSER) and the databases listed
#                                    in deploy/local/databases.txt
#   deploy/local/postgres.sh down    stop the server only if we started it
#   deploy/local/postgres.sh status  one line
#
# State: .local/postgres/data (cluster, owned by the `postgres` OS user when run as root),
# .local/postgres/run (unix socket), .local/log/postgres.log (server log),
# .local/log/postgres-setup.log (initdb/pg_ctl/psql output), .local/run/postgres.started (marker).
set -euo pipefail
COMPONENT=postgres
# shellcheck source=deploy/local/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PG_HOST=127.0.0.1
PG_PORT=5432
PG_ROLE=corridor
PG_PASSWORD=corridor
PG_HOME="$CORRIDOR_LOCAL/postgres"
PG_DATA="$PG_HOME/data"
PG_SOCK="$PG_HOME/run"
PG_LOG="$LOG_DIR/postgres.log"
SETUP_LOG="$LOG_DIR/postgres-setup.log"
CURRENT_LOG="$SETUP_LOG"
MARKER="$RUN_DIR/postgres.started"
DB_LIST="$CORRIDOR_DEPLOY/databases.txt"
READY_TIMEOUT=30
PG_BIN=""

# Directory holding pg_ctl/initdb/postgres: $PG_BINDIR, else the newest /usr/lib/postgresql/<ver>/bin,
# else whatever pg_ctl is on PATH.
find_pg_bin() {
  local d
  if [ -n "${PG_BINDIR:-}" ] && [ -x "$PG_BINDIR/pg_ctl" ]; then PG_BIN=$PG_BINDIR; return 0; fi
  d=$(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  if [ -n "$d" ] && [ -x "$d/pg_ctl" ] && [ -x "$d/initdb" ]; then PG_BIN=$d; return 0; fi
  if command -v pg_ctl >/dev/null 2>&1 && command -v initdb >/dev/null 2>&1; then
    PG_BIN=$(dirname "$(command -v pg_ctl)"); return 0
  fi
  return 1
}

ensure_pg_bin() {
  if ! find_pg_bin; then
    step "PostgreSQL server binaries not found; installing the Debian package"
    apt_install postgresql
    find_pg_bin || die "postgresql installed but no pg_ctl/initdb under /usr/lib/postgresql/*/bin" "$LOG_DIR/apt.log"
  fi
}

pg_tool() { # pg_tool NAME : path of a client tool (ours if we have the server binaries, else PATH)
  if [ -n "$PG_BIN" ] && [ -x "$PG_BIN/$1" ]; then echo "$PG_BIN/$1"; else command -v "$1"; fi
}

# Postgres refuses to run as root: as root we run the server as the `postgres` OS user.
as_pg() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

ours_running() { pid_running "$PG_DATA/postmaster.pid" "$PG_DATA"; }

# 0 = accepting connections, 1 = starting/rejecting, 2 = no answer.
isready() {
  local t
  t=$(pg_tool pg_isready 2>/dev/null) || { port_open "$PG_HOST" "$PG_PORT" && return 0 || return 2; }
  "$t" -q -h "$PG_HOST" -p "$PG_PORT" -t 2
}

init_cluster() {
  if [ "$(id -u)" -eq 0 ]; then
    id postgres >/dev/null 2>&1 || die "OS user 'postgres' missing (normally created by the postgresql package)"
  fi
  mkdir -p "$PG_HOME" "$PG_SOCK"
  touch "$PG_LOG"
  if [ "$(id -u)" -eq 0 ]; then chown postgres:postgres "$PG_HOME" "$PG_SOCK" "$PG_LOG"; fi
  chmod 700 "$PG_SOCK"
  as_pg test -w "$PG_HOME" ||
    die "the postgres OS user cannot write $PG_HOME (every parent directory needs o+x)"
  if [ -f "$PG_DATA/PG_VERSION" ]; then
    local have want
    have=$(<"$PG_DATA/PG_VERSION")
    want=$("$PG_BIN/postgres" --version | awk '{print $3}' | cut -d. -f1)
    [ "$have" = "$want" ] ||
      die "$PG_DATA was made by PostgreSQL $have but the binaries are $want; remove $PG_HOME to start over"
    return 0
  fi
  local auth_local=peer
  [ "$(id -u)" -eq 0 ] || auth_local=trust # socket dir is private (0700) to this user
  run_logged "$SETUP_LOG" "initdb $PG_DATA (PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}'))" \
    as_pg "$PG_BIN/initdb" -D "$PG_DATA" -U postgres --encoding=UTF8 --no-locale \
    --auth-local="$auth_local" --auth-host=scram-sha-256
}

write_config() {
  # Our settings live in corridor.conf, included from postgresql.conf; rewritten on every start.
  local conf="$PG_DATA/corridor.conf"
  as_pg tee "$conf" >/dev/null <<EOF
# Written by deploy/local/postgres.sh on every start; edit that script, not this file.
listen_addresses = '$PG_HOST'
port = $PG_PORT
unix_socket_directories = '$PG_SOCK'
max_connections = 200
password_encryption = scram-sha-256
# Statements per request in \`pnpm bench\` (issue 35); needs a restart to load.
shared_preload_libraries = 'pg_stat_statements'
EOF
  if ! grep -qxF "include_if_exists = 'corridor.conf'" "$PG_DATA/postgresql.conf"; then
    printf "\ninclude_if_exists = 'corridor.conf'\n" | as_pg tee -a "$PG_DATA/postgresql.conf" >/dev/null
  fi
}

start_ours() {
  ensure_pg_bin
  init_cluster
  write_config
  rm -f "$MARKER"
  step "starting PostgreSQL with pg_ctl (server log: $PG_LOG)"
  printf '\n=== %s: pg_ctl start\n' "$(date '+%F %T')" >>"$SETUP_LOG"
  if ! as_pg "$PG_BIN/pg_ctl" -D "$PG_DATA" -l "$PG_LOG" -w -t "$READY_TIMEOUT" start >>"$SETUP_LOG" 2>&1; then
    die "pg_ctl start (pg_ctl output is in $SETUP_LOG)" "$PG_LOG"
  fi
  date '+%F %T' >"$MARKER"
}

# Sets ADMIN to a function name that runs psql with admin rights: admin_sock (our server, as the
# postgres OS user over our socket), admin_corridor (TCP as corridor, already a superuser),
# admin_default (foreign server, as the postgres OS user over the default socket).
ADMIN=""
psql_common=(-X -q -v ON_ERROR_STOP=1 -d postgres)
admin_sock() { as_pg "$(pg_tool psql)" "${psql_common[@]}" -h "$PG_SOCK" -p "$PG_PORT" -U postgres "$@"; }
admin_corridor() {
  PGPASSWORD=$PG_PASSWORD PGCONNECT_TIMEOUT=5 "$(pg_tool psql)" "${psql_common[@]}" \
    -h "$PG_HOST" -p "$PG_PORT" -U "$PG_ROLE" "$@"
}
admin_default() {
  [ "$(id -u)" -eq 0 ] && id postgres >/dev/null 2>&1 || return 1
  PGCONNECT_TIMEOUT=5 runuser -u postgres -- "$(pg_tool psql)" "${psql_common[@]}" -p "$PG_PORT" "$@"
}

role_sql="DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$PG_ROLE') THEN
    CREATE ROLE $PG_ROLE LOGIN SUPERUSER PASSWORD '$PG_PASSWORD';
  ELSE
    ALTER ROLE $PG_ROLE LOGIN SUPERUSER PASSWORD '$PG_PASSWORD';
  END IF;
END \$\$;"

ensure_role() {
  local ours=$1 super
  if [ "$ours" = yes ]; then
    ADMIN=admin_sock
  else
    super=$(admin_corridor -tAc "SELECT rolsuper FROM pg_roles WHERE rolname = current_user" 2>>"$SETUP_LOG" || true)
    if [ "$super" = t ]; then
      step "role $PG_ROLE/$PG_PASSWORD already works (superuser)"
      ADMIN=admin_corridor
      return 0
    fi
    if admin_default -tAc "SELECT 1" >>"$SETUP_LOG" 2>&1; then
      ADMIN=admin_default
    else
      die "PostgreSQL on $PG_HOST:$PG_PORT is not ours, login $PG_ROLE/$PG_PASSWORD failed (or is not superuser) and 'runuser -u postgres -- psql' via the default socket failed too. Create the role yourself: CREATE ROLE $PG_ROLE LOGIN SUPERUSER PASSWORD '$PG_PASSWORD'; or stop that server so this script can start its own" "$SETUP_LOG"
    fi
  fi
  run_logged "$SETUP_LOG" "ensuring login role $PG_ROLE (password $PG_PASSWORD, SUPERUSER)" "$ADMIN" -c "$role_sql"
}

ensure_databases() {
  local names=() n
  [ -f "$DB_LIST" ] || die "missing $DB_LIST"
  while IFS= read -r n || [ -n "$n" ]; do
    n=${n%%#*}
    n=$(echo "$n" | tr -d '[:space:]')
    [ -n "$n" ] || continue
    [[ "$n" =~ ^[a-z_][a-z0-9_]*$ ]] || die "bad database name '$n' in $DB_LIST (use [a-z0-9_])"
    names+=("'$n'")
  done <"$DB_LIST"
  [ "${#names[@]}" -gt 0 ] || return 0
  local list
  list=$(IFS=,; echo "${names[*]}")
  local missing
  missing=$("$ADMIN" -tAc "SELECT string_agg(d, ' ') FROM unnest(ARRAY[$list]) AS d WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = d)" 2>>"$SETUP_LOG") ||
    die "querying pg_database" "$SETUP_LOG"
  if [ -z "$missing" ]; then
    step "databases present: $(tr '\n' ' ' <"$DB_LIST" | xargs)"
    return 0
  fi
  for n in $missing; do
    run_logged "$SETUP_LOG" "creating database $n (owner $PG_ROLE)" "$ADMIN" -c "CREATE DATABASE $n OWNER $PG_ROLE"
  done
}

cmd_up() {
  local ours=no rc=0
  find_pg_bin || true
  if ours_running; then
    ours=yes
    [ -e "$MARKER" ] || date '+%F %T' >"$MARKER"
    step "reusing our PostgreSQL (pid $(pid_of "$PG_DATA/postmaster.pid")) on $PG_HOST:$PG_PORT"
  elif port_open "$PG_HOST" "$PG_PORT"; then
    rm -f "$MARKER"
    isready || rc=$?
    if [ "$rc" -eq 2 ]; then
      die "something listens on $PG_HOST:$PG_PORT but does not answer as PostgreSQL; free the port"
    fi
    step "reusing the PostgreSQL already answering on $PG_HOST:$PG_PORT (not started by us)"
  else
    start_ours
    ours=yes
  fi
  ensure_pg_bin # psql/pg_isready are needed below, even for a foreign server
  wait_until "$READY_TIMEOUT" "PostgreSQL to accept connections (pg_isready)" "$PG_LOG" isready
  ensure_role "$ours"
  ensure_databases
  step "ready: postgresql://$PG_ROLE:$PG_PASSWORD@$PG_HOST:$PG_PORT/<db> ($(if [ "$ours" = yes ]; then echo "ours"; else echo "reused"; fi))"
}

cmd_down() {
  if ours_running; then
    find_pg_bin || die "our PostgreSQL is running but pg_ctl cannot be found"
    run_logged "$SETUP_LOG" "stopping our PostgreSQL (pg_ctl stop -m fast)" \
      as_pg "$PG_BIN/pg_ctl" -D "$PG_DATA" -m fast -w -t 60 stop
    rm -f "$MARKER"
  elif [ -e "$MARKER" ]; then
    rm -f "$MARKER"
    step "our PostgreSQL is not running (removed stale marker)"
  elif port_open "$PG_HOST" "$PG_PORT"; then
    step "PostgreSQL on $PG_HOST:$PG_PORT was not started by us; leaving it running"
  else
    step "not running"
  fi
}

cmd_status() {
  if ours_running; then
    echo "postgres: running (ours, pid $(pid_of "$PG_DATA/postmaster.pid"), data $PG_DATA) on $PG_HOST:$PG_PORT"
  elif port_open "$PG_HOST" "$PG_PORT"; then
    echo "postgres: running on $PG_HOST:$PG_PORT (not started by us)"
  else
    echo "postgres: stopped"
    exit 3
  fi
}

case "${1:-}" in
  up) cmd_up ;;
  down) cmd_down ;;
  status) cmd_status ;;
  *) echo "usage: $0 up|down|status" >&2; exit 2 ;;
esac
