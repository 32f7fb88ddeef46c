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
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)

major=$(sed -n 's/^ARG NODE_MAJOR=\([0-9][0-9]*\)$/\1/p' "$repo/docker/Dockerfile")
if [ -z "$major" ]; then
  echo "docker/Dockerfile has no 'ARG NODE_MAJOR=<number>' line" >&2
  exit 1
fi
case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "no node-linux package for $(uname -m)" >&2; exit 1 ;;
esac

work=$(mktemp -d "${TMPDIR:-/tmp}/checkout-node$major.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "Installing Node $major (node-linux-$arch@$major from the npm registry)"
npm install --prefix "$work/node" --no-save --no-package-lock --no-audit --no-fund --loglevel=error "node-linux-$arch@$major" >/dev/null
nodedir="$work/node/node_modules/node-linux-$arch"
export PATH="$nodedir/bin:$PATH"
# node-gyp builds against this Node's own headers (the package ships them), whatever nodedir the
# machine's npm configuration names.
export npm_config_nodedir="$nodedir"
version=$(node -v)
case "$version" in
  "v$major".*) echo "node $version at $(command -v node)" ;;
  *) echo "expected Node $major on PATH, found $version" >&2; exit 1 ;;
esac

# `git stash create` makes a commit of the work tree's changes without touching a ref or a file;
# it prints nothing when there are none.
snapshot=$(git -C "$repo" stash create 2>/dev/null || true)
mkdir "$work/repo"
git -C "$repo" archive "${snapshot:-HEAD}" | tar -x -C "$work/repo"
cd "$work/repo"

started=$SECONDS
npm ci --no-audit --no-fund
echo "npm ci on Node $version took $((SECONDS - started)) s"
# The native module loads and works under this Node, or the step stops here with the loader's error.
node -e "
  const Database = require('better-sqlite3');
  const db = new Database(':memory:');
  const { v } = db.prepare('select sqlite_version() as v').get();
  console.log('better-sqlite3 ' + require('better-sqlite3/package.json').version + ' (SQLite ' + v + ') loads on Node ' + process.version + ', ABI ' + process.versions.modules);
"

started=$SECONDS
env -u DATABASE_URL -u TEST_BASE_DATABASE_URL npm test -- "$@"
echo "npm test on Node $version took $((SECONDS - started)) s"

echo "Runtime stage without Docker: npm run build, dev dependencies pruned, dist/src/main.js on Node $version"
started=$SECONDS
# The same steps as docker/Dockerfile's build stage
npm run build --silent
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
