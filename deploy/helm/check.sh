#!/usr/bin/env bash
# Checks helm/, offline, one line per check; `npm test` runs it after lint (deploy/local/test.sh).
#
#   1. each service chart's values.schema.json is what deploy/helm/values-schema.mjs makes from
#      helm/values-schema/ (whether values and schemas match each service's config shape:
#      test/house/config-values.spec.ts, in jest)
#   2. helm lint --strict: the library chart; each service chart with each environment's values;
#      the umbrella chart with each environment's values
#   3. helm template of every chart × environment (each service chart as its own release), and what
#      the objects promise (deploy/helm/rendered-promises.mjs): server selectors never match a hook
#      Job's pods; ServiceAccounts without tokens; startup probes, preStop sleep within the grace
#      period, spreading; default-deny NetworkPolicies that allow each configured *_GRPC_ADDRESS, admit each gRPC port's callers
#      alone, reach each dependency's port, and send webhooks to public addresses alone; a topics Job
#      for the declared topics, before the migrations; a scraped metrics port is a container port; a
#      consumer's topic prefix is its producer's; the dashboard's Redis and key prefix are the gateway's;
#      values the schemas must refuse; the optional parts (digest, the gateway's and the dashboard's
#      Ingress, admin namespace, autoscaling, ServiceMonitor) rendered on
#   4. kubeconform -strict: every rendered manifest against the Kubernetes API schemas
#   5. releases: a service whose code changed since its previous release (deploy/release/previous.sh)
#      has a chart version and appVersion above that release's and a CHANGELOG naming the new one
#      (deploy/helm/version-bumps.mjs, decision 0054)
#
# Tools, built once with the machine's `go` from the Go module proxy and reused: binaries and
# schemas in the git-ignored .local/go; Go's module and build caches stay where `go env` says, shared
# by every clone on the machine like any Go project's (≈600 MB of modules, fetched once per machine):
#   helm         helm.sh/helm/v3/cmd/helm@HELM_VERSION
#   kubeconform  github.com/yannh/kubeconform/cmd/kubeconform@KUBECONFORM_VERSION
# Schemas: kubeconform downloads its schemas from the internet by default, which CI cannot reach.
# They are made here instead, once, from the OpenAPI document Kubernetes ships in its own Go module
# (k8s.io/kubernetes@KUBERNETES_VERSION, api/openapi-spec/swagger.json): one _definitions.json and
# a file per kind, in kubeconform's layout ({kind}{-group}-{version}.json), strict (unknown fields
# are errors), in .local/go/kubernetes-schemas/<version>.
#
# The charts are copied to .local/helm-check (their file:// dependencies are packaged there), so
# the work tree is left as it was.
set -euo pipefail

HELM_VERSION=v3.22.0
KUBECONFORM_VERSION=v0.8.0
# The Kubernetes version manifests are rendered for and validated against: the oldest one the
# charts promise to run on. Raise it deliberately (the schemas are made again for a new version).
KUBERNETES_VERSION=v1.34.4
ENVIRONMENTS=(sandbox production)
SERVICES=(gateway identity customer-kyb payments notification dashboard)

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
go_dir="$root/.local/go"
work="$root/.local/helm-check"
log="$root/.local/log/helm-check.log"
schemas="$go_dir/kubernetes-schemas/$KUBERNETES_VERSION"
mkdir -p "$(dirname "$log")"

step() { printf '[helm] %s\n' "$*"; }
# fail "what failed" [file whose content explains it]
fail() {
  printf '[helm] FAILED: %s\n' "$1" >&2
  if [ -n "${2:-}" ] && [ -s "$2" ]; then sed 's/^/    | /' "$2" | tail -n 40 >&2; fi
  exit 1
}
trap 'fail "unexpected error (exit $?) at line $LINENO: $BASH_COMMAND"' ERR

command -v go >/dev/null 2>&1 ||
  fail "go is not on PATH: this check builds helm and kubeconform with the machine's Go; install Go 1.26 or newer (https://go.dev/dl; an older Go, e.g. Debian's golang package, works with GOTOOLCHAIN=auto, which fetches the newer toolchain from the Go module proxy)"
command -v node >/dev/null 2>&1 || fail "node is not on PATH (it turns the Kubernetes OpenAPI document into schemas)"

export GOBIN="$go_dir/bin"
# Helm's own settings and caches: nothing from the user's ~/.config/helm, nothing left there.
export HELM_CONFIG_HOME="$work/home/config" HELM_CACHE_HOME="$work/home/cache" HELM_DATA_HOME="$work/home/data"

# installed_version BINARY MODULE: the version of MODULE that BINARY was built from (empty if none).
installed_version() {
  [ -x "$1" ] || return 0
  go version -m "$1" 2>/dev/null | awk -v m="$2" '$1 == "mod" && $2 == m { print $3 }'
}

# go_tool NAME MODULE PACKAGE VERSION [ldflags]: builds PACKAGE@VERSION into $GOBIN unless it is there.
go_tool() {
  local name=$1 module=$2 package=$3 version=$4 ldflags=${5:-} started=$SECONDS
  if [ "$(installed_version "$GOBIN/$name" "$module")" = "$version" ]; then
    step "$name $version: reusing .local/go/bin/$name"
    return 0
  fi
  step "$name $version: go install $package@$version ($(go env GOVERSION); first time only, a few minutes; log: $log)"
  printf '\n=== %s: go install %s@%s\n' "$(date '+%F %T')" "$package" "$version" >>"$log"
  local rc=0 attempt="$work/go-install.log"
  mkdir -p "$work"
  go install -trimpath -ldflags "-s -w $ldflags" "$package@$version" >"$attempt" 2>&1 || rc=$?
  cat "$attempt" >>"$log"
  if [ "$rc" -ne 0 ]; then
    if grep -q 'requires go >=' "$attempt"; then
      fail "$name $version needs a newer Go than this machine's $(go env GOVERSION) ($(grep -o 'requires go >= [0-9.]*' "$attempt" | head -n 1)): install a newer Go, or let Go fetch one with GOTOOLCHAIN=auto" "$attempt"
    fi
    fail "go install $package@$version" "$attempt"
  fi
  step "$name $version: built in $((SECONDS - started)) s"
}

go_tool helm helm.sh/helm/v3 helm.sh/helm/v3/cmd/helm "$HELM_VERSION" \
  "-X helm.sh/helm/v3/internal/version.version=$HELM_VERSION"
go_tool kubeconform github.com/yannh/kubeconform github.com/yannh/kubeconform/cmd/kubeconform "$KUBECONFORM_VERSION"
helm="$GOBIN/helm"
kubeconform="$GOBIN/kubeconform"

# ---- Kubernetes schemas, from k8s.io/kubernetes's OpenAPI document ------------------------------
if [ -f "$schemas/.complete" ]; then
  step "schemas for Kubernetes $KUBERNETES_VERSION: reusing .local/go/kubernetes-schemas/$KUBERNETES_VERSION"
else
  started=$SECONDS
  step "schemas for Kubernetes $KUBERNETES_VERSION: go mod download k8s.io/kubernetes@$KUBERNETES_VERSION (≈20 MB), then strict JSON schemas"
  printf '\n=== %s: go mod download k8s.io/kubernetes@%s\n' "$(date '+%F %T')" "$KUBERNETES_VERSION" >>"$log"
  module_dir=$(cd "$go_dir" && go mod download -json "k8s.io/kubernetes@$KUBERNETES_VERSION" 2>>"$log" |
    node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.parse(s).Dir ?? ""));') ||
    fail "go mod download k8s.io/kubernetes@$KUBERNETES_VERSION" "$log"
  swagger="$module_dir/api/openapi-spec/swagger.json"
  [ -s "$swagger" ] || fail "no api/openapi-spec/swagger.json in k8s.io/kubernetes@$KUBERNETES_VERSION ($module_dir)" "$log"
  rm -rf "$schemas" && mkdir -p "$schemas"
  # Like the openapi2jsonschema conversion kubeconform's own schemas come from: int-or-string and
  # quantities accept both forms, and every object with declared properties refuses others (-strict).
  node - "$swagger" "$schemas" >>"$log" 2>&1 <<'EOF' || fail "making schemas from $swagger" "$log"
const fs = require('node:fs');
const path = require('node:path');
const [swaggerPath, outDir] = process.argv.slice(2);
const definitions = JSON.parse(fs.readFileSync(swaggerPath, 'utf8')).definitions;
const intOrString = { oneOf: [{ type: 'string' }, { type: 'integer' }] };
function convert(node) {
  if (Array.isArray(node)) return node.map(convert);
  if (node === null || typeof node !== 'object') return node;
  if (node.format === 'int-or-string') return intOrString;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'description' || key.startsWith('x-')) continue;
    out[key] = key === 'properties' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, convert(v)])) : convert(value);
  }
  if (out.properties && out.additionalProperties === undefined && !node['x-kubernetes-preserve-unknown-fields']) {
    out.additionalProperties = false;
  }
  return out;
}
const converted = {};
for (const [name, schema] of Object.entries(definitions)) converted[name] = convert(schema);
converted['io.k8s.apimachinery.pkg.api.resource.Quantity'] = { oneOf: [{ type: 'string' }, { type: 'number' }] };
fs.writeFileSync(path.join(outDir, '_definitions.json'), JSON.stringify({ definitions: converted }));
let kinds = 0;
for (const [name, schema] of Object.entries(definitions)) {
  for (const gvk of schema['x-kubernetes-group-version-kind'] ?? []) {
    const suffix = (gvk.group ? `-${gvk.group.split('.')[0]}` : '') + `-${gvk.version}`;
    const file = path.join(outDir, `${gvk.kind.toLowerCase()}${suffix.toLowerCase()}.json`);
    fs.writeFileSync(file, JSON.stringify({ $ref: `_definitions.json#/definitions/${name}` }));
    kinds += 1;
  }
}
if (kinds < 50) throw new Error(`only ${kinds} kinds found in ${swaggerPath}`);
console.log(`${kinds} kind schemas written to ${outDir}`);
EOF
  touch "$schemas/.complete"
  step "schemas for Kubernetes $KUBERNETES_VERSION: $(find "$schemas" -name '*.json' ! -name '_*' | wc -l) kinds in $((SECONDS - started)) s"
fi

# ---- the charts, copied; their file:// dependencies packaged ------------------------------------
rm -rf "$work/helm" "$work/rendered" "$work/out"
mkdir -p "$work/rendered" "$work/out"
cp -R "$root/helm" "$work/helm"
rm -rf "$work"/helm/charts/*/charts "$work"/helm/charts/*/Chart.lock
charts="$work/helm/charts"
envs="$work/helm/environments"
kube_version=${KUBERNETES_VERSION#v}
out="$work/out/last.txt"

# run "what" command...: runs it quietly; on failure prints its output and stops.
run() {
  local what=$1
  shift
  if ! "$@" >"$out" 2>&1; then fail "$what" "$out"; fi
}
# capture FILE "what" command...: the same, its standard output (alone) into FILE.
capture() {
  local file=$1 what=$2
  shift 2
  if ! "$@" >"$file" 2>"$out"; then fail "$what" "$out"; fi
}

# 1. Each service chart's values.schema.json is what deploy/helm/values-schema.mjs makes from
# helm/values-schema/ (the base every chart shares, plus the chart's part). Whether the schemas and
# values match each service's config shape is test/house/config-values.spec.ts's (jest, npm test).
for service in "${SERVICES[@]}"; do
  [ -f "$root/helm/values-schema/$service.json" ] ||
    fail "no helm/values-schema/$service.json: a service chart's values.schema.json is generated from it and helm/values-schema/base.json"
done
run "helm/charts/*/values.schema.json up to date with helm/values-schema/ (node deploy/helm/values-schema.mjs writes them)" \
  node "$root/deploy/helm/values-schema.mjs" --check
step "values.schema.json of ${SERVICES[*]}: generated from helm/values-schema/, up to date"

# 5. Releases: each service changed since its previous release is bumped.
run "a service changed since its previous release without a new version (deploy/helm/version-bumps.mjs)" \
  node "$root/deploy/helm/version-bumps.mjs" "${SERVICES[@]}"
sed 's/^/[helm] release: /' "$out"

for chart in "${SERVICES[@]}" corridor; do
  run "helm dependency update $chart" "$helm" dependency update --skip-refresh "$charts/$chart"
done

# A service's environment file keys its overrides by the chart's name (so that it serves the
# umbrella chart as is); for the service chart's own release, helm/unwrap takes that key out.

# 2. lint
run "helm lint --strict lib" "$helm" lint --strict "$charts/lib"
step "lint lib: ok"
for environment in "${ENVIRONMENTS[@]}"; do
  files=()
  for service in "${SERVICES[@]}"; do
    file="$envs/$environment/$service.yaml"
    [ -f "$file" ] || fail "missing helm/environments/$environment/$service.yaml"
    files+=(-f "$file")
    capture "$work/rendered/$service-$environment.values.yaml" "unwrap helm/environments/$environment/$service.yaml" \
      "$helm" template unwrap "$work/helm/unwrap" -f "$file" --set "service=$service"
    run "helm lint --strict $service with helm/environments/$environment/$service.yaml" \
      "$helm" lint --strict --kube-version "$kube_version" "$charts/$service" \
      -f "$work/rendered/$service-$environment.values.yaml"
    step "lint $service × $environment: ok"
  done
  run "helm lint --strict corridor with helm/environments/$environment/*.yaml" \
    "$helm" lint --strict --kube-version "$kube_version" "$charts/corridor" "${files[@]}"
  step "lint corridor × $environment: ok"
done

# 3. template (4. validated right after)
validate() {
  local name=$1 manifest=$2
  run "kubeconform: $name against Kubernetes $KUBERNETES_VERSION's schemas" \
    "$kubeconform" -strict -summary -schema-location "$schemas/{{ .ResourceKind }}{{ .KindSuffix }}.json" "$manifest"
  step "kubeconform $name: $(tail -n 1 "$out")"
}
# A pod Prometheus is told to scrape (prometheus.io/port) has a container port `metrics` of that number.
scraped_port_served() {
  local name=$1 manifest=$2 annotated served
  annotated=$(sed -n 's/^ *prometheus\.io\/port: "\([0-9]*\)"$/\1/p' "$manifest" | sort -u)
  [ -n "$annotated" ] || return 0
  served=$(awk '/- name: metrics$/ { getline; if ($1 == "containerPort:") print $2 }' "$manifest" | sort -u)
  [ "$annotated" = "$served" ] ||
    fail "$name: prometheus.io/port is ${annotated//$'\n'/,} but the container port named metrics is ${served:-missing} (metrics.port and the ports entry must agree)"
  step "metrics $name: scraped port $annotated is the container port metrics"
}
# Services that consume another's topic use the producer's KAFKA_TOPIC_PREFIX in each environment.
same_topic_prefix() {
  local environment=$1 producer=$2 consumer=$3 a b
  prefix_of() { sed -n 's/^  KAFKA_TOPIC_PREFIX: *//p' "$work/rendered/$1-$environment.yaml" | tr -d '"'; }
  for service in "$producer" "$consumer"; do
    grep -q '^  KAFKA_TOPIC_PREFIX:' "$work/rendered/$service-$environment.yaml" ||
      fail "$environment: $service's ConfigMap has no KAFKA_TOPIC_PREFIX"
  done
  a=$(prefix_of "$producer")
  b=$(prefix_of "$consumer")
  [ "$a" = "$b" ] ||
    fail "$environment: $consumer's KAFKA_TOPIC_PREFIX ($b) differs from $producer's ($a), whose topic it consumes"
  step "topic prefix $environment: $consumer reads $producer's topics with its prefix \"$a\""
}
# The dashboard writes the gateways' access cache (key rotation and revocation): the same Redis and
# REDIS_KEY_PREFIX as the gateway's in each environment, or a revoked key stays valid at the gateways.
same_redis() {
  local environment=$1 variable a b
  for variable in REDIS_URL REDIS_KEY_PREFIX; do
    value_of() { sed -n "s/^  $variable: *//p" "$work/rendered/$1-$environment.yaml" | tr -d '"'; }
    a=$(value_of gateway)
    b=$(value_of dashboard)
    [ -n "$a" ] || fail "$environment: the gateway's ConfigMap has no $variable"
    [ "$a" = "$b" ] || fail "$environment: the dashboard's $variable ($b) differs from the gateway's ($a), whose access cache it writes"
  done
  step "access cache $environment: the dashboard's REDIS_URL and REDIS_KEY_PREFIX are the gateway's"
}
# What the rendered objects of one environment promise, across its service charts (one line each;
# deploy/helm/rendered-promises.mjs says which): selectors, ServiceAccounts, probes and shutdown, the
# NetworkPolicies against the services' own configuration, the topics Job.
environment_promises() {
  run "$1: what the rendered objects promise (deploy/helm/rendered-promises.mjs)" \
    node "$root/deploy/helm/rendered-promises.mjs" "$work/rendered" "$1" "${SERVICES[@]}"
  sed 's/^/[helm] /' "$out"
}
for environment in "${ENVIRONMENTS[@]}"; do
  files=()
  for service in "${SERVICES[@]}"; do
    files+=(-f "$envs/$environment/$service.yaml")
    manifest="$work/rendered/$service-$environment.yaml"
    capture "$manifest" "helm template $service with helm/environments/$environment/$service.yaml" \
      "$helm" template "$service" "$charts/$service" --kube-version "$kube_version" \
      -f "$work/rendered/$service-$environment.values.yaml"
    step "template $service × $environment: $(grep -c '^kind:' "$manifest") objects ($(grep '^kind:' "$manifest" | awk '{print $2}' | sort | paste -sd, -))"
    validate "$service × $environment" "$manifest"
    scraped_port_served "$service × $environment" "$manifest"
  done
  same_topic_prefix "$environment" customer-kyb notification
  same_topic_prefix "$environment" customer-kyb payments
  same_topic_prefix "$environment" payments notification
  same_redis "$environment"
  environment_promises "$environment"
  manifest="$work/rendered/corridor-$environment.yaml"
  capture "$manifest" "helm template corridor with helm/environments/$environment/*.yaml" \
    "$helm" template "corridor-$environment" "$charts/corridor" --kube-version "$kube_version" "${files[@]}"
  step "template corridor × $environment: $(grep -c '^kind:' "$manifest") objects"
  validate "corridor × $environment" "$manifest"
done

# The schemas must refuse what they do not describe: an unknown key, a secret as a plain variable
# (the gateway's admin token, payments' database URL), a spread above payments' 50 % limit; the
# admin API opened to a namespace pattern or to anyone, Prometheus's port to addresses, the
# dashboard opened to anyone but a namespace or its origin in plain HTTP off loopback, a digest that
# is not sha256:, the Ingress on the admin port, an OTLP endpoint that is not a URL, a topic
# without partitions; and, with the production files (the last environment above), notification's
# test-only allow-list and extra CA file.
for bad in gateway.replicas=3 gateway.env.ADMIN_TOKEN=not-a-secret notification.env.WEBHOOK_ALLOW_CIDRS=127.0.0.0/8 \
  notification.env.WEBHOOK_EXTRA_CA_FILE=/etc/corridor/test-ca.pem payments.env.DATABASE_URL=postgres://not-a-secret \
  payments.env.DEFAULT_SPREAD_BPS=5001 'gateway.networkPolicy.ingress.admin[0].namespace=*' \
  'gateway.networkPolicy.ingress.admin[0].anywhere=true' 'notification.networkPolicy.ingress.metrics[0].cidr=0.0.0.0/0' \
  'dashboard.networkPolicy.ingress.http[0].anywhere=true' 'dashboard.networkPolicy.ingress.http[0].cidr=0.0.0.0/0' \
  dashboard.env.DASHBOARD_ORIGIN=http://dashboard.corridor.example gateway.image.digest=4d3c2b1a gateway.ingress.port=admin identity.env.OTEL_EXPORTER_OTLP_ENDPOINT=otel-collector:4318 \
  'payments.kafka.topics[0].partitions=0'; do
  if "$helm" template x "$charts/corridor" --kube-version "$kube_version" "${files[@]}" --set "$bad" >"$out" 2>&1; then
    fail "helm template accepted --set $bad: values.schema.json should refuse it"
  fi
  grep -q "don't meet the specifications of the schema" "$out" || fail "helm template --set $bad failed, but not on the schema" "$out"
  step "schema refuses $bad: ok"
done

# Optional features, rendered on with the production values of one chart (not part of any
# environment file): holds FILE "what" EXPRESSION checks a JavaScript expression over `objects`.
holds() {
  run "$2" node - "$root" "$1" "$3" <<'EOF'
const fs = require('node:fs');
const [root, file, expression] = process.argv.slice(2);
const YAML = require('node:module').createRequire(`${root}/package.json`)('yaml');
const objects = YAML.parseAllDocuments(fs.readFileSync(file, 'utf8')).map((d) => d.toJS()).filter(Boolean);
if (!new Function('objects', `return (${expression});`)(objects)) throw new Error(`does not hold: ${expression}`);
EOF
  step "$2: ok"
}
variant() {
  local service=$1 name=$2
  shift 2
  capture "$work/rendered/$service-$name.yaml" "helm template $service with $*" "$helm" template "$service" "$charts/$service" \
    --kube-version "$kube_version" -f "$work/rendered/$service-production.values.yaml" "$@"
  echo "$work/rendered/$service-$name.yaml"
}
digest=sha256:$(printf 'corridor' | sha256sum | cut -d' ' -f1)
manifest=$(variant gateway digest --set "image.digest=$digest")
holds "$manifest" "image.digest: the image is repository@digest, the tag ignored" \
  "objects.find((o) => o.kind === 'Deployment').spec.template.spec.containers[0].image === 'corridor/gateway@$digest'"
manifest=$(variant gateway ingress --set ingress.enabled=true --set ingress.className=nginx \
  --set 'ingress.hosts[0].host=api.corridor.example' --set 'ingress.hosts[0].paths[0].path=/' \
  --set 'ingress.hosts[0].paths[0].pathType=Prefix' --set 'ingress.tls[0].secretName=api-tls' \
  --set 'ingress.tls[0].hosts[0]=api.corridor.example' --set 'networkPolicy.ingress.admin[0].namespace=back-office')
validate "gateway with an Ingress" "$manifest"
holds "$manifest" "ingress: the gateway's Ingress routes its public port alone" \
  "objects.filter((o) => o.kind === 'Ingress').flatMap((o) => o.spec.rules.flatMap((r) => r.http.paths)).every((p) => p.backend.service.port.name === 'public')"
holds "$manifest" "networkPolicy.ingress.admin: the admin port admits the named namespace alone" \
  "JSON.stringify(objects.find((o) => o.kind === 'NetworkPolicy').spec.ingress.find((r) => r.ports[0].port === 'admin').from) === JSON.stringify([{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'back-office' } } }])"
holds "$manifest" "autoscaling: helm template (no live Deployment) renders minReplicas" \
  "objects.find((o) => o.kind === 'Deployment').spec.replicas === objects.find((o) => o.kind === 'HorizontalPodAutoscaler').spec.minReplicas"
manifest=$(variant dashboard ingress --set ingress.enabled=true --set ingress.className=nginx \
  --set 'ingress.hosts[0].host=dashboard.corridor.example' --set 'ingress.hosts[0].paths[0].path=/' \
  --set 'ingress.hosts[0].paths[0].pathType=Prefix' --set 'ingress.tls[0].secretName=dashboard-tls' \
  --set 'ingress.tls[0].hosts[0]=dashboard.corridor.example' --set env.DASHBOARD_ORIGIN=https://dashboard.corridor.example)
validate "dashboard with an Ingress" "$manifest"
holds "$manifest" "ingress: the dashboard's Ingress routes its one port, which admits the ingress controller's namespace alone" \
  "objects.filter((o) => o.kind === 'Ingress').flatMap((o) => o.spec.rules.flatMap((r) => r.http.paths)).every((p) => p.backend.service.port.name === 'http') && JSON.stringify(objects.find((o) => o.kind === 'NetworkPolicy').spec.ingress) === JSON.stringify([{ ports: [{ port: 'http', protocol: 'TCP' }], from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } }] }])"
if "$helm" template notification "$charts/notification" --kube-version "$kube_version" \
  -f "$work/rendered/notification-production.values.yaml" --set serviceMonitor.enabled=true >"$out" 2>&1 || ! grep -q 'no monitoring.coreos.com/v1 ServiceMonitor' "$out"; then
  fail "serviceMonitor.enabled without the ServiceMonitor CRD should fail rendering, naming it" "$out"
fi
step "serviceMonitor: enabled where the cluster has no ServiceMonitor CRD, rendering fails and says so: ok"
manifest=$(variant notification servicemonitor --set serviceMonitor.enabled=true --api-versions monitoring.coreos.com/v1/ServiceMonitor)
holds "$manifest" "serviceMonitor: with the CRD, notification's ServiceMonitor scrapes the Service's metrics port" \
  "objects.find((o) => o.kind === 'ServiceMonitor').spec.endpoints[0].port === 'metrics' && objects.find((o) => o.kind === 'Service').spec.ports.some((p) => p.name === 'metrics')"
step "all checks passed (rendered manifests: .local/helm-check/rendered)"
