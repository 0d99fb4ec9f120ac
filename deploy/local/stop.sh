#!/usr/bin/env bash
# `npm stop`: stops what `npm start` started, services first, and nothing else.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
bash "$here/services.sh" down
bash "$here/infra.sh" down
