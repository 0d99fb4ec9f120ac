#!/usr/bin/env bash
# The two Node 24 images deploy/image/Dockerfile builds from, made without Docker Hub: a Debian
# bookworm root filesystem from mmdebstrap (Debian's mirror) plus Node from the npm registry's
# node-linux-<arch> package (the version the host toolchain runs, deploy/local/toolchain.sh).
#
#   deploy/image/base.sh              makes each image unless local storage already holds it
#   deploy/image/base.sh --rebuild    makes both again (a fresh rootfs: Debian's security updates)
#
#   localhost/corridor/node-base:<node>               BASE_IMAGE, what every service image runs on:
#       glibc, libstdc++, Debian's CA bundle, /etc/passwd with node (1000:1000), /tmp, and
#       /usr/local/bin/node. No shell, no package manager: the packages are extracted, not installed.
#   localhost/corridor/node-build:<node>-pnpm<pnpm>   BUILD_IMAGE, the Dockerfile's build stage:
#       a minimal installed Debian (dash, coreutils, dpkg, ca-certificates), the same node, and pnpm
#       at package.json's "packageManager" version (/usr/local/bin/pnpm).
#
# Needs root, buildah and mmdebstrap (apt-get installs them when missing). Downloads: the Debian
# packages (≈20 MB), node-linux-<arch> (52 MB) and pnpm (5 MB) tarballs, the latter two once into
# .local/image/cache (npm's own cache first). Log: .local/log/image.log.
set -euo pipefail

# shellcheck source=deploy/image/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

rebuild=false
case "${1:-}" in
  '') ;;
  --rebuild) rebuild=true ;;
  *) fail "unknown argument '$1' (usage: deploy/image/base.sh [--rebuild])" ;;
esac

DEBIAN_SUITE=bookworm
DEBIAN_MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
DEBIAN_SECURITY_MIRROR="${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}"
work="$IMAGE_LOCAL/base-work"

if ! $rebuild && image_exists "$BASE_IMAGE" && image_exists "$BUILD_IMAGE"; then
  step "base images: reusing $BASE_IMAGE and $BUILD_IMAGE"
  exit 0
fi
started=$SECONDS

# npm_tarball NAME VERSION: the registry's tarball of NAME@VERSION in the cache (npm pack once).
npm_tarball() {
  local file="$IMAGE_CACHE/$1-$2.tgz"
  if [ ! -s "$file" ]; then
    logged "npm pack $1@$2" npm pack --prefer-offline --pack-destination "$IMAGE_CACHE" "$1@$2"
  fi
  printf '%s\n' "$file"
}

# mmdebstrap_into DIR VARIANT PACKAGES [options...]: a bookworm rootfs in DIR, without documentation.
mmdebstrap_into() {
  local dir=$1 variant=$2 packages=$3
  shift 3
  rm -rf "$dir"
  logged "mmdebstrap $variant $packages" mmdebstrap --mode=root --format=directory \
    --variant="$variant" --include="$packages" \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    "$@" "$DEBIAN_SUITE" "$dir" \
    "deb $DEBIAN_MIRROR $DEBIAN_SUITE main" \
    "deb $DEBIAN_MIRROR $DEBIAN_SUITE-updates main" \
    "deb $DEBIAN_SECURITY_MIRROR $DEBIAN_SUITE-security main"
  # The host's resolver and name are copied in for the build; a container gets its own.
  rm -rf "${dir:?}/etc/resolv.conf" "$dir/etc/hostname" "${dir:?}/dev/"* "$dir/var/cache/apt" "$dir/var/lib/apt/lists"
}

# add_node ROOTFS: node (and its licence) into ROOTFS; checks it runs there.
add_node() {
  mkdir -p "$1/usr/local/bin" "$1/usr/local/share/doc/node"
  cp "$work/node/bin/node" "$1/usr/local/bin/node"
  cp "$work/node/LICENSE" "$1/usr/local/share/doc/node/LICENSE"
  [ "$(chroot "$1" /usr/local/bin/node --version 2>>"$IMAGE_LOG")" = "v$NODE_VERSION" ] ||
    fail "node does not run in ${1##*/} (a library missing?)" "$IMAGE_LOG"
}

# commit_image NAME ROOTFS [buildah config options...]: ROOTFS as the image NAME.
commit_image() {
  local name=$1 rootfs=$2 ctr previous
  shift 2
  previous=$(buildah images --quiet "$name" 2>/dev/null || true)
  ctr=$(buildah from --quiet scratch)
  logged "copy the rootfs into $name" buildah copy --quiet "$ctr" "$rootfs" /
  logged "configure $name" buildah config \
    --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --env NODE_VERSION="$NODE_VERSION" \
    --label org.opencontainers.image.description="Node $NODE_VERSION (npm registry node-linux-$node_arch) on Debian $DEBIAN_SUITE (mmdebstrap)" \
    --label org.opencontainers.image.version="$NODE_VERSION" \
    --cmd '["node"]' "$@" "$ctr"
  logged "commit $name" buildah commit --quiet --rm "$ctr" "$name"
  # The image it replaces, unless service images still build on it.
  if [ -n "$previous" ]; then buildah rmi "$previous" >/dev/null 2>&1 || true; fi
}

case "$(uname -m)" in
  x86_64 | amd64) node_arch=x64 ;;
  aarch64 | arm64) node_arch=arm64 ;;
  *) fail "no node-linux package for this machine's $(uname -m) here (x86_64 and aarch64 only)" ;;
esac
rm -rf "$work"
mkdir -p "$work"

# ---- node and pnpm from the npm registry --------------------------------------------------------
step "node-linux-$node_arch@$NODE_VERSION and pnpm@$PNPM_VERSION from the npm registry (cached in .local/image/cache)"
tar -xzf "$(npm_tarball "node-linux-$node_arch" "$NODE_VERSION")" -C "$work" package/bin/node package/LICENSE
mv "$work/package" "$work/node"
[ "$("$work/node/bin/node" --version)" = "v$NODE_VERSION" ] ||
  fail "node-linux-$node_arch@$NODE_VERSION holds no node v$NODE_VERSION"
mkdir -p "$work/pnpm"
tar -xzf "$(npm_tarball pnpm "$PNPM_VERSION")" -C "$work/pnpm" --strip-components=1

# ---- the build image: a minimal installed Debian, node, pnpm ------------------------------------
# custom variant: exactly these packages and their dependencies, installed (maintainer scripts run,
# so ca-certificates writes its bundle); dpkg needs diffutils and libc-bin, debconf perl-base.
step "node-build rootfs: mmdebstrap $DEBIAN_SUITE (custom variant: dash, coreutils, dpkg, ca-certificates)"
build_rootfs="$work/rootfs-build"
mmdebstrap_into "$build_rootfs" custom \
  base-files,base-passwd,usr-is-merged,netbase,libc6,libc-bin,libgcc-s1,libstdc++6,dash,coreutils,debianutils,diffutils,findutils,grep,sed,dpkg,perl-base,ca-certificates \
  --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr
add_node "$build_rootfs"
mkdir -p "$build_rootfs/usr/local/lib/node_modules"
cp -a "$work/pnpm" "$build_rootfs/usr/local/lib/node_modules/pnpm"
ln -s ../lib/node_modules/pnpm/bin/pnpm.cjs "$build_rootfs/usr/local/bin/pnpm"
[ "$(chroot "$build_rootfs" pnpm --version 2>>"$IMAGE_LOG")" = "$PNPM_VERSION" ] ||
  fail "pnpm does not run in the node-build rootfs" "$IMAGE_LOG"
step "committing $BUILD_IMAGE"
commit_image "$BUILD_IMAGE" "$build_rootfs" --env PNPM_VERSION="$PNPM_VERSION"

# ---- the runtime base: node and only what it loads ----------------------------------------------
# extract variant: the packages' files, no maintainer scripts, hence no shell or dpkg is needed
# (base-files' dependency mawk is removed: only maintainer scripts would use it). node needs glibc,
# libstdc++ and libgcc_s; netbase gives /etc/services and /etc/protocols. No tzdata: Node's ICU has
# its own zone data, and the services run in UTC. The CA bundle is the one ca-certificates wrote
# above (never the host's, which may hold a TLS-intercepting proxy's CA).
step "node-base rootfs: mmdebstrap $DEBIAN_SUITE (extract variant: libc6, libstdc++6, libgcc-s1, base-files, netbase)"
rootfs="$work/rootfs-base"
# shellcheck disable=SC2016 # $1 is the hook's argument, expanded by mmdebstrap's shell
mmdebstrap_into "$rootfs" extract base-files,netbase,libc6,libgcc-s1,libstdc++6 \
  --dpkgopt='path-exclude=/usr/lib/*/gconv/*' \
  --setup-hook='for d in bin sbin lib lib64; do mkdir -p "$1/usr/$d"; ln -s "usr/$d" "$1/$d"; done'
rm -rf "$rootfs/etc/apt" "$rootfs/etc/dpkg" "$rootfs/var/lib/apt" "$rootfs/etc/update-motd.d" \
  "$rootfs/usr/bin/mawk" "$rootfs/usr/share/gcc" "$rootfs/usr/share/gdb" "$rootfs/usr/share/lintian"
mkdir -p "$rootfs/etc/ssl/certs" "$rootfs/tmp"
chmod 1777 "$rootfs/tmp"
cp "$build_rootfs/etc/ssl/certs/ca-certificates.crt" "$rootfs/etc/ssl/certs/"
printf '%s\n' 'root:x:0:0:root:/root:/usr/sbin/nologin' 'node:x:1000:1000:node:/nonexistent:/usr/sbin/nologin' \
  'nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin' >"$rootfs/etc/passwd"
printf '%s\n' 'root:x:0:' 'node:x:1000:' 'nogroup:x:65534:' >"$rootfs/etc/group"
printf '%s\n' 'passwd: files' 'group: files' 'hosts: files dns' 'services: files' 'protocols: files' >"$rootfs/etc/nsswitch.conf"
printf '%s\n' 'include /etc/ld.so.conf.d/*.conf' >"$rootfs/etc/ld.so.conf"
ldconfig -r "$rootfs"
# Image scanners (trivy, grype) learn an image's Debian packages from dpkg's status: the entries of
# the extracted packages, distroless-style, from the build rootfs made just before from the same mirror.
mkdir -p "$rootfs/var/lib/dpkg/status.d"
for package in base-files netbase libc6 libgcc-s1 libstdc++6 gcc-12-base; do
  dpkg-query --admindir="$build_rootfs/var/lib/dpkg" --status "$package" >"$rootfs/var/lib/dpkg/status.d/$package" ||
    fail "no dpkg status of $package in the node-build rootfs"
done
add_node "$rootfs"
step "committing $BASE_IMAGE"
commit_image "$BASE_IMAGE" "$rootfs"

rm -rf "$work"
step "base images made in $((SECONDS - started)) s: $BASE_IMAGE ($(buildah images --format '{{.Size}}' "$BASE_IMAGE")), $BUILD_IMAGE ($(buildah images --format '{{.Size}}' "$BUILD_IMAGE"))"
