#!/usr/bin/env bash
# The charts on a real Kubernetes API server; `npm test` runs it after deploy/helm/check.sh (which
# builds helm). deploy/kube/cluster.sh starts Kubernetes 1.34 (etcd, kube-apiserver, controller
# manager, scheduler; built once from the Go module proxy into .local/kube) with kwok's fake nodes:
# pods are scheduled, Running and Ready and Jobs complete, but no container runs (deploy/image/build.sh
# runs the images). Then, for sandbox and production, each in its own namespace under Pod Security
# `restricted`, one line per check:
#
#   1. every object each chart renders passes a server-side dry run, with no warning
#   2. each service is installed as its own release, in dependency order, and is ready
#   3. a node drains while a migration Job runs (the PodDisruptionBudget counts server pods only)
#   4. a release whose migration fails leaves that service and every other one on the old version,
#      ready, and runs no other service's migration (the umbrella chart, whose hooks run in one
#      release, migrates customer-kyb, identity and notification before payments' fails); then
#      `helm rollback`, a good upgrade, and a rollback of that upgrade
#   5. turning autoscaling on never takes the Deployment below its current replicas
#   6. a rotated Secret reaches new pods (rollout restart)
#   7. uninstalling every release leaves nothing in the namespace but the operator's Secrets
#
# helm/README.md's runbook shows the same commands. Files: .local/cluster-check (the cluster, logs).
set -euo pipefail
COMPONENT=cluster
# shellcheck source=deploy/local/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../local/lib.sh"

ENVIRONMENTS=(sandbox production)
# Dependency order: identity first (every service calls it), the producers of a topic before its
# consumers (payments consumes customer-kyb's events, notification everyone's), then the gateway, then
# the dashboard (it calls the four services and writes the gateway's access cache; no migration Job).
SERVICES=(identity customer-kyb payments notification gateway dashboard)
# Image tags the fake nodes act on (deploy/kube/kwok.yaml): a Job of the first fails, one of the
# second keeps running.
OLD=1.0.0 NEW=1.1.0 FAILING=migration-fails HOLDING=migration-holds

work="$CORRIDOR_LOCAL/cluster-check"
# The charts and environments checked: the work tree's, or another copy (e.g. an older commit's
# helm/, to see a check fail on what it guards against).
helm_dir=${CLUSTER_CHECK_HELM_DIR:-$CORRIDOR_ROOT/helm}
log="$work/check.log"
helm="$CORRIDOR_LOCAL/go/bin/helm"
kubectl="$CORRIDOR_LOCAL/kube/bin/kubectl"
[ -x "$helm" ] || die "no helm in .local/go/bin: run deploy/helm/check.sh first (it builds helm)"

bash "$CORRIDOR_ROOT/deploy/kube/cluster.sh" down "$work/cluster"
rm -rf "$work" && mkdir -p "$work"
trap 'bash "$CORRIDOR_ROOT/deploy/kube/cluster.sh" down "$work/cluster"' EXIT
bash "$CORRIDOR_ROOT/deploy/kube/cluster.sh" up "$work/cluster"
export KUBECONFIG="$work/cluster/kubeconfig"
export HELM_CONFIG_HOME="$work/helm/config" HELM_CACHE_HOME="$work/helm/cache" HELM_DATA_HOME="$work/helm/data"
CURRENT_LOG=$log
cd "$CORRIDOR_ROOT"
# `helm template` renders without the cluster: tell it the cluster's version (its default is 1.20).
kube_version=$("$kubectl" version -o json | node -e 'console.log(JSON.parse(require("node:fs").readFileSync(0, "utf8")).serverVersion.gitVersion)')

# run "what" cmd... : the command's output goes to the log; a failure names the step and shows it.
run() {
  local what=$1
  shift
  printf '\n=== %s: %s\n$ %s\n' "$(date '+%T')" "$what" "$*" >>"$log"
  "$@" >>"$log" 2>&1 || die "$what" "$log"
}
ok() { step "ok: $*"; }

# The charts, their file:// dependencies packaged, in a copy: the work tree is left as it was.
cp -r "$helm_dir/charts" "$work/charts"
for chart in "${SERVICES[@]}" corridor; do
  run "helm dependency build $chart" "$helm" dependency build "$work/charts/$chart"
done

# values ENVIRONMENT SERVICE: the environment's overrides for one service's own release, taken out
# of the environment file (keyed by chart name, for the umbrella) by helm/unwrap.
values() {
  local file="$work/values/$2.$1.yaml"
  if [ ! -f "$file" ]; then
    mkdir -p "$work/values"
    "$helm" template unwrap "$CORRIDOR_ROOT/helm/unwrap" --set service="$2" -f "$helm_dir/environments/$1/$2.yaml" \
      >"$file" 2>>"$log" || die "helm/unwrap of $helm_dir/environments/$1/$2.yaml" "$log"
  fi
  echo "$file"
}

# release ENVIRONMENT SERVICE TAG [helm flags...]: helm upgrade --install of one service's chart.
release() {
  local environment=$1 service=$2 tag=$3
  shift 3
  "$helm" upgrade --install "$service" "$work/charts/$service" --namespace "corridor-$environment" \
    -f "$(values "$environment" "$service")" --set image.tag="$tag" --wait --timeout "$(stretch 120)" "$@"
}

# images NAMESPACE: "deployment image" per line, of every Deployment.
images() {
  "$kubectl" get deployments -n "$1" -o jsonpath='{range .items[*]}{.metadata.name} {.spec.template.spec.containers[0].image}{"\n"}{end}' | sort
}

# all_ready NAMESPACE: every Deployment has its replicas updated and available.
all_ready() {
  "$kubectl" wait deployment --all -n "$1" --for=jsonpath='{.status.conditions[?(@.type=="Available")].status}'=True --timeout="$(stretch 60)" >>"$log" 2>&1 &&
    "$kubectl" get deployments -n "$1" -o json | node -e '
      const items = JSON.parse(require("node:fs").readFileSync(0, "utf8")).items;
      const behind = items.filter((d) => (d.status.updatedReplicas ?? 0) !== d.spec.replicas || (d.status.availableReplicas ?? 0) !== d.spec.replicas);
      if (behind.length) { console.error(behind.map((d) => d.metadata.name).join(", ") + " not rolled out"); process.exit(1); }'
}

# created_jobs NAMESPACE: the Jobs whose pods were created (hooks among them, though helm deletes a
# hook Job once it succeeds), oldest first, from the Job controller's events.
created_jobs() {
  "$kubectl" get events -n "$1" --field-selector involvedObject.kind=Job,reason=SuccessfulCreate \
    --sort-by=.metadata.creationTimestamp -o jsonpath='{range .items[*]}{.involvedObject.name}{"\n"}{end}'
}

for environment in "${ENVIRONMENTS[@]}"; do
  namespace="corridor-$environment"
  step "$environment: namespace $namespace, Pod Security restricted (enforced, warned, audited)"
  run "namespace $namespace" "$kubectl" create namespace "$namespace"
  run "label $namespace" "$kubectl" label namespace "$namespace" \
    pod-security.kubernetes.io/enforce=restricted pod-security.kubernetes.io/enforce-version=v1.34 \
    pod-security.kubernetes.io/warn=restricted pod-security.kubernetes.io/audit=restricted

  # The Secrets the charts read and never make: every secretKeyRef they render, with made-up values.
  for service in "${SERVICES[@]}"; do
    "$helm" template "$service" "$work/charts/$service" -n "$namespace" -f "$(values "$environment" "$service")" \
      --kube-version "$kube_version" --set image.tag="$OLD" >"$work/$environment-$service.yaml" 2>>"$log" || die "helm template $service ($environment)" "$log"
  done
  cat "$work/$environment"-*.yaml | node "$CORRIDOR_ROOT/deploy/helm/secret-refs.mjs" >"$work/$environment-secrets.txt" ||
    die "reading the Secrets the charts refer to" "$log"
  while read -r name keys; do
    args=()
    for key in ${keys//,/ }; do args+=("--from-literal=$key=check-$(openssl rand -hex 24)"); done
    run "secret $name" "$kubectl" create secret generic "$name" -n "$namespace" "${args[@]}"
  done <"$work/$environment-secrets.txt"
  step "$environment: made the Secrets the charts refer to: $(cut -d' ' -f1 "$work/$environment-secrets.txt" | paste -sd' ')"

  # 1. Server-side dry run: the API server's own validation and admission, Pod Security included
  # (a workload that breaks it is accepted with a warning, so a warning fails the check).
  for service in "${SERVICES[@]}"; do
    if ! "$kubectl" apply --dry-run=server -n "$namespace" -f "$work/$environment-$service.yaml" >"$work/dry-run.out" 2>&1 ||
      grep -qi 'warning' "$work/dry-run.out"; then
      cat "$work/dry-run.out" >>"$log"
      die "$environment: $service's objects, server-side dry run" "$work/dry-run.out"
    fi
  done
  # The optional objects too (the gateway's and the dashboard's Ingress), and the umbrella chart's
  # whole environment.
  "$helm" template gateway "$work/charts/gateway" -n "$namespace" -f "$(values "$environment" gateway)" \
    --kube-version "$kube_version" --set image.tag="$OLD" --set ingress.enabled=true \
    --set 'ingress.hosts[0].host=api.corridor.test' --set 'ingress.hosts[0].paths[0].path=/' \
    --set 'ingress.hosts[0].paths[0].pathType=Prefix' >"$work/$environment-optional.yaml" 2>>"$log" ||
    die "helm template gateway with its Ingress ($environment)" "$log"
  "$helm" template dashboard "$work/charts/dashboard" -n "$namespace" -f "$(values "$environment" dashboard)" \
    --kube-version "$kube_version" --set image.tag="$OLD" --set ingress.enabled=true \
    --set 'ingress.hosts[0].host=dashboard.corridor.test' --set 'ingress.hosts[0].paths[0].path=/' \
    --set 'ingress.hosts[0].paths[0].pathType=Prefix' --set env.DASHBOARD_ORIGIN=https://dashboard.corridor.test \
    --show-only templates/ingress.yaml >>"$work/$environment-optional.yaml" 2>>"$log" ||
    die "helm template dashboard with its Ingress ($environment)" "$log"
  umbrella_values=()
  for service in "${SERVICES[@]}"; do
    umbrella_values+=(-f "$helm_dir/environments/$environment/$service.yaml" --set "$service.image.tag=$OLD")
  done
  "$helm" template corridor "$work/charts/corridor" -n "$namespace" --kube-version "$kube_version" \
    "${umbrella_values[@]}" >"$work/$environment-umbrella.yaml" 2>>"$log" || die "helm template corridor ($environment)" "$log"
  for rendered in optional umbrella; do
    if ! "$kubectl" apply --dry-run=server -n "$namespace" -f "$work/$environment-$rendered.yaml" >"$work/dry-run.out" 2>&1 ||
      grep -qi 'warning' "$work/dry-run.out"; then
      die "$environment: the $rendered objects, server-side dry run" "$work/dry-run.out"
    fi
  done
  ok "$environment: every object of the ${#SERVICES[@]} charts, the gateway's and the dashboard's Ingress and the umbrella chart pass a server-side dry run, no warning"

  # 2. One release per service, in dependency order.
  for service in "${SERVICES[@]}"; do
    started=$SECONDS
    run "$environment: install $service $OLD" release "$environment" "$service" "$OLD"
    step "$environment: installed $service $OLD as its own release, ready in $((SECONDS - started)) s"
  done
  run "$environment: every Deployment ready" all_ready "$namespace"
  images "$namespace" >"$work/$environment-old-images.txt"
  ok "$environment: ${#SERVICES[@]} releases deployed and ready"

  # 3. A node drains while a migration Job runs: the identity chart's own Job, held Running.
  "$helm" template identity "$work/charts/identity" -n "$namespace" -f "$(values "$environment" identity)" \
    --kube-version "$kube_version" --set image.tag="$HOLDING" --show-only templates/migration-job.yaml >"$work/held-job.yaml" 2>>"$log" ||
    die "rendering identity's migration Job" "$log"
  run "a running migration Job" "$kubectl" apply -n "$namespace" -f "$work/held-job.yaml"
  run "its pod running" "$kubectl" wait pod -n "$namespace" -l batch.kubernetes.io/job-name=identity-migrate \
    --for=jsonpath='{.status.phase}'=Running --timeout="$(stretch 30)"
  node=$("$kubectl" get pods -n "$namespace" -l batch.kubernetes.io/job-name!=identity-migrate,app.kubernetes.io/name=identity \
    -o jsonpath='{.items[0].spec.nodeName}')
  if ! "$kubectl" drain "$node" --ignore-daemonsets --delete-emptydir-data --timeout="$(stretch 30)" >>"$log" 2>&1; then
    "$kubectl" get pdb -n "$namespace" -o yaml >>"$log" 2>&1
    die "$environment: draining $node while identity's migration Job runs (its PodDisruptionBudget counts the Job's pod?)" "$log"
  fi
  run "uncordon $node" "$kubectl" uncordon "$node"
  run "delete the held Job" "$kubectl" delete job identity-migrate -n "$namespace" --wait=true
  run "$environment: every Deployment ready after the drain" all_ready "$namespace"
  ok "$environment: node $node drained while identity's migration Job ran"

  # 4. A failed migration: payments' new version can't migrate. helm fails, the old version
  # keeps serving, no other service moved; then rollback, a good upgrade, and its rollback.
  started=$SECONDS
  jobs_before=$(created_jobs "$namespace" | wc -l)
  if release "$environment" payments "$FAILING" --set migrations.backoffLimit=0 >>"$log" 2>&1; then
    die "$environment: payments' release succeeded although its migration failed" "$log"
  fi
  images "$namespace" >"$work/$environment-after-failure.txt"
  diff "$work/$environment-old-images.txt" "$work/$environment-after-failure.txt" >>"$log" ||
    die "$environment: a Deployment changed image after payments' migration failed" "$log"
  others=$(created_jobs "$namespace" | tail -n +"$((jobs_before + 1))" | grep -v '^payments-' | paste -sd' ' || true)
  [ -z "$others" ] || die "$environment: payments' failed release ran other services' Jobs: $others" "$log"
  run "$environment: every Deployment ready after the failed release" all_ready "$namespace"
  status=$("$helm" status payments -n "$namespace" -o json | node -e 'console.log(JSON.parse(require("node:fs").readFileSync(0, "utf8")).info.status)')
  [ "$status" = failed ] || die "$environment: payments' failed release is '$status', not 'failed'" "$log"
  # Kept for `kubectl logs job/payments-migrate` (fake nodes have no logs to show).
  failed=$("$kubectl" get job payments-migrate -n "$namespace" -o jsonpath='{.status.failed}' 2>>"$log" || true)
  [ "${failed:-0}" -ge 1 ] || die "$environment: the failed migration Job was not kept for its logs" "$log"
  ok "$environment: payments' failed migration ($((SECONDS - started)) s) left every service on $OLD and ready, its Job kept"
  run "$environment: helm rollback payments" "$helm" rollback payments 1 -n "$namespace" --wait --timeout "$(stretch 120)"
  run "$environment: upgrade payments to $NEW" release "$environment" payments "$NEW"
  grep -q "payments .*:$NEW$" <(images "$namespace") || die "$environment: payments is not on $NEW after its upgrade" "$log"
  run "$environment: helm rollback payments (to $OLD)" "$helm" rollback payments -n "$namespace" --wait --timeout "$(stretch 120)"
  images "$namespace" >"$work/$environment-rolled-back.txt"
  diff "$work/$environment-old-images.txt" "$work/$environment-rolled-back.txt" >>"$log" ||
    die "$environment: after the rollback payments is not on $OLD" "$log"
  revision=$("$helm" history payments -n "$namespace" -o json | node -e 'const h = JSON.parse(require("node:fs").readFileSync(0, "utf8")); console.log(h.map((r) => r.revision + ":" + r.status).join(" "))')
  ok "$environment: rollback, upgrade to $NEW, rollback to $OLD (payments' history: $revision)"

  # 5. Autoscaling turned on in a running release: the Deployment keeps its replicas while the HPA
  # takes over (without the live count, helm would leave replicas unset and the API server makes it 1).
  run "$environment: gateway at 3 replicas" release "$environment" gateway "$OLD" --set replicaCount=3
  "$kubectl" get deployment gateway -n "$namespace" -w -o jsonpath='{.spec.replicas}{"\n"}' >"$work/replicas.txt" 2>>"$log" &
  watcher=$!
  run "$environment: gateway with autoscaling on" release "$environment" gateway "$OLD" --set replicaCount=3 \
    --set autoscaling.enabled=true --set autoscaling.minReplicas=2 --set autoscaling.maxReplicas=6
  sleep 2
  kill "$watcher" 2>/dev/null || true
  wait "$watcher" 2>/dev/null || true
  lowest=$(sort -n "$work/replicas.txt" | head -n 1)
  [ "${lowest:-0}" -ge 3 ] || die "$environment: turning autoscaling on took the gateway to $lowest replicas (seen: $(paste -sd' ' "$work/replicas.txt"))" "$log"
  "$kubectl" get hpa gateway -n "$namespace" >>"$log" 2>&1 || die "$environment: no HorizontalPodAutoscaler gateway" "$log"
  ok "$environment: autoscaling turned on, replicas seen: $(paste -sd' ' "$work/replicas.txt" | tr -s ' ')"

  # 6. A rotated Secret reaches new pods: pods read their environment once, so restart them.
  before=$("$kubectl" get pods -n "$namespace" -l app.kubernetes.io/name=gateway -o name | sort | paste -sd' ')
  run "$environment: rotate the admin token" bash -c '"$1" create secret generic gateway -n "$2" \
    --from-literal=ADMIN_TOKEN="$(openssl rand -hex 32)" --dry-run=client -o yaml | "$1" apply -f -' _ "$kubectl" "$namespace"
  run "$environment: restart the gateway" "$kubectl" rollout restart deployment/gateway -n "$namespace"
  run "$environment: the gateway rolled out" "$kubectl" rollout status deployment/gateway -n "$namespace" --timeout="$(stretch 60)"
  after=$("$kubectl" get pods -n "$namespace" -l app.kubernetes.io/name=gateway -o name | sort | paste -sd' ')
  [ "$before" != "$after" ] || die "$environment: the gateway's pods were not replaced after the restart" "$log"
  ok "$environment: the gateway's Secret rotated, its pods replaced"

  # 7. Uninstall, last release first: nothing left but what the operator made (the Secrets) and what
  # Kubernetes makes in every namespace.
  for ((i = ${#SERVICES[@]} - 1; i >= 0; i--)); do
    run "$environment: uninstall ${SERVICES[i]}" "$helm" uninstall "${SERVICES[i]}" -n "$namespace" --wait --timeout "$(stretch 120)"
  done
  kinds=$("$kubectl" api-resources --verbs=list --namespaced -o name | grep -v '^events' | paste -sd,)
  "$kubectl" get "$kinds" -n "$namespace" -o name 2>>"$log" | grep -v \
    -e '^configmap/kube-root-ca.crt$' -e '^serviceaccount/default$' \
    -e "^secret/\($(cut -d' ' -f1 "$work/$environment-secrets.txt" | paste -sd'|' | sed 's/|/\\|/g')\)$" \
    >"$work/left.txt" || true
  [ ! -s "$work/left.txt" ] || die "$environment: left behind after uninstalling every release: $(paste -sd' ' "$work/left.txt")" "$log"
  ok "$environment: every release uninstalled, nothing left behind"
done
step "passed: ${ENVIRONMENTS[*]}, ${#SERVICES[@]} releases each, on Kubernetes $kube_version"
