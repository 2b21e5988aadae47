#!/usr/bin/env bash
# `scripts/with-node.sh VERSION COMMAND...`: runs COMMAND with Node VERSION first on PATH, so that `node`, `npm`,
# `npx` and every process the command starts (vitest's workers, the services the tests spawn) run on it.
# That Node is the npm registry's `node` package of exactly VERSION, installed once into a cache folder
# (NODE_CACHE_DIR, default ~/.cache/defi-intel-contract), never over the machine's own Node.
set -euo pipefail
if [ $# -lt 2 ] || ! [[ "$1" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
  echo "usage: scripts/with-node.sh VERSION COMMAND... (VERSION exact, e.g. 24.21.0)" >&2
  exit 2
fi
version="$1"
shift
dir="${NODE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/defi-intel-contract}/node-$version"
if [ "$("$dir/node_modules/.bin/node" --version 2>/dev/null)" != "v$version" ]; then
  mkdir -p "$dir"
  # The package's install script fetches its platform binary (node-<os>-<arch>) from the same registry.
  echo '{"private": true, "allowScripts": {"node": true}}' >"$dir/package.json"
  npm install --prefix "$dir" --no-save --no-package-lock --no-audit --no-fund --loglevel=error "node@$version" >&2
fi
PATH="$dir/node_modules/.bin:$PATH" exec "$@"
