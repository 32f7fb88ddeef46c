import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RawConnection, requestHead } from '../support/raw-http.js';
import { type ServiceBuild, buildServiceForTest } from '../support/service-build.js';
import { type LogRecord, ServiceProcess, stopAllServices } from '../support/service-process.js';
import { sharedDatabaseUrl } from '../support/shared-database.js';
import { TEST_ADMIN_PASSWORD, TEST_SECRET, startTestApp } from '../support/test-app.js';

/**
 * SIGTERM / SIGINT on the service as a separate process (a real signal, a real exit), with
 * connections written by hand so that each one's fate is known: the one idle, the one reused
 * after the signal, the one whose request is in flight, one opened during the drain, and a request
 * that never completes. SQLite file or the suite's MariaDB database. The rolling restart under load
 * is in the multi-instance suite (test/multi/).
 */

const STATUS_PATH = '/wp-json/checkout/v1/payment/status';

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const giveUpAt = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > giveUpAt) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const shutdownRecord = (instance: ServiceProcess, prefix: string): LogRecord | undefined =>
  instance.records().find((record) => record.context === 'Shutdown' && typeof record.msg === 'string' && record.msg.startsWith(prefix));

/** Resolves with the exit and how long after `since` it came; fails with the instance's output if it takes longer than `timeoutMs`. */
async function exitOf(instance: ServiceProcess, since: number, timeoutMs: number): Promise<{ code: number | null; signal: string | null; afterMs: number }> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${instance.name} had not exited ${timeoutMs} ms after the signal:\n${instance.output()}`)), timeoutMs);
  });
  try {
    const exit = await Promise.race([instance.exited, late]);
    return { ...exit, afterMs: Date.now() - since };
  } finally {
    clearTimeout(timer);
  }
}

describe('a shutdown signal drains the instance and exits within SHUTDOWN_TIMEOUT_SECONDS', () => {
  let build: ServiceBuild;
  const dataDirs: string[] = [];
  const connections: RawConnection[] = [];

  const start = (name: string, env: Record<string, string>) => {
    const dataDir = mkdtempSync(join(tmpdir(), `checkout-shutdown-${name}-`));
    dataDirs.push(dataDir);
    return ServiceProcess.start(
      name,
      {
        DATABASE_URL: sharedDatabaseUrl(),
        CHECKOUT_SECRET: TEST_SECRET,
        CHECKOUT_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
        PUBLIC_BASE_URL: 'http://checkout.test',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
        ...env,
      },
      build.main,
    ).then((instance) => instance.ready());
  };
  const open = async (instance: ServiceProcess) => {
    const connection = await RawConnection.open(instance.port);
    connections.push(connection);
    return connection;
  };

  beforeAll(async () => {
    build = buildServiceForTest();
    // On MariaDB the worker's database holds what the previous test file left there (e.g. another
    // CHECKOUT_SECRET's canary, which would stop these instances): a test app empties it first.
    if (/^(mysql|mariadb):/.test(process.env.DATABASE_URL ?? '')) await (await startTestApp({ DATABASE_URL: sharedDatabaseUrl() })).close();
  });

  afterAll(async () => {
    for (const connection of connections) connection.close();
    await stopAllServices();
    build?.remove();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it('SIGTERM: /readyz is 503 at once, each answer closes its connection, the idle one closes with the listener, exit 0, a log line at each end', async () => {
    // The reconciliation sweep runs every second: it has to stop as well.
    const instance = await start('drain', { SHUTDOWN_DRAIN_SECONDS: '2', SHUTDOWN_TIMEOUT_SECONDS: '15', RECONCILE_INTERVAL_SECONDS: '1' });
    const idle = await open(instance);
    const reused = await open(instance);
    const inFlight = await open(instance);
    for (const connection of [idle, reused]) {
      connection.request('GET', '/healthz');
      expect(await connection.answer()).toMatchObject({ status: 200, headers: { connection: 'keep-alive' } });
    }
    // A request whose body is half sent: in flight when the signal comes.
    const body = JSON.stringify({ payment_id: 1, payment_secret: 'not-the-secret', checkout_token: 'x' });
    inFlight.write(requestHead('POST', STATUS_PATH, Buffer.byteLength(body)) + body.slice(0, 10));
    reused.request('GET', '/healthz'); // one more round trip: the head above has been read by now
    expect((await reused.answer()).status).toBe(200);

    const signalledAt = Date.now();
    instance.kill('SIGTERM');
    const started = await until('the shutdown start line', () => shutdownRecord(instance, 'Shutting down on SIGTERM'));
    expect(started).toMatchObject({ signal: 'SIGTERM', requests_in_flight: 1, drain_seconds: 2, timeout_seconds: 15 });
    expect(started.open_connections).toBeGreaterThanOrEqual(3);

    // A keep-alive connection reused after the signal: readiness is 503, and the answer closes it.
    reused.request('GET', '/readyz');
    const readiness = await reused.answer();
    expect(readiness.status).toBe(503);
    expect(readiness.headers.connection).toBe('close');
    expect(JSON.parse(readiness.body)).toEqual({ code: 'checkout_unavailable', message: 'Not ready: shutting down.', data: { status: 503, shutting_down: true } });
    await reused.closed;
    expect(reused.closedBy).toBe('end');

    // During the drain the listener still accepts (a balancer may not have seen the 503 yet).
    const late = await open(instance);
    late.request('GET', '/healthz');
    expect(await late.answer()).toMatchObject({ status: 200, headers: { connection: 'close' } });
    await late.closed;

    // The request in flight gets its answer, with Connection: close, then its connection ends.
    inFlight.write(body.slice(10));
    const answered = await inFlight.answer();
    expect(answered.status).toBeGreaterThanOrEqual(400);
    expect(answered.status).toBeLessThan(500);
    expect(answered.headers.connection).toBe('close');
    await inFlight.closed;
    expect(inFlight.closedBy).toBe('end');

    // The idle connection is closed by the server when the listener closes, after the drain.
    await idle.closed;
    const idleClosedAfterMs = Date.now() - signalledAt;
    expect(idle.closedBy).toBe('end');
    expect(idleClosedAfterMs).toBeGreaterThanOrEqual(1800);

    const exit = await exitOf(instance, signalledAt, 20_000);
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit.afterMs).toBeLessThan(15_000);
    await expect(RawConnection.open(instance.port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });

    const done = shutdownRecord(instance, 'Shutdown complete');
    expect(done).toMatchObject({ signal: 'SIGTERM', closed_forcibly: 0 });
    expect(done?.duration_ms).toBeGreaterThanOrEqual(2000);
    expect(done?.duration_ms).toBeLessThan(15_000);
    expect(done?.connections_closed).toBeGreaterThanOrEqual(4);
    expect(done?.requests_answered).toBeGreaterThanOrEqual(3);
    // The 503s of /readyz are routine while draining: no error line.
    expect(instance.errors()).toEqual([]);
  });

  it('a request that never completes does not hold the exit: its connection is closed forcibly before the timeout, and the log says so', async () => {
    const instance = await start('hung', { SHUTDOWN_DRAIN_SECONDS: '0', SHUTDOWN_TIMEOUT_SECONDS: '2', RECONCILE_INTERVAL_SECONDS: '0' });
    const hung = await open(instance);
    hung.write(requestHead('POST', STATUS_PATH, 100) + '{"payment_');
    const other = await open(instance);
    other.request('GET', '/healthz');
    expect((await other.answer()).status).toBe(200);

    const signalledAt = Date.now();
    instance.kill('SIGTERM');
    const exit = await exitOf(instance, signalledAt, 10_000);
    expect(exit).toMatchObject({ code: 0, signal: null });
    // The 2 s, plus the time a loaded machine takes to deliver the signal and end the process.
    expect(exit.afterMs).toBeLessThan(3500);
    await expect(hung.answer()).rejects.toThrow(/connection closed/);

    const forced = instance.records().find((record) => record.context === 'Shutdown' && record.closed_forcibly === 1 && record.level === 40);
    expect(forced?.msg).toMatch(/^1 connection\(s\) still had a request in flight .* closed forcibly, without their answer$/);
    const done = shutdownRecord(instance, 'Shutdown complete');
    expect(done).toMatchObject({ closed_forcibly: 1 });
    expect(done?.duration_ms).toBeLessThanOrEqual(2000);
  });

  it('SIGINT (a person at a terminal) skips the drain', async () => {
    const instance = await start('interrupt', { SHUTDOWN_DRAIN_SECONDS: '10', SHUTDOWN_TIMEOUT_SECONDS: '20' });
    const signalledAt = Date.now();
    instance.kill('SIGINT');
    const exit = await exitOf(instance, signalledAt, 20_000);
    expect(exit).toMatchObject({ code: 0 });
    expect(exit.afterMs).toBeLessThan(8000);
    expect(shutdownRecord(instance, 'Shutting down on SIGINT')).toMatchObject({ drain_seconds: 0 });
    expect(shutdownRecord(instance, 'Shutdown complete')).toMatchObject({ signal: 'SIGINT', closed_forcibly: 0 });
  });
});
