#!/usr/bin/env bash
# The test suite on the production image's Node.js major (NODE_MAJOR in docker/Dockerfile), run
# once on the embedded SQLite default: what differs between Node majors is the runtime and the
# native module (better-sqlite3; mysql2 is plain JavaScript), so the MariaDB, multi-instance and
# browser suites stay on the development Node, which keeps CI's time down.
#
# Node comes from the npm registry (the package node-linux-<arch>: the official binary and its
# headers). The suite runs in a copy of the repository (HEAD plus uncommitted changes to tracked
# files) with its own `npm ci`: better-sqlite3 is a native module built for one Node ABI, so the
# copy cannot share this checkout's node_modules. Needs Redis as `npm test` does.
#
# Then, in the same copy, what the image's runtime stage holds without needing Docker: the build,
# minus dist/bench and dist/test, with the dev dependencies pruned (as docker/Dockerfile does),
# must boot on this Node with NODE_ENV=production, answer /readyz and exit on SIGTERM.
#
#   docker/test-on-image-node.sh [jest options]     e.g. --maxWorkers=1
#
# Another Node than the image's: NODE_VERSION names a major or an exact release of node-linux-<arch>
# (.ci/run runs NODE_VERSION=24.18.1 with a few e2e files as the Jest options). BUILT_DIST names a
# dist/ already built from the same sources (on any Node: the build is plain JavaScript) for the
# runtime-stage check to reuse instead of building again; .ci/run passes the one the multi-instance
# suite built.
#
# better-sqlite3 is compiled once per (better-sqlite3 version, Node ABI, architecture) and kept in
# CHECKOUT_NATIVE_CACHE (default ~/.cache/checkout-api/native, outside the repository): with a warm
# cache `npm ci --ignore-scripts` installs (better-sqlite3's is the only install script the lock
# file allows; package.json's allowScripts) and the cached binary is copied in; a cold cache, or a
# cached binary that fails to load, compiles from source as before and fills the cache. Compiling
# takes 2 to 20 minutes on this machine depending on its load.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)

if [ -n "${NODE_VERSION:-}" ]; then
  version_wanted=$NODE_VERSION
else
  version_wanted=$(sed -n 's/^ARG NODE_MAJOR=\([0-9][0-9]*\)$/\1/p' "$repo/docker/Dockerfile")
  if [ -z "$version_wanted" ]; then
    echo "docker/Dockerfile has no 'ARG NODE_MAJOR=<number>' line" >&2
    exit 1
  fi
fi
case "$version_wanted" in
  [0-9]*) ;;
  *) echo "NODE_VERSION must be a major (24) or a release (24.18.1), not '$version_wanted'" >&2; exit 1 ;;
esac
major=${version_wanted%%.*}
case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "no node-linux package for $(uname -m)" >&2; exit 1 ;;
esac

work=$(mktemp -d "${TMPDIR:-/tmp}/checkout-node$major.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "Installing Node $version_wanted (node-linux-$arch@$version_wanted from the npm registry)"
npm install --prefix "$work/node" --no-save --no-package-lock --no-audit --no-fund --loglevel=error "node-linux-$arch@$version_wanted" >/dev/null
nodedir="$work/node/node_modules/node-linux-$arch"
export PATH="$nodedir/bin:$PATH"
# node-gyp builds against this Node's own headers (the package ships them), whatever nodedir the
# machine's npm configuration names.
export npm_config_nodedir="$nodedir"
version=$(node -v)
case "$version" in
  "v$version_wanted" | "v$version_wanted".*) echo "node $version at $(command -v node)" ;;
  *) echo "expected Node $version_wanted on PATH, found $version" >&2; exit 1 ;;
esac

# `git stash create` makes a commit of the work tree's changes without touching a ref or a file;
# it prints nothing when there are none.
snapshot=$(git -C "$repo" stash create 2>/dev/null || true)
mkdir "$work/repo"
git -C "$repo" archive "${snapshot:-HEAD}" | tar -x -C "$work/repo"
cd "$work/repo"

# The native module loads and works under this Node, or this fails with the loader's error.
check_sqlite() {
  node -e "
    const Database = require('better-sqlite3');
    const db = new Database(':memory:');
    const { v } = db.prepare('select sqlite_version() as v').get();
    console.log('better-sqlite3 ' + require('better-sqlite3/package.json').version + ' (SQLite ' + v + ') loads on Node ' + process.version + ', ABI ' + process.versions.modules);
  "
}
cache=${CHECKOUT_NATIVE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/checkout-api/native}
sqlite_version=$(node -p "require('./package-lock.json').packages['node_modules/better-sqlite3'].version")
cached="$cache/better-sqlite3-$sqlite_version-abi$(node -p process.versions.modules)-linux-$arch/better_sqlite3.node"
release=node_modules/better-sqlite3/build/Release

started=$SECONDS
if [ -f "$cached" ]; then
  npm ci --ignore-scripts --no-audit --no-fund
  mkdir -p "$release"
  cp "$cached" "$release/better_sqlite3.node"
  if check_sqlite; then
    echo "npm ci on Node $version took $((SECONDS - started)) s (better-sqlite3 from $cached)"
  else
    echo "The cached better-sqlite3 binary does not load: compiling it" >&2
    rm -f "$cached"
    npm rebuild better-sqlite3
    check_sqlite
    echo "npm ci on Node $version took $((SECONDS - started)) s (better-sqlite3 compiled again)"
  fi
else
  npm ci --no-audit --no-fund
  echo "npm ci on Node $version took $((SECONDS - started)) s (better-sqlite3 compiled: no cached build at $cached)"
  check_sqlite
fi
if [ ! -f "$cached" ]; then
  mkdir -p "$(dirname "$cached")"
  cp "$release/better_sqlite3.node" "$cached.$$" && mv "$cached.$$" "$cached"
fi

started=$SECONDS
env -u DATABASE_URL -u TEST_BASE_DATABASE_URL npm test -- "$@"
echo "npm test on Node $version took $((SECONDS - started)) s"

echo "Runtime stage without Docker: npm run build, dev dependencies pruned, dist/src/main.js on Node $version"
started=$SECONDS
# The same steps as docker/Dockerfile's build stage (or the dist/ BUILT_DIST names)
if [ -n "${BUILT_DIST:-}" ]; then
  [ -f "$BUILT_DIST/src/main.js" ] || { echo "BUILT_DIST=$BUILT_DIST holds no src/main.js" >&2; exit 1; }
  rm -rf dist
  cp -R "$BUILT_DIST" dist
else
  npm run build --silent
fi
rm -rf dist/bench dist/test
npm prune --omit=dev --workspaces=false --no-audit --no-fund --loglevel=error
port=$(node -e "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); })")
mkdir -m 700 "$work/data"
env -u DATABASE_URL -u REDIS_URL -u CHECKOUT_SECRET NODE_ENV=production HOST=127.0.0.1 PORT="$port" DATA_DIR="$work/data" LOG_LEVEL=warn \
  node dist/src/main.js >"$work/service.log" 2>&1 &
service=$!
ready=false
for _ in $(seq 60); do
  if node -e "fetch('http://127.0.0.1:$port/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"; then ready=true; break; fi
  kill -0 "$service" 2>/dev/null || break
  sleep 1
done
if [ "$ready" != true ]; then
  kill "$service" 2>/dev/null || true
  cat "$work/service.log" >&2
  echo "The pruned build did not become ready on Node $version" >&2
  exit 1
fi
kill -TERM "$service"
code=0
for _ in $(seq 30); do kill -0 "$service" 2>/dev/null || break; sleep 1; done
if kill -0 "$service" 2>/dev/null; then
  kill -KILL "$service"
  echo "The service did not exit within 30 s of SIGTERM" >&2
  exit 1
fi
wait "$service" || code=$?
case "$code" in
  0) echo "Ready on production dependencies only, exited on SIGTERM (code 0); $((SECONDS - started)) s" ;;
  *) cat "$work/service.log" >&2; echo "The service exited with code $code on SIGTERM" >&2; exit 1 ;;
esac
