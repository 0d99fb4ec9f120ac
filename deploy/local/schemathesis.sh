#!/usr/bin/env bash
# schemathesis (PyPI), pinned, in a virtualenv under .local/ for test/e2e/schemathesis.e2e.spec.ts.
#
#   deploy/local/schemathesis.sh    install it unless the pinned version is there (Debian's python3 and
#                                   python3-venv first when there is no python3 >= 3.9 with venv)
#
# State: .local/schemathesis (the virtualenv; bin/schemathesis), .local/log/schemathesis.log.
set -euo pipefail
COMPONENT=schemathesis
# shellcheck source=deploy/local/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

VERSION=4.32.5
VENV="$CORRIDOR_LOCAL/schemathesis"
CURRENT_LOG="$LOG_DIR/schemathesis.log"

installed() { [ "$("$VENV/bin/schemathesis" --version 2>/dev/null)" = "schemathesis, version $VERSION" ]; }
# ensurepip too: Debian's python3 has venv's module but creates no pip without python3-venv.
usable_python() { "$1" -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 9))' 2>/dev/null; }

if installed; then
  exit 0
fi
python=python3
if ! command -v python3 >/dev/null 2>&1 || ! usable_python python3; then
  step "no python3 >= 3.9 with venv on PATH"
  apt_install python3 python3-venv
  python=/usr/bin/python3
  usable_python "$python" || die "Debian's python3 is older than 3.9 or has no venv" "$LOG_DIR/apt.log"
fi
# Made afresh where it stays (a virtualenv's scripts name its path); an interrupted install fails
# the version check above and is made again.
rm -rf "$VENV"
run_logged "$CURRENT_LOG" "creating a virtualenv with $("$python" --version)" "$python" -m venv "$VENV"
run_logged "$CURRENT_LOG" "pip install schemathesis==$VERSION" \
  "$VENV/bin/pip" install --disable-pip-version-check --no-input "schemathesis==$VERSION"
installed || die "schemathesis $VERSION not answering after the install" "$CURRENT_LOG"
step "schemathesis $VERSION installed in $VENV"
