#!/usr/bin/env bash
# Builds the services' images with buildah from deploy/image/Dockerfile, then runs each one the way
# its Helm chart runs it and checks it gets as far as its missing database and dependencies.
#
#   deploy/image/build.sh [--offline] [TAG [SERVICE...]]
#
#   TAG        default (or ""): the git short SHA, with -dirty when tracked files differ from it
#   SERVICE    default: gateway identity customer-kyb payments notification dashboard
#   --offline  build with no network at all (in a network namespace with no interface): fails if the
#              machine's pnpm store or metadata cache lacks something, instead of fetching it
#
# Images: localhost/corridor/<service>:<TAG> in buildah's storage (/var/lib/containers), from the
# base images of deploy/image/base.sh (made first when missing). One line per image: name, size,
# build time, and what the check saw. Exits non-zero with a one-line reason at the first failure.
#
# Offline where possible: the build mounts the machine's pnpm store and metadata cache (copy-on-write:
# the build never changes them), so installing the packages downloads nothing; buildah keeps each
# step as a layer (--layers), so an unchanged workspace rebuilds from cache. What still needs the
# registry, only when the machine's caches lack it: a package missing from the store, and the
# registry metadata that `pnpm deploy --legacy` reads to resolve the workspace packages' own
# dependencies (pnpm's metadata cache has it once an install or deploy resolved them here).
# base.sh needs Debian's mirror and the npm registry once, for the base images.
#
# The check, per image, with deploy/image/sandbox.sh (no container engine needed): each command the
# chart runs in the image (the Deployment's, and the hook Jobs': `node dist/migrate.js up`, the
# topics Job when the chart has one) with that container's environment from the chart
# (helm/charts/<service>/values.yaml with the sandbox environment's overrides, the ports' variables
# included), every address in it pointed at a closed port of its own on 127.0.0.1 and the Secrets'
# variables at dummies; read-only root, tmpfs /tmp, uid/gid 1000, loopback only. Each must load its
# code, parse its configuration and fail first on a refused connection (a Job: to its own
# dependency), or, the gateway and the dashboard, keep serving while their dependencies are down:
# the gateway's health, documentation page and assets, OpenAPI document; the dashboard's health, sign-in
# page and assets (services/dashboard/assets, copied beside dist) are requested. Then every other module of
# dist is imported (a test helper that slipped in fails there: its dev dependencies are not in the
# image). Logs: .local/log/image.log (builds), .local/image/check/<service>-<run>.log (runs).
set -euo pipefail

# shellcheck source=deploy/image/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ALL_SERVICES=(gateway identity customer-kyb payments notification dashboard)
CHECK_SECONDS=30
# HTTP requests made to a service that keeps running without its dependencies, once it listens:
# URL=expected status. The gateway: liveness, readiness (503: nothing answers), the documentation.
# shellcheck disable=SC2034 # read as ${!probes_var}
PROBES_gateway="http://127.0.0.1:8080/healthz=200 http://127.0.0.1:8081/healthz=200 http://127.0.0.1:8080/readyz=503
http://127.0.0.1:8080/docs=200 http://127.0.0.1:8080/docs/assets/swagger-ui-bundle.js=200
http://127.0.0.1:8080/docs/assets/swagger-ui.css=200 http://127.0.0.1:8080/api/external/openapi.json=200"
# The dashboard: liveness, readiness (503: neither Redis nor identity answers), the sign-in page and
# the static assets it links (served from /app/assets).
# shellcheck disable=SC2034 # read as ${!probes_var}
PROBES_dashboard="http://127.0.0.1:8090/healthz=200 http://127.0.0.1:8090/readyz=503 http://127.0.0.1:8090/sign-in=200
http://127.0.0.1:8090/assets/dashboard.css=200 http://127.0.0.1:8090/assets/dashboard.js=200"

offline=false
if [ "${1:-}" = --offline ]; then
  offline=true
  shift
fi
tag=${1:-}
[ "$#" -eq 0 ] || shift
if [[ " ${ALL_SERVICES[*]} " == *" $tag "* ]]; then
  fail "'$tag' is a service, not a tag: deploy/image/build.sh [--offline] [TAG [SERVICE...]] (an empty TAG: the git SHA)"
fi
services=("$@")
[ "${#services[@]}" -gt 0 ] || services=("${ALL_SERVICES[@]}")
for service in "${services[@]}"; do
  [[ " ${ALL_SERVICES[*]} " == *" $service "* ]] || fail "unknown service '$service' (one of: ${ALL_SERVICES[*]})"
done
if [ -z "$tag" ]; then
  tag=$(git -C "$IMAGE_ROOT" rev-parse --short HEAD) || fail "no TAG given and no git commit to name the images after"
  # GIT_OPTIONAL_LOCKS=0: status only reads, it never refreshes the index.
  if [ -n "$(GIT_OPTIONAL_LOCKS=0 git -C "$IMAGE_ROOT" status --porcelain --untracked-files=no)" ]; then
    tag="$tag-dirty"
  fi
fi
[[ "$tag" =~ ^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$ ]] || fail "'$tag' is not a valid image tag"
[ -d "$IMAGE_ROOT/node_modules/yaml" ] ||
  fail "the workspace is not installed (pnpm install): the check reads the charts' values with its yaml package"

"$IMAGE_ROOT/deploy/image/base.sh"

# ---- the build's arguments ----------------------------------------------------------------------
build_args=(
  --isolation chroot --layers --pull=never -f "$IMAGE_ROOT/deploy/image/Dockerfile"
  --build-arg BASE_IMAGE="$BASE_IMAGE" --build-arg BUILD_IMAGE="$BUILD_IMAGE"
)
store=$(cd "$IMAGE_ROOT" && pnpm store path)
store=${store%/v[0-9]*}
cache="${XDG_CACHE_HOME:-$HOME/.cache}/pnpm"
if [ -d "$store" ]; then
  build_args+=(--volume "$store:/pnpm/host-store:O" --build-arg PNPM_STORE_DIR=/pnpm/host-store)
fi
if [ -d "$cache" ]; then
  build_args+=(--volume "$cache:/pnpm/host-cache:O" --build-arg PNPM_CACHE_DIR=/pnpm/host-cache)
fi
# Should the build reach the registry (something missing from the caches), through the machine's
# TLS-intercepting proxy if it has one: the machine's CA bundle, for the build stage only.
if [ -s /etc/ssl/certs/ca-certificates.crt ]; then
  build_args+=(--volume /etc/ssl/certs/ca-certificates.crt:/etc/ssl/host-ca-certificates.crt:ro
    --build-arg NODE_EXTRA_CA_CERTS=/etc/ssl/host-ca-certificates.crt)
fi
network=()
if $offline; then
  [ -d "$store" ] || fail "--offline: there is no pnpm store at $store to build from"
  network=(unshare --net)
fi

# ---- the check ----------------------------------------------------------------------------------
check_dir="$IMAGE_LOCAL/check"
mkdir -p "$check_dir"

# chart_runs SERVICE IMAGE: per container the chart runs from the image, <service>.<run>.cmd and
# .env, listed in <service>.runs as "<run> <variable its first refusal must name>": main (the
# image's command, any dependency), migrate (migrations.command, DATABASE_URL) and topics
# (kafka.topicsJob, KAFKA_BROKERS) when the chart has them. <service>.ports: closed port → variable.
chart_runs() {
  buildah inspect --type image "$2" >"$check_dir/$1.image.json"
  (cd "$IMAGE_ROOT" && node - "$1" "$check_dir" <<'EOF') || fail "$1: reading helm/charts/$1/values.yaml"
const fs = require('node:fs');
const YAML = require('yaml');
const [service, dir] = process.argv.slice(2);
const read = (file) => YAML.parse(fs.readFileSync(file, 'utf8'));
const values = read(`helm/charts/${service}/values.yaml`);
const overrides = read(`helm/environments/sandbox/${service}.yaml`)?.[service] ?? {};
const image = JSON.parse(fs.readFileSync(`${dir}/${service}.image.json`, 'utf8')).OCIv1.config;

// What the chart's ConfigMap holds (lib.envData): env without nulls, then the ports' variables.
const env = {};
for (const [name, value] of Object.entries({ ...values.env, ...overrides.env })) {
  if (value !== null && value !== undefined) env[name] = String(value);
}
for (const port of values.ports ?? []) {
  if (port.env) env[port.env] = String(port.port);
  if (port.addressEnv) env[port.addressEnv] = `0.0.0.0:${port.port}`;
}
// Every address of another server gets a closed port of its own on 127.0.0.1, so that a refusal
// names the variable it came from; listen addresses (0.0.0.0) stay.
const ports = {};
let next = 1;
const closed = (variable) => {
  ports[next] = variable;
  return `127.0.0.1:${next++}`;
};
const address = /^([a-z][a-z0-9+.-]*:\/\/)?([^/@\s]+@)?([A-Za-z0-9.-]+):(\d+)(\/.*)?$/;
for (const [name, value] of Object.entries(env)) {
  env[name] = value
    .split(',')
    .map((part) => {
      const m = address.exec(part);
      return m && m[3] !== '0.0.0.0' ? `${m[1] ?? ''}${m[2] ?? ''}${closed(name)}${m[5] ?? ''}` : part;
    })
    .join(',');
}
// The Secrets' variables: DATABASE_URL at a closed port, the others dummies long enough to pass.
const secret = (name) =>
  name === 'DATABASE_URL'
    ? `postgres://corridor:image-check@${closed(name)}/${service.replace(/-/g, '_')}`
    : `image-check-${name.toLowerCase()}-not-a-secret-0123456789`;
const secrets = Object.fromEntries(Object.keys(values.secretEnv ?? {}).map((name) => [name, secret(name)]));

const base = Object.fromEntries((image.Env ?? []).map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));
base.HOSTNAME = `${service}-image-check`;
const runs = [];
const run = (name, expect, command, vars) => {
  fs.writeFileSync(`${dir}/${service}.${name}.cmd`, command.map((a) => `${a}\n`).join(''));
  const lines = Object.entries({ ...base, ...vars }).map(([k, v]) => `${k}=${v}\n`);
  fs.writeFileSync(`${dir}/${service}.${name}.env`, lines.join(''));
  runs.push(`${name} ${expect}\n`);
};
// The Deployment's container: envFrom the ConfigMap, env from the Secrets.
run('main', '-', image.Cmd ?? [], { ...env, ...secrets });
// The hook Jobs' (helm/charts/lib/templates/_job.tpl): their few variables inline, no ConfigMap.
const migrations = values.migrations ?? {};
if (migrations.enabled) {
  const vars = { LOG_LEVEL: env.LOG_LEVEL ?? 'info' };
  for (const name of migrations.secretEnv ?? []) vars[name] = secrets[name];
  run('migrate', 'DATABASE_URL', migrations.command, vars);
}
const kafka = { ...values.kafka, ...overrides.kafka };
if (kafka.topicsJob?.enabled && kafka.topics?.length) {
  const topics = kafka.topics.map((t) => `${t.name}:${t.partitions}`);
  const vars = { LOG_LEVEL: env.LOG_LEVEL ?? 'info', KAFKA_BROKERS: env.KAFKA_BROKERS, KAFKA_TOPIC_PREFIX: env.KAFKA_TOPIC_PREFIX ?? '' };
  run('topics', 'KAFKA_BROKERS', [...kafka.topicsJob.command, ...topics], vars);
}
fs.writeFileSync(`${dir}/${service}.runs`, runs.join(''));
fs.writeFileSync(`${dir}/${service}.ports`, Object.entries(ports).map(([p, v]) => `${p} ${v}\n`).join(''));
fs.writeFileSync(`${dir}/${service}.image`, `${image.User ?? ''}\n${image.WorkingDir ?? ''}\n`);
EOF
}

# verdict SERVICE RUN EXPECT LOG PROBES: one line on what the run shows; returns 1 unless it is the
# expected failure. RUN imports: every module imported. Otherwise the first trouble must be a
# refused connection to a closed port, that of EXPECT unless it is "-"; PROBES answered as expected.
verdict() {
  node - "$@" "$check_dir/$1.ports" <<'EOF'
const fs = require('node:fs');
const [service, run, expect, logFile, probes, portsFile] = process.argv.slice(2);
const log = fs.readFileSync(logFile, 'utf8');
const lines = log.split('\n');
const ports = Object.fromEntries(fs.readFileSync(portsFile, 'utf8').trim().split('\n').filter(Boolean).map((l) => l.split(' ')));
const exit = /\[sandbox\] exit (\d+)/.exec(log)?.[1];
const stillRunning = log.includes('[sandbox] still running');
const short = (line) => line.trim().replace(/\s+/g, ' ').slice(0, 160);
const done = (ok, text) => {
  console.log(text);
  process.exit(ok ? 0 : 1);
};

// Never acceptable, wherever it appears: a missing module or file, a permission or read-only
// refusal, a bad configuration, a programming error.
const fatals = lines.filter((l) =>
  /ERR_MODULE_NOT_FOUND|ERR_PACKAGE_PATH_NOT_EXPORTED|Cannot find (module|package)|\bE(ACCES|ROFS|PERM|NOENT)\b|read-only file system|refusing to start|invalid configuration|(Syntax|Reference|Type)Error/.test(l),
);
// The error's own line (`Error [CODE]: message`) rather than the code frame printed above it.
const fatal = fatals.find((l) => /Error( \[\w+\])?: /.test(l)) ?? fatals[0];
if (fatal) done(false, `${run}: ${short(fatal)}`);

if (run === 'imports') {
  const imported = /imported (\d+) modules/.exec(log);
  if (!imported || exit !== '0') done(false, `imports: ${short(lines.find((l) => l.trim()) ?? `exit ${exit}`)}`);
  done(true, `${imported[1]} other modules import`);
}

const trouble = lines.find((l) => /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNRESET|\b[A-Za-z]*Error: |"level":(40|50|60)/.test(l));
if (!trouble) done(false, `${run}: no refused dependency seen (${stillRunning ? 'still running' : `exit ${exit}`})`);
const refused = /ECONNREFUSED 127\.0\.0\.1:(\d+)/.exec(trouble);
if (!refused || !ports[refused[1]]) done(false, `${run}: first error is not a refused dependency: ${short(trouble)}`);
const dependency = ports[refused[1]];
if (expect !== '-' && dependency !== expect) done(false, `${run}: reached for ${dependency} before ${expect}`);

const answers = [];
for (const probe of probes.split(/\s+/).filter(Boolean)) {
  const [url, expected] = [probe.slice(0, probe.lastIndexOf('=')), probe.slice(probe.lastIndexOf('=') + 1)];
  const got = lines.map((l) => l.split(' ')).find((w) => w[0] === '[sandbox]' && w[1] === 'GET' && w[2] === url)?.[4];
  if (got !== expected) done(false, `${run}: GET ${url} answered ${got ?? 'nothing'}, expected ${expected}`);
  answers.push(`${new URL(url).pathname} ${got}`);
}
const ending = answers.length ? `listening: ${answers.join(', ')}` : stillRunning ? 'still running' : `exit ${exit}`;
done(true, `${run}: ${dependency} refused, ${ending}`);
EOF
}

ctr=""
cleanup() {
  if [ -n "$ctr" ]; then
    buildah umount "$ctr" >/dev/null 2>&1 || true
    buildah rm "$ctr" >/dev/null 2>&1 || true
    ctr=""
  fi
}
trap cleanup EXIT

# check_image SERVICE IMAGE: sets `result` to what the runs saw; fails on anything else.
check_image() {
  local service=$1 image=$2 rootfs user workdir stray run expect probes probes_var line log
  local -a command skip
  chart_runs "$service" "$image"
  { read -r user && read -r workdir; } <"$check_dir/$service.image"
  [ "$user" = 1000:1000 ] || fail "$service: the image's user is '$user', not 1000:1000"
  ctr=$(buildah from --quiet --pull=never "$image")
  rootfs=$(buildah mount "$ctr")

  # What is in it: files of root's, none writable by others (but sticky directories such as /tmp),
  # no test code, no TypeScript.
  stray=$(find "$rootfs" -xdev \( ! -uid 0 -o ! -gid 0 -o \( -perm -o+w ! -perm -1000 ! -type l \) \) -print -quit)
  [ -z "$stray" ] || fail "$service: ${stray#"$rootfs"} is not root's, or is writable by others"
  stray=$(find "$rootfs$workdir" \( -path '*/node_modules/@corridor/testing' -o \
    \( \( -path "$rootfs$workdir/dist/*" -o -path '*/node_modules/@corridor/*' \) \( -name '*.spec.*' -o \
    -name '*.fixture*' -o -name 'fake-*' -o -name '*-spec-kit.*' -o -name '*.ts' \) \) \) -print -quit)
  [ -z "$stray" ] || fail "$service: test code or TypeScript in the image: ${stray#"$rootfs"}"

  result=""
  # The entry points the chart runs, and instrument.js (main.js imports it first): not re-imported.
  skip=(instrument.js)
  while read -r run expect; do
    mapfile -t command <"$check_dir/$service.$run.cmd"
    for line in "${command[@]}"; do
      [[ "$line" == dist/*.js ]] && skip+=("${line#dist/}")
    done
    probes=""
    if [ "$run" = main ]; then
      probes_var="PROBES_${service//-/_}"
      probes=$(printf '%s' "${!probes_var:-}" | tr '\n' ' ')
    fi
    log="$check_dir/$service-$run.log"
    "$IMAGE_ROOT/deploy/image/sandbox.sh" "$rootfs" "$workdir" "$CHECK_SECONDS" "$check_dir/$service.$run.env" "$probes" \
      -- "${command[@]}" </dev/null >"$log" 2>&1 || fail "$service: the sandbox could not run $run" "$log"
    line=$(verdict "$service" "$run" "$expect" "$log" "$probes") || fail "$service: $line" "$log"
    result="${result:+$result; }$line"
  done <"$check_dir/$service.runs"

  log="$check_dir/$service-imports.log"
  # shellcheck disable=SC2016 # JavaScript
  "$IMAGE_ROOT/deploy/image/sandbox.sh" "$rootfs" "$workdir" "$CHECK_SECONDS" "$check_dir/$service.main.env" "" \
    -- node --input-type=module -e '
      import { readdirSync } from "node:fs";
      const skip = new Set(process.argv.slice(1));
      const modules = readdirSync("dist", { recursive: true }).filter((f) => f.endsWith(".js") && !skip.has(f));
      for (const module of modules) await import(`${process.cwd()}/dist/${module}`);
      console.log(`imported ${modules.length} modules`);
      process.exit(0);' "${skip[@]}" </dev/null >"$log" 2>&1 || fail "$service: the sandbox could not run the imports" "$log"
  line=$(verdict "$service" imports - "$log" "") || fail "$service: $line" "$log"
  result="$result; $line"
  cleanup
}

# ---- build and check each service ---------------------------------------------------------------
mode=""
if $offline; then mode=", offline"; fi
step "building ${services[*]} as localhost/corridor/<service>:$tag$mode (log: $IMAGE_LOG)"
for service in "${services[@]}"; do
  image="localhost/corridor/$service:$tag"
  started=$SECONDS
  logged "$service: buildah build (its output is in the log)" \
    "${network[@]}" buildah build "${build_args[@]}" --build-arg SERVICE="$service" --tag "$image" "$IMAGE_ROOT"
  built=$((SECONDS - started))
  size=$(buildah images --format '{{.Size}}' "$image")
  check_image "$service" "$image"
  printf '[image] %-12s %-46s %7s  built in %3d s  %s\n' "$service" "$image" "$size" "$built" "$result"
done
step "all ${#services[@]} images built and checked"
