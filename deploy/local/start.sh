#!/usr/bin/env bash
# `npm start`: toolchain, packages, build, PostgreSQL/Redis/Kafka, migrations, every service.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
bash "$here/workspace.sh"
bash "$here/infra.sh" up
bash "$here/services.sh" up
token=$(cat "$here/../../.local/admin-token")
cat <<MSG

Corridor is running (sandbox).
  public API  http://127.0.0.1:8080   (/healthz, /readyz)
  admin API   http://127.0.0.1:8081   (Authorization: Bearer \$(cat .local/admin-token))
  logs        .local/log/

Create a platform business:
  curl -X POST -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \\
       127.0.0.1:8081/admin/businesses -d '{"name":"Acme"}'

Stop everything with: npm stop
MSG
