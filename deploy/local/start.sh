#!/usr/bin/env bash
# `npm start`: toolchain, packages, build, PostgreSQL/Redis/Kafka, migrations, every service, then
# the sandbox business (.local/sandbox.json) and its dashboard owner, and the curl commands that use it.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
bash "$here/workspace.sh"
bash "$here/infra.sh" up
bash "$here/services.sh" up

COMPONENT=sandbox
# shellcheck source=deploy/local/lib.sh
. "$here/lib.sh"
# shellcheck source=deploy/local/toolchain.sh
. "$here/toolchain.sh" || die "could not provide Node 24 and pnpm" "$LOG_DIR/toolchain.log"

# The running deployment's admin API, whatever an older sandbox.json says.
export CORRIDOR_ADMIN_URL=http://127.0.0.1:8081 CORRIDOR_BASE_URL=http://127.0.0.1:8080 CORRIDOR_DASHBOARD_URL=http://127.0.0.1:8090
ADMIN_TOKEN=$(cat "$CORRIDOR_LOCAL/admin-token")
export ADMIN_TOKEN
log="$LOG_DIR/sandbox.log"
printf '\n===== %s: corridor admin sandbox seed\n' "$(date '+%F %T')" >>"$log"
# stdout (JSON without secrets) goes to the log; the one-line verdict (stderr) to the terminal.
if ! node "$CORRIDOR_ROOT/packages/admin-cli/dist/main.js" admin sandbox seed 2>&1 >>"$log" | sed "s/^/[$COMPONENT] /"; then
  die "could not seed the sandbox business, its rates or its wallets (the gateway's log, or .local/log/payments.log, may say why)" "$LOG_DIR/gateway.log"
fi
# Its dashboard owner, once: invited through the admin API, the invitation accepted in the dashboard
# with a generated password; kept while .local/sandbox.json names an active owner of the business.
printf '\n===== %s: corridor admin sandbox seed-owner\n' "$(date '+%F %T')" >>"$log"
if ! node "$CORRIDOR_ROOT/packages/admin-cli/dist/main.js" admin sandbox seed-owner 2>&1 >>"$log" | sed "s/^/[$COMPONENT] /"; then
  die "could not seed the sandbox business's dashboard owner (.local/log/dashboard.log or identity.log may say why)" "$LOG_DIR/dashboard.log"
fi

sandbox_field() {
  node -e 'process.stdout.write(JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8"))[process.argv[2]])' \
    "$CORRIDOR_LOCAL/sandbox.json" "$1"
}
client_id=$(sandbox_field client_id)
client_secret=$(sandbox_field client_secret)
business_id=$(sandbox_field business_id)
dashboard_email=$(sandbox_field dashboard_email)
dashboard_password=$(sandbox_field dashboard_password)
token_curl="curl -sS --fail-with-body 127.0.0.1:8080/oauth/token -d grant_type=client_credentials -d client_id=$client_id -d client_secret=$client_secret -d scope='customer:read customer:write file:upload webhook:read wallet:read rates:read swap:create transaction:read fees:read currency:read'"

cat <<MSG

Corridor is running (sandbox).
  public API  http://127.0.0.1:8080   (/healthz, /readyz)
  admin API   http://127.0.0.1:8081   (Authorization: Bearer \$(cat .local/admin-token))
  dashboard   http://127.0.0.1:8090   sign in as $dashboard_email, password $dashboard_password (owner)
  sandbox     business $business_id "Sandbox Platform", full-access credentials
              in .local/sandbox.json (base_url, admin_url, admin_token, business_id, client_id, client_secret,
              dashboard_url, dashboard_email, dashboard_password)
  logs        .local/log/

Get an access token:
  $token_curl

Call whoami with it (the token is read with a check: an error answer is shown, not kept as a token):
  TOKEN=\$($token_curl | node -p 'const a = JSON.parse(require("fs").readFileSync(0, "utf8")); a.access_token || (console.error(JSON.stringify(a)), process.exit(1))')
  curl -s 127.0.0.1:8080/api/external/whoami -H "Authorization: Bearer \$TOKEN"

Create a VERIFIED business customer in one call (sandbox only: docs/decisions/0031-sandbox-shortcuts.md;
every customer route is in docs/decisions/0008-customer-api.md), then read the list:
  curl -sS --fail-with-body 127.0.0.1:8080/api/external/sandbox/customer -H "Authorization: Bearer \$TOKEN" \\
    -H 'content-type: application/json' -d '{"verification_status":"VERIFIED"}'
  curl -s '127.0.0.1:8080/api/external/customer?paginate=true' -H "Authorization: Bearer \$TOKEN"

List the webhooks sent to your URLs, newest first (register the URLs first: README.md, "Webhooks"):
  curl -s '127.0.0.1:8080/api/external/webhook/deliveries?page=1' -H "Authorization: Bearer \$TOKEN"

Read the wallets, quote USD→NGN, swap 100.00 USD at that quote, list the swaps (README.md, "Money";
amounts are integers of minor units). The seed sets rates among NGN, USD, GBP, EUR and CAD and
funds an empty NGN, USD, GBP or EUR wallet (10,000,000.00 NGN; 10,000.00 USD, GBP, EUR):
  curl -s 127.0.0.1:8080/api/external/wallet -H "Authorization: Bearer \$TOKEN"
  QUOTE=\$(curl -s '127.0.0.1:8080/api/external/rates?from=USD&to=NGN' -H "Authorization: Bearer \$TOKEN" | node -p 'JSON.parse(require("fs").readFileSync(0, "utf8")).data.quote_id')
  curl -s 127.0.0.1:8080/api/external/swap -H "Authorization: Bearer \$TOKEN" -H 'content-type: application/json' \\
    -H "Idempotency-Key: \$(cat /proc/sys/kernel/random/uuid)" \\
    -d "{\\"from_currency\\":\\"USD\\",\\"to_currency\\":\\"NGN\\",\\"amount\\":10000,\\"quote_id\\":\\"\$QUOTE\\"}"
  curl -s '127.0.0.1:8080/api/external/transaction?type=SWAP' -H "Authorization: Bearer \$TOKEN"

Operate it from the repository's root, no pnpm needed (npm run --silent corridor -- admin --help):
  npm run --silent corridor -- admin businesses create --name Acme
  npm run --silent corridor -- admin credentials create <business_id>
  npm run --silent corridor -- admin customers queue
  npm run --silent corridor -- admin wallets list $business_id
  npm run --silent corridor -- admin ledger check

Stop everything with: npm stop
MSG
