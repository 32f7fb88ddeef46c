// The Redis of `npm test` (jest globalSetup/globalTeardown of the e2e project: test/global-setup.js).
// Tests read REDIS_URL (default redis://127.0.0.1:6379). When nothing answers there, the suite
// starts a redis-server of its own on a free local port, without persistence, and hands its URL to
// the test workers through REDIS_URL; without a redis-server binary it stops at once with one line
// saying what to install or start.
const { spawn, spawnSync } = require('node:child_process');
const { mkdtempSync, rmSync } = require('node:fs');
const { createServer } = require('node:net');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { Redis } = require('ioredis');

const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
const START_TIMEOUT_MS = 5000;

/** Whether a Redis answers PING at `url` within a second or so. */
async function answers(url) {
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function installed(binary) {
  const probe = spawnSync(binary, ['--version'], { stdio: 'ignore' });
  return !probe.error;
}

/** A failure Jest prints as the one line it is (no stack). */
function stop(message) {
  const error = new Error(message);
  error.stack = message;
  return error;
}

/** Starts redis-server on a free port; resolves to { url, child, dir } once it answers PING. */
async function startRedisServer() {
  const dir = mkdtempSync(join(tmpdir(), 'checkout-test-redis-'));
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const url = `redis://127.0.0.1:${port}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    if (await answers(url)) {
      // Running, it must not keep Jest's process alive; the teardown stops it.
      child.unref();
      child.stderr.unref();
      return { url, child, dir };
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
  throw stop(`npm test: the redis-server it started on port ${port} did not answer within ${START_TIMEOUT_MS / 1000} s${stderr ? `: ${stderr.trim().split('\n').pop()}` : ''}`);
}

async function setUp() {
  const url = process.env.REDIS_URL || DEFAULT_REDIS_URL;
  if (await answers(url)) return;
  if (!installed('redis-server')) {
    throw stop(
      `npm test needs Redis: nothing answers at ${url} and no redis-server is installed. ` +
        'Install it (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis) so the suite can start its own, or start a Redis and set REDIS_URL.',
    );
  }
  const started = await startRedisServer();
  // Inherited by the test workers, which Jest starts after the global setup.
  process.env.REDIS_URL = started.url;
  globalThis.__CHECKOUT_TEST_REDIS__ = started;
  // A run that ends without the teardown (an interrupted one) still stops it.
  process.on('exit', () => started.child.kill('SIGKILL'));
  process.stderr.write(`\nNo Redis at ${url}: started redis-server for this run at ${started.url}\n`);
}

async function tearDown() {
  const started = globalThis.__CHECKOUT_TEST_REDIS__;
  if (!started) return;
  globalThis.__CHECKOUT_TEST_REDIS__ = undefined;
  if (started.child.exitCode === null) {
    let timer;
    const exited = new Promise((resolve) => started.child.once('exit', resolve));
    started.child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, 3000)))]);
    clearTimeout(timer);
    if (started.child.exitCode === null) started.child.kill('SIGKILL');
  }
  rmSync(started.dir, { recursive: true, force: true });
}

module.exports = { setUp, tearDown, DEFAULT_REDIS_URL };
