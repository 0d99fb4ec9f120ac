#!/usr/bin/env bash
# Corridor workspace: toolchain, dependencies, build. Shared first half of `npm start` and `npm test`.
#
#   deploy/local/workspace.sh     Node 24 + pnpm (toolchain.sh), pnpm install --frozen-lockfile, tsc -b
set -euo pipefail
COMPONENT=workspace
# shellcheck source=deploy/local/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# shellcheck source=deploy/local/toolchain.sh
. "$CORRIDOR_DEPLOY/toolchain.sh" || die "could not provide Node 24 and pnpm" "$LOG_DIR/toolchain.log"
cd "$CORRIDOR_ROOT"

step "node $(node --version), pnpm $(pnpm --version)"
CURRENT_LOG="$LOG_DIR/install.log"
run_logged "$CURRENT_LOG" "installing packages (pnpm install --frozen-lockfile)" \
  pnpm install --frozen-lockfile --prefer-offline --reporter=append-only
CURRENT_LOG="$LOG_DIR/build.log"
: >"$CURRENT_LOG"
run_logged "$CURRENT_LOG" "building (tsc -b)" pnpm run --silent build
