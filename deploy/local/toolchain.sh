# shellcheck shell=bash
# Corridor toolchain: puts Node >= 24 and the pinned pnpm first on PATH.
#
#   . deploy/local/toolchain.sh        # from any directory; sets PATH, CORRIDOR_ROOT, CORRIDOR_LOCAL
#   bash deploy/local/toolchain.sh     # same checks/installs, then prints the resulting versions
#
# Node: a `node` already on PATH with major >= 24 is used as is. Otherwise the highest 24.x of
# the npm registry's `node` package is installed into .local/toolchain/node-<ver> (the `node`
# package pulls the arch-specific `node-linux-<arch>` package that holds the real binary).
# pnpm: the exact version of package.json's "packageManager" (default 10.34.9), installed into
# .local/toolchain/pnpm-<ver> unless a pnpm of that exact version is already on PATH.
# Once installed, sourcing is a few file tests (no network, no npm).
#
# Because this file is sourced, the work that can fail (installs) runs in a subshell with
# `set -euo pipefail`, so a failure reports itself and returns 1 instead of killing your shell.

_corridor_toolchain() {
  local here root local_dir tc log node_bin pnpm_ver pnpm_bin major pkg_json_text

  here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P) || return 1
  root=${here%/deploy/local}
  local_dir="$root/.local"
  tc="$local_dir/toolchain"
  log="$local_dir/log/toolchain.log"
  export CORRIDOR_ROOT="$root" CORRIDOR_LOCAL="$local_dir"

  # ---- node -------------------------------------------------------------------------------
  node_bin=""
  if [ -s "$tc/node.bindir" ]; then
    node_bin=$(<"$tc/node.bindir")
    [ -x "$node_bin/node" ] || node_bin=""
  fi
  if [ -z "$node_bin" ]; then
    major=""
    if command -v node >/dev/null 2>&1; then
      major=$(node --version 2>/dev/null) || major=""
      major=${major#v}
      major=${major%%.*}
    fi
    if [[ "$major" =~ ^[0-9]+$ ]] && [ "$major" -ge 24 ]; then
      : # the node on PATH is recent enough; use it
    else
      if [ -n "$major" ]; then major="v$major (too old)"; else major="missing"; fi
      echo "[toolchain] node on PATH is $major; installing Node 24 into $tc (log: $log)" >&2
      node_bin=$(_corridor_install_node "$tc" "$log") || {
        echo "[toolchain] FAILED: installing Node 24 from the npm registry; read the log: $log" >&2
        return 1
      }
    fi
  fi
  if [ -n "$node_bin" ]; then
    case ":$PATH:" in
      "$node_bin:"*) ;;
      *) PATH="$node_bin:$PATH" ;;
    esac
  fi

  # ---- pnpm -------------------------------------------------------------------------------
  pnpm_ver="10.34.9"
  if [ -f "$root/package.json" ]; then
    pkg_json_text=$(<"$root/package.json")
    if [[ "$pkg_json_text" =~ \"packageManager\"[[:space:]]*:[[:space:]]*\"pnpm@([0-9A-Za-z.-]+) ]]; then
      pnpm_ver=${BASH_REMATCH[1]}
    fi
  fi
  pnpm_bin="$tc/pnpm-$pnpm_ver/node_modules/.bin"
  if [ ! -x "$pnpm_bin/pnpm" ]; then
    if command -v pnpm >/dev/null 2>&1 && [ "$(pnpm --version 2>/dev/null)" = "$pnpm_ver" ]; then
      pnpm_bin="" # the pnpm on PATH is exactly the pinned version
    else
      echo "[toolchain] installing pnpm@$pnpm_ver into $tc/pnpm-$pnpm_ver (log: $log)" >&2
      (
        set -euo pipefail
        mkdir -p "$tc" "$(dirname "$log")"
        printf '\n=== %s: npm install pnpm@%s\n' "$(date '+%F %T')" "$pnpm_ver" >>"$log"
        npm install --prefix "$tc/pnpm-$pnpm_ver" --no-save --no-package-lock --no-audit --no-fund \
          "pnpm@$pnpm_ver" >>"$log" 2>&1
        [ -x "$pnpm_bin/pnpm" ]
      ) || {
        echo "[toolchain] FAILED: installing pnpm@$pnpm_ver from the npm registry; read the log: $log" >&2
        return 1
      }
    fi
  fi
  if [ -n "$pnpm_bin" ]; then
    case ":$PATH:" in
      "$pnpm_bin:"*) ;;
      *) PATH="$pnpm_bin:$PATH" ;;
    esac
  fi
  export PATH
}

# Prints the bin dir holding the installed node binary. Runs in a subshell (own shell options).
_corridor_install_node() (
  set -euo pipefail
  tc=$1
  log=$2
  mkdir -p "$tc" "$(dirname "$log")"
  case "$(uname -m)" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    ppc64le) arch=ppc64le ;;
    s390x) arch=s390x ;;
    *) echo "unsupported CPU $(uname -m)" >>"$log"; exit 1 ;;
  esac
  command -v npm >/dev/null 2>&1 || { echo "npm not found on PATH" >>"$log"; exit 1; }
  command -v node >/dev/null 2>&1 || { echo "node not found on PATH (needed to run npm)" >>"$log"; exit 1; }

  echo "[toolchain] resolving the highest Node 24.x on the npm registry" >&2
  printf '\n=== %s: npm view node versions\n' "$(date '+%F %T')" >>"$log"
  # `npm view node@24 version` sorts as strings (24.9.x after 24.21.x); sort numerically instead.
  ver=$(npm view node versions --json 2>>"$log" | node -e '
    let s = ""; process.stdin.on("data", d => (s += d)).on("end", () => {
      const v = JSON.parse(s).filter(x => /^24\.\d+\.\d+$/.test(x))
        .map(x => x.split(".").map(Number))
        .sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
      if (!v.length) process.exit(1);
      console.log(v[v.length - 1].join("."));
    });' 2>>"$log")
  echo "resolved node@$ver" >>"$log"

  prefix="$tc/node-$ver"
  find_bin() {
    local f
    for f in "$prefix/node_modules/node/node_modules/node-linux-$arch/bin/node" \
      "$prefix/node_modules/node-linux-$arch/bin/node"; do
      if [ -x "$f" ]; then dirname "$f"; return 0; fi
    done
    return 1
  }
  if ! bindir=$(find_bin); then
    echo "[toolchain] npm install node@$ver (≈60 MB download)" >&2
    printf '\n=== %s: npm install node@%s\n' "$(date '+%F %T')" "$ver" >>"$log"
    npm install --prefix "$prefix" --no-save --no-package-lock --no-audit --no-fund "node@$ver" >>"$log" 2>&1
    if ! bindir=$(find_bin); then
      # The `node` package fetches node-linux-<arch> from its preinstall script; if npm did not
      # run install scripts, install the arch-specific package directly.
      echo "node-linux-$arch not pulled in by node@$ver (install scripts skipped?); installing it directly" >>"$log"
      npm install --prefix "$prefix" --no-save --no-package-lock --no-audit --no-fund \
        "node@$ver" "node-linux-$arch@$ver" >>"$log" 2>&1
      bindir=$(find_bin)
    fi
  fi
  got=$("$bindir/node" --version)
  [ "$got" = "v$ver" ] || { echo "expected v$ver, $bindir/node says $got" >>"$log"; exit 1; }
  printf '%s\n' "$bindir" >"$tc/node.bindir"
  echo "[toolchain] Node $got installed at $bindir" >&2
  printf '%s\n' "$bindir"
)

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  # Executed rather than sourced: install/check, then show what a sourcing shell would get.
  set -euo pipefail
  _corridor_toolchain
  echo "[toolchain] node $(node --version) ($(command -v node)); pnpm $(pnpm --version) ($(command -v pnpm))"
  echo "[toolchain] to use it in your shell: . $CORRIDOR_ROOT/deploy/local/toolchain.sh"
else
  if _corridor_toolchain; then
    unset -f _corridor_toolchain _corridor_install_node
  else
    unset -f _corridor_toolchain _corridor_install_node
    return 1
  fi
fi
