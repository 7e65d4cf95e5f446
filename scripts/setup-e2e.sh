#!/usr/bin/env bash
# Installs what the real-VS-Code tests and `npm start` need: Debian packages, then code-server
# (a real VS Code workbench + Node extension host) into test/host/. Idempotent; a no-op when done.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
HOST="$ROOT/test/host"
STAMP="$HOST/node_modules/.judge-studio-installed"

# 1. System packages, only the missing ones. chromium drives the workbench; libkrb5-dev and
#    pkg-config build code-server's native `kerberos`; ripgrep replaces the rg it would download.
missing=()
command -v chromium >/dev/null || missing+=(chromium)
for p in libkrb5-dev ripgrep pkg-config; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
# Native modules (node-pty, kerberos, argon2) build from source: they need a compiler and python.
{ command -v g++ && command -v make && command -v python3; } >/dev/null || missing+=(build-essential python3)
if ((${#missing[@]})); then
  if [[ $(id -u) -ne 0 ]]; then
    echo "setup-e2e: missing Debian packages: ${missing[*]}" >&2
    echo "setup-e2e: run as root (or: sudo apt-get install -y ${missing[*]}) and try again" >&2
    exit 1
  fi
  echo "setup-e2e: apt-get install ${missing[*]}"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi

# 2. code-server, unless this exact lockfile is already installed.
want="$(sha256sum "$HOST/package-lock.json" 2>/dev/null | cut -d' ' -f1 || true)"
if [[ -n "$want" && -x "$HOST/node_modules/.bin/code-server" && -f "$STAMP" && "$(cat "$STAMP")" == "$want" ]]; then
  exit 0
fi

# @vscode/ripgrep 1.15.11's postinstall downloads rg from GitHub (unreachable here): pre-fill its
# cache with Debian's rg under the exact name it looks for (the name encodes the CPU).
case "$(uname -m)" in
  aarch64) rgtarget=aarch64-unknown-linux-musl ;;
  *) rgtarget=x86_64-unknown-linux-musl ;;
esac
rgcache="${TMPDIR:-/tmp}/vscode-ripgrep-cache-1.15.11"
rgtar="$rgcache/ripgrep-v13.0.0-10-$rgtarget.tar.gz"
if [[ ! -f "$rgtar" ]]; then
  src="$(mktemp -d)"
  mkdir -p "$rgcache" && cp "$(command -v rg)" "$src/rg"
  tar czf "$rgtar" -C "$src" rg && rm -rf "$src"
fi

start=$SECONDS
echo "setup-e2e: installing code-server $(sed -n 's/.*"code-server": "\(.*\)".*/\1/p' "$HOST/package.json") into test/host/ (first time only: about 450 MB, 2-5 minutes)"
cd "$HOST"
# npm_config_yes: node-pty's install runs `npx node-gyp`, which would otherwise wait for a prompt.
# --unsafe-perm: code-server's postinstall refuses to run as root without it (npm 11 calls the
# flag unknown but still hands it to the script).
export npm_config_yes=true
if [[ -f package-lock.json ]]; then
  npm ci --unsafe-perm --no-audit --no-fund
else
  npm install --unsafe-perm --no-audit --no-fund  # first time only: writes package-lock.json
fi
"$HOST/node_modules/.bin/code-server" --version >/dev/null   # fails loudly if the install is broken
sha256sum package-lock.json | cut -d' ' -f1 > "$STAMP"
echo "setup-e2e: code-server installed in $((SECONDS - start)) s"
