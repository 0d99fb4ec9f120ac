# shellcheck shell=bash
# Shared by deploy/image/{base,build}.sh (sourced after `set -euo pipefail`): paths, the two base
# images' names, step/fail, and the tools they need (Debian's buildah and mmdebstrap, installed
# with apt-get when missing, like deploy/local installs its servers).

IMAGE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
IMAGE_LOCAL="$IMAGE_ROOT/.local/image"
IMAGE_CACHE="$IMAGE_LOCAL/cache"
IMAGE_LOG="$IMAGE_ROOT/.local/log/image.log"
mkdir -p "$IMAGE_CACHE" "$(dirname "$IMAGE_LOG")"

step() { printf '[image] %s\n' "$*"; }

# fail "what failed" [file whose last lines explain it]
fail() {
  printf '[image] FAILED: %s\n' "$1" >&2
  if [ -n "${2:-}" ] && [ -s "$2" ]; then
    tail -n 25 "$2" | sed 's/^/    | /' >&2
    printf '[image] read the log: %s\n' "$2" >&2
  fi
  exit 1
}
set -E
trap 'fail "unexpected error (exit $?) at ${BASH_SOURCE[0]##*/}:$LINENO running: $BASH_COMMAND" "$IMAGE_LOG"' ERR

# logged "what" command...: runs it with its output appended to the log; fails naming "what".
logged() {
  local what=$1
  shift
  printf '\n=== %s: %s\n$ %s\n' "$(date '+%F %T')" "$what" "$*" >>"$IMAGE_LOG"
  "$@" >>"$IMAGE_LOG" 2>&1 || fail "$what" "$IMAGE_LOG"
}

# need_debian_packages COMMAND=PACKAGE...: apt-get installs the packages whose command is missing.
need_debian_packages() {
  local pair missing=()
  for pair in "$@"; do
    command -v "${pair%%=*}" >/dev/null 2>&1 || missing+=("${pair#*=}")
  done
  [ "${#missing[@]}" -eq 0 ] && return 0
  [ "$(id -u)" -eq 0 ] || fail "missing ${missing[*]}: run as root (buildah and mmdebstrap need it here), or apt-get install ${missing[*]}"
  step "installing Debian's ${missing[*]} (apt-get; log: $IMAGE_LOG)"
  logged "apt-get install ${missing[*]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
}

[ "$(id -u)" -eq 0 ] || fail "run as root: buildah here stores images in /var/lib/containers and builds with --isolation chroot"
need_debian_packages buildah=buildah mmdebstrap=mmdebstrap unshare=util-linux ip=iproute2 ldconfig=libc-bin

# Node 24 and the pinned pnpm, as on the host (deploy/local/toolchain.sh; offline once installed).
# shellcheck source=deploy/local/toolchain.sh
. "$IMAGE_ROOT/deploy/local/toolchain.sh" || fail "the Node 24 / pnpm toolchain (deploy/local/toolchain.sh)"
command -v npm >/dev/null 2>&1 || fail "npm is not on PATH (it fetches node-linux-<arch> and pnpm from the npm registry)"

# The images' Node is the host toolchain's (the highest 24.x when toolchain.sh installed it);
# NODE_VERSION=24.x.y overrides it. pnpm is the exact version of package.json's "packageManager".
NODE_VERSION="${NODE_VERSION:-$(node --version)}"
NODE_VERSION="${NODE_VERSION#v}"
[[ "$NODE_VERSION" =~ ^24\.[0-9]+\.[0-9]+$ ]] ||
  fail "Node $NODE_VERSION is not a 24.x release: the images run Node 24 LTS (set NODE_VERSION=24.x.y)"
PNPM_VERSION=$(node -p 'require(process.argv[1]).packageManager.replace(/^pnpm@/, "")' "$IMAGE_ROOT/package.json")

# The runtime base (node, glibc, CA certificates; no shell) and the build stage's image (the same
# Node plus a minimal Debian userland and pnpm). deploy/image/base.sh makes both.
# shellcheck disable=SC2034 # used by base.sh and build.sh
BASE_IMAGE="localhost/corridor/node-base:$NODE_VERSION"
# shellcheck disable=SC2034
BUILD_IMAGE="localhost/corridor/node-build:$NODE_VERSION-pnpm$PNPM_VERSION"

# image_exists NAME: true if local storage holds it.
image_exists() { buildah images --quiet "$1" >/dev/null 2>&1; }
