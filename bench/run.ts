/**
 * `npm run bench`: starts the built service (dist/src/main.js) as a child process on a temporary
 * SQLite file and measures latency and throughput of representative routes over loopback, and the
 * server's resident memory. Targets live in bench/targets.json; the run exits non-zero when one is
 * missed. Never part of `npm test` (timing is not a test).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scenarios, type Scenario } from './scenarios.js';

interface Target {
  p95_ms: number;
  min_rps: number;
}

const DURATION_MS = Number(process.env.BENCH_SECONDS ?? 5) * 1000;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);

const ROOT = join(__dirname, '..', '..');
const ADMIN_PASSWORD = 'bench-admin-application-password';

async function main(): Promise<void> {
  const port = await freePort();
  const server = startServer(port);
  try {
    await waitUntilReady(port);
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const targets = JSON.parse(readFileSync(join(ROOT, 'bench', 'targets.json'), 'utf8')) as Record<string, Target> & { rss_mb?: number };
    const context = { port, agent, auth: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}` };
    let failed = false;
    console.log(`duration ${DURATION_MS / 1000}s per scenario, concurrency ${CONCURRENCY}`);
    for (const scenario of scenarios) {
      const prepared = await scenario.prepare(context);
      const result = await measure(scenario, prepared, port, agent);
      const target = targets[scenario.name];
      const ok = !target || (result.p95 <= target.p95_ms && result.rps >= target.min_rps && result.errors === 0);
      failed ||= !ok;
      console.log(
        `${ok ? 'ok  ' : 'MISS'} ${scenario.name.padEnd(32)} ${result.rps.toFixed(0).padStart(6)} req/s  p50 ${result.p50.toFixed(1)} ms  p95 ${result.p95.toFixed(1)} ms  errors ${result.errors}` +
          (target ? `  (target p95 <= ${target.p95_ms} ms, >= ${target.min_rps} req/s)` : ''),
      );
    }
    const rssMb = residentMemoryMb(server.pid!);
    const rssOk = targets.rss_mb === undefined || rssMb <= targets.rss_mb;
    failed ||= !rssOk;
    console.log(`${rssOk ? 'ok  ' : 'MISS'} server resident memory after the run ${rssMb.toFixed(0)} MB (target <= ${targets.rss_mb} MB)`);
    agent.destroy();
    process.exitCode = failed ? 1 : 0;
  } finally {
    server.kill('SIGTERM');
  }
}

function startServer(port: number): ChildProcess {
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'src', 'main.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'checkout-bench-')),
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      CHECKOUT_ADMIN_PASSWORD: ADMIN_PASSWORD,
      CHECKOUT_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
      RATE_LIMIT_FAILED_LOGIN: '100000',
      RATE_LIMIT_NEW_PAYMENT: '10000000',
      RATE_LIMIT_PUBLIC_PAYMENT: '10000000',
      // No gateway here: the connect callback's webhook provisioning fails fast on a closed port.
      CHECKOUT_PROXY_URL: 'http://127.0.0.1:9',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  child.on('exit', (code) => {
    if (code) console.error(`server exited with ${code}`);
  });
  return child;
}

async function waitUntilReady(port: number): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const status = await send(port, new Agent(), { method: 'GET', path: '/readyz' }).catch(() => 0);
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the server did not become ready');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function residentMemoryMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

async function measure(scenario: Scenario, prepared: unknown, port: number, agent: Agent) {
  const latencies: number[] = [];
  let errors = 0;
  const deadline = Date.now() + DURATION_MS;
  const started = Date.now();
  const worker = async (index: number) => {
    let iteration = 0;
    while (Date.now() < deadline) {
      const spec = scenario.request(prepared, index * 1_000_000 + iteration++);
      const t0 = process.hrtime.bigint();
      const status = await send(port, agent, spec);
      latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (status !== spec.expect) errors += 1;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, (_, i) => worker(i)));
  const elapsed = (Date.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pick = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { rps: latencies.length / elapsed, p50: pick(0.5), p95: pick(0.95), errors };
}

function send(port: number, agent: Agent, spec: { method: string; path: string; headers?: Record<string, string>; body?: string }): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, agent, method: spec.method, path: spec.path, headers: spec.headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    if (spec.body) req.write(spec.body);
    req.end();
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
