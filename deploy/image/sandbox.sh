#!/usr/bin/env bash
# Runs a command in a mounted image the way its Helm chart runs the container, without a container
# engine: read-only root filesystem, a 64 MiB tmpfs on /tmp, uid/gid 1000 (no capabilities), its own
# PID, IPC, UTS and network namespaces (loopback only: nothing leaves the machine), a minimal /dev
# and /proc. deploy/image/build.sh uses it to check each image; by hand:
#
#   ctr=$(buildah from localhost/corridor/payments:<tag>); rootfs=$(buildah mount "$ctr")
#   deploy/image/sandbox.sh "$rootfs" /app 20 env.txt "" -- node dist/main.js
#   buildah rm "$ctr"
#
# Arguments: ROOTFS WORKDIR SECONDS ENV_FILE (KEY=VALUE lines, the whole environment) PROBES
# (space-separated "URL=STATUS": GET once the command has logged a line saying it is listening, then
# stop it) -- COMMAND... The command's output goes to standard output, followed by lines of its own:
# "[sandbox] GET URL -> STATUS (N bytes)", "[sandbox] exit N" or "[sandbox] still running after N s".
# Exits 0 once the command has ended (whatever its status); the caller judges the output.
set -euo pipefail

if [ "${1:-}" != --inside ]; then
  [ "$(id -u)" -eq 0 ] || { echo "[sandbox] needs root (namespaces, mounts, chroot)" >&2; exit 1; }
  if [ "$#" -lt 7 ] || [ "$6" != -- ]; then
    echo "usage: sandbox.sh ROOTFS WORKDIR SECONDS ENV_FILE PROBES -- COMMAND..." >&2
    exit 1
  fi
  # New mount (private: nothing is seen outside), PID, network, IPC and UTS namespaces.
  exec unshare --mount --pid --net --ipc --uts --fork --kill-child -- "$0" --inside "$@"
fi
shift
rootfs=$1 workdir=$2 seconds=$3 env_file=$4 probes=$5
shift 6

hostname image-check
ip link set lo up
mount --bind "$rootfs" "$rootfs"
mount -o remount,bind,ro,nosuid,nodev "$rootfs"
mount -t tmpfs -o size=64m,mode=1777,nosuid,nodev tmpfs "$rootfs/tmp"
mount -t proc -o nosuid,nodev,noexec proc "$rootfs/proc"
mount -t tmpfs -o size=1m,mode=755,nosuid,noexec tmpfs "$rootfs/dev"
for device in null zero full random urandom; do
  touch "$rootfs/dev/$device"
  mount --bind "/dev/$device" "$rootfs/dev/$device"
done
mapfile -t environment <"$env_file"

# unshare --root chroots, changes directory, then drops to 1000:1000 (which clears every capability).
output=$(mktemp)
env -i "${environment[@]}" unshare --root="$rootfs" --wd="$workdir" --setgid=1000 --setuid=1000 -- "$@" >>"$output" 2>&1 &
pid=$!
deadline=$((SECONDS + seconds))
probed=false
while kill -0 "$pid" 2>/dev/null; do
  if [ -n "$probes" ] && ! $probed && grep -q 'listening' "$output"; then
    probed=true
    for probe in $probes; do
      # shellcheck disable=SC2016 # JavaScript
      node -e 'fetch(process.argv[1]).then(
        async (r) => console.log(`[sandbox] GET ${process.argv[1]} -> ${r.status} (${(await r.arrayBuffer()).byteLength} bytes)`),
        (e) => console.log(`[sandbox] GET ${process.argv[1]} -> ${e.cause?.code ?? e.message}`))' "${probe%=*}" >>"$output" 2>&1
    done
    kill -TERM "$pid"
  elif [ "$SECONDS" -ge "$deadline" ]; then
    echo "[sandbox] still running after $seconds s" >>"$output"
    kill -TERM "$pid"
    break
  fi
  sleep 0.2
done
# SIGTERM, then 10 s to stop (the chart's terminationGracePeriodSeconds is longer), then SIGKILL.
for _ in $(seq 50); do
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.2
done
kill -KILL "$pid" 2>/dev/null || true
wait "$pid" && rc=0 || rc=$?
cat "$output"
rm -f "$output"
echo "[sandbox] exit $rc"
