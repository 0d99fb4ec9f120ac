#!/usr/bin/env bash
# `npm test` as on a fresh machine: a clean clone of this checkout's HEAD (what CI clones: committed
# work only) whose every cache is an empty folder of its own, so nothing this machine downloaded or
# built before is used: Go's module and build caches (the Kubernetes and helm builds), the pnpm store,
# npm's and pip's caches, and `.local` (Node 24, pnpm, Kafka's jars, the databases, schemathesis).
#
#   deploy/local/fresh-test.sh            clone into /tmp/corridor-fresh, run npm test, print its time
#   FRESH_DIR=/path deploy/local/fresh-test.sh
#
# What it cannot take away: the Debian packages installed (PostgreSQL, Redis, Java, Chromium) and
# servers already listening on the usual ports, which npm test reuses as it would on any machine.
# For the whole fresh path, run `npm stop` in every checkout first; the script says what it found.
# The clone and its caches stay for reading (FRESH_DIR/log/npm-test.log) until the next run.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
root=$(cd "$here/../.." && pwd -P)
fresh=${FRESH_DIR:-/tmp/corridor-fresh}
COMPONENT=fresh
# shellcheck source=deploy/local/lib.sh
. "$here/lib.sh"

for port in 5432 6379 9092 9000; do
  if port_open 127.0.0.1 "$port"; then
    step "127.0.0.1:$port already answers: npm test will reuse that server instead of starting its own"
  fi
done

rm -rf "$fresh"
mkdir -p "$fresh/cache" "$fresh/log"
git clone --quiet --no-hardlinks "$root" "$fresh/corridor"
step "cloned $(git -C "$fresh/corridor" log -1 --format='%h %s' | cut -c1-100) into $fresh/corridor"

cache=$fresh/cache
started=$SECONDS
code=0
(
  cd "$fresh/corridor"
  # Each cache by its own variable (pnpm's store is under XDG_DATA_HOME); HOME stays: the machine's
  # ~/.npmrc and Go's settings are part of it.
  env XDG_CACHE_HOME="$cache/xdg" \
    GOPATH="$cache/gopath" GOMODCACHE="$cache/gomod" GOCACHE="$cache/gobuild" \
    npm_config_cache="$cache/npm" XDG_DATA_HOME="$cache/xdg-data" PIP_CACHE_DIR="$cache/pip" \
    npm test
) 2>&1 | tee "$fresh/log/npm-test.log" || code=$?
took=$((SECONDS - started))
step "npm test in a fresh clone with empty caches: exit $code after $((took / 60)) min $((took % 60)) s (log: $fresh/log/npm-test.log)"
exit "$code"
