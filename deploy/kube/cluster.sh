#!/usr/bin/env bash
# A real Kubernetes control plane on this machine, for deploy/helm/cluster-check.sh and for trying
# the charts by hand: etcd, kube-apiserver, kube-controller-manager and kube-scheduler, built from the
# Go module proxy, with kwok's fake nodes in place of kubelets (pods are scheduled, become Running
# and Ready, and Jobs complete, but no container runs: deploy/kube/kwok.yaml).
#
#   cluster.sh build     builds the binaries into .local/kube/bin, once (≈7 min cold on 2 cores)
#   cluster.sh up DIR    starts a cluster whose files live in DIR (certificates, etcd's data, logs,
#                        DIR/kubeconfig), on free ports of 127.0.0.1, with three nodes in three zones
#   cluster.sh down DIR  stops it and deletes DIR
#
# k8s.io/kubernetes can't be `go install`ed (its go.mod maps its staging modules to local folders):
# deploy/kube/controlplane is a wrapper module that requires it and maps each staging module to its
# published version instead. etcd is built from the same module graph (the version Kubernetes
# itself requires); Debian's etcd is too old for 1.34's watch progress requests.
set -euo pipefail
COMPONENT=kube
# shellcheck source=deploy/local/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../local/lib.sh"

KUBERNETES_VERSION=v1.34.4
KWOK_VERSION=v0.8.0
module="$CORRIDOR_ROOT/deploy/kube/controlplane"
bin="$CORRIDOR_LOCAL/kube/bin"
build_log="$LOG_DIR/kube-build.log"

# What the binaries were built from: rebuilt when the wrapper module or a version changes.
build_stamp() {
  cat "$module/go.mod" "$module/go.sum" | sha256sum | cut -c1-16
  echo "$KUBERNETES_VERSION $KWOK_VERSION $(go env GOVERSION)"
}

build() {
  command -v go >/dev/null 2>&1 || die "go is not on PATH: the control plane is built with the machine's Go (1.24 or newer)"
  if [ -f "$bin/.stamp" ] && [ "$(cat "$bin/.stamp")" = "$(build_stamp)" ]; then
    step "control plane $KUBERNETES_VERSION and kwok $KWOK_VERSION: reusing .local/kube/bin"
    return 0
  fi
  local started=$SECONDS minor=${KUBERNETES_VERSION#v1.}
  minor=${minor%%.*}
  mkdir -p "$bin"
  rm -f "$bin/.stamp"
  # kubectl parses the server's version: without these the binaries report v0.0.0-master.
  local version_flags="-X k8s.io/component-base/version.gitVersion=$KUBERNETES_VERSION
    -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=$minor
    -X k8s.io/component-base/version.gitTreeState=clean"
  run_logged "$build_log" "building etcd, kube-apiserver, kube-controller-manager, kube-scheduler and kubectl $KUBERNETES_VERSION (first time only, ≈7 min; log: $build_log)" \
    bash -c 'cd "$1" && go build -trimpath -ldflags "-s -w $2" -o "$3/" "${@:4}"' _ "$module" "$version_flags" "$bin" \
    k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager \
    k8s.io/kubernetes/cmd/kube-scheduler k8s.io/kubernetes/cmd/kubectl go.etcd.io/etcd/server/v3
  # go names a module's root package after its path, less the major version: etcd's is "server".
  mv "$bin/server" "$bin/etcd"
  run_logged "$build_log" "building kwok $KWOK_VERSION" \
    env GOBIN="$bin" go install -trimpath -ldflags "-s -w" "sigs.k8s.io/kwok/cmd/kwok@$KWOK_VERSION"
  build_stamp >"$bin/.stamp"
  step "built in $((SECONDS - started)) s"
}

free_port() {
  node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
}

# start DIR NAME cmd... : runs a component in the background, its output in DIR/NAME.log.
start() {
  local dir=$1 name=$2
  shift 2
  "$@" >"$dir/$name.log" 2>&1 &
  echo "$! $name" >>"$dir/pids"
}

# certificates DIR: one CA, and one key and certificate that serve the API and are every client's
# (O=system:masters). A throwaway cluster's shortcut: a real one gives each component its own.
certificates() {
  local dir=$1
  (
    cd "$dir"
    openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days 2 -subj "/CN=corridor-check-ca"
    openssl req -newkey rsa:2048 -nodes -keyout admin.key -out admin.csr -subj "/O=system:masters/CN=corridor-check-admin"
    printf '%s\n' "subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:kubernetes.default.svc,IP:10.96.0.1" \
      "extendedKeyUsage=serverAuth,clientAuth" >admin.ext
    openssl x509 -req -in admin.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out admin.crt -days 2 -extfile admin.ext
  ) >>"$dir/certificates.log" 2>&1 || die "making the cluster's certificates" "$dir/certificates.log"
}

kubeconfig() {
  local dir=$1 port=$2
  cat >"$dir/kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters:
  - name: check
    cluster: {server: "https://127.0.0.1:$port", certificate-authority: "$dir/ca.crt"}
users:
  - name: admin
    user: {client-certificate: "$dir/admin.crt", client-key: "$dir/admin.key"}
contexts:
  - name: check
    context: {cluster: check, user: admin}
current-context: check
EOF
}

up() {
  local dir=$1
  build
  [ ! -e "$dir/pids" ] || die "$dir already holds a cluster: cluster.sh down $dir first"
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd -P)
  local started=$SECONDS etcd_port peer_port api_port kcm_port sched_port kwok_port
  etcd_port=$(free_port) peer_port=$(free_port) api_port=$(free_port)
  kcm_port=$(free_port) sched_port=$(free_port) kwok_port=$(free_port)
  certificates "$dir"
  kubeconfig "$dir" "$api_port"
  # No fsync: the cluster lives for one check.
  start "$dir" etcd "$bin/etcd" --name check --data-dir "$dir/etcd" --log-level warn --unsafe-no-fsync \
    --listen-client-urls "http://127.0.0.1:$etcd_port" --advertise-client-urls "http://127.0.0.1:$etcd_port" \
    --listen-peer-urls "http://127.0.0.1:$peer_port" --initial-advertise-peer-urls "http://127.0.0.1:$peer_port" \
    --initial-cluster "check=http://127.0.0.1:$peer_port"
  wait_until 30 "etcd on 127.0.0.1:$etcd_port" "$dir/etcd.log" port_open 127.0.0.1 "$etcd_port"
  # Admission as a cluster has it by default: PodSecurity included, enforced per namespace label.
  start "$dir" kube-apiserver "$bin/kube-apiserver" --etcd-servers "http://127.0.0.1:$etcd_port" \
    --bind-address 127.0.0.1 --advertise-address 127.0.0.1 --secure-port "$api_port" \
    --tls-cert-file "$dir/admin.crt" --tls-private-key-file "$dir/admin.key" --client-ca-file "$dir/ca.crt" \
    --service-account-key-file "$dir/admin.key" --service-account-signing-key-file "$dir/admin.key" \
    --service-account-issuer https://kubernetes.default.svc --service-cluster-ip-range 10.96.0.0/16 \
    --authorization-mode Node,RBAC --endpoint-reconciler-type none
  wait_until 60 "kube-apiserver on 127.0.0.1:$api_port" "$dir/kube-apiserver.log" \
    "$bin/kubectl" --kubeconfig "$dir/kubeconfig" get --raw /readyz
  start "$dir" kube-controller-manager "$bin/kube-controller-manager" --kubeconfig "$dir/kubeconfig" \
    --authentication-kubeconfig "$dir/kubeconfig" --authorization-kubeconfig "$dir/kubeconfig" \
    --bind-address 127.0.0.1 --secure-port "$kcm_port" --leader-elect=false \
    --service-account-private-key-file "$dir/admin.key" --root-ca-file "$dir/ca.crt" \
    --use-service-account-credentials=false
  start "$dir" kube-scheduler "$bin/kube-scheduler" --kubeconfig "$dir/kubeconfig" \
    --authentication-kubeconfig "$dir/kubeconfig" --authorization-kubeconfig "$dir/kubeconfig" \
    --bind-address 127.0.0.1 --secure-port "$sched_port" --leader-elect=false
  start "$dir" kwok "$bin/kwok" --kubeconfig "$dir/kubeconfig" --config "$CORRIDOR_ROOT/deploy/kube/kwok.yaml" \
    --manage-all-nodes=false --manage-nodes-with-annotation-selector kwok.x-k8s.io/node=fake \
    --server-address "127.0.0.1:$kwok_port" --cidr 10.244.0.0/16 --node-ip 10.0.0.1 \
    --node-lease-duration-seconds 40
  local zone
  for zone in a b c; do
    "$bin/kubectl" --kubeconfig "$dir/kubeconfig" apply -f - >>"$dir/nodes.log" 2>&1 <<EOF || die "creating node kwok-$zone" "$dir/nodes.log"
apiVersion: v1
kind: Node
metadata:
  name: kwok-$zone
  annotations: {kwok.x-k8s.io/node: fake}
  labels:
    kubernetes.io/hostname: kwok-$zone
    kubernetes.io/os: linux
    kubernetes.io/arch: amd64
    topology.kubernetes.io/zone: zone-$zone
    type: kwok
EOF
  done
  wait_until 60 "three Ready nodes" "$dir/kwok.log" \
    "$bin/kubectl" --kubeconfig "$dir/kubeconfig" wait --for=condition=Ready node --all --timeout=1s
  # The namespace controller and friends need the default service account's token controller:
  # a namespace is usable once it has its default ServiceAccount.
  wait_until 60 "the default ServiceAccount" "$dir/kube-controller-manager.log" \
    "$bin/kubectl" --kubeconfig "$dir/kubeconfig" get serviceaccount default -n default
  step "Kubernetes $KUBERNETES_VERSION up in $((SECONDS - started)) s: export KUBECONFIG=$dir/kubeconfig"
}

down() {
  local dir=$1 pid name
  [ -d "$dir" ] || return 0
  if [ -f "$dir/pids" ]; then
    # Reverse order: kwok and the controllers before the API server, etcd last.
    tac "$dir/pids" | while read -r pid name; do
      kill "$pid" 2>/dev/null || true
      for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
      kill -9 "$pid" 2>/dev/null || true
    done
  fi
  rm -rf "$dir"
}

case "${1:-}" in
  build) build ;;
  up) up "${2:?cluster.sh up DIR}" ;;
  down) down "${2:?cluster.sh down DIR}" ;;
  *) die "usage: cluster.sh build | up DIR | down DIR" ;;
esac
