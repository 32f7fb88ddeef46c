import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** The built service (`npm run build`); the multi-instance suite runs it as separate processes. */
export const BUILT_MAIN = join(__dirname, '..', '..', 'dist', 'src', 'main.js');

export interface LogRecord {
  level: number;
  msg?: string;
  context?: string;
  [key: string]: unknown;
}

/** pino's level numbers: error and fatal. */
const ERROR_LEVEL = 50;

const running = new Set<ServiceProcess>();
// However the test run ends (a failed assertion, a crash of the runner), no instance outlives it.
process.once('exit', () => {
  for (const service of running) service.child.kill('SIGKILL');
});

/** A free TCP port on the loopback interface (closed again; the service binds it right after). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * One instance of the service in its own OS process (`node dist/src/main.js`), so that a SIGKILL
 * is real. Its stdout (pino JSON lines) and stderr are kept for assertions.
 */
export class ServiceProcess {
  readonly child: ChildProcess;
  readonly url: string;
  readonly stdout: string[] = [];
  readonly stderr: string[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;

  private constructor(
    readonly name: string,
    readonly port: number,
    env: Record<string, string>,
    main: string,
  ) {
    this.url = `http://127.0.0.1:${port}`;
    this.child = spawn(process.execPath, [main], {
      env: { PATH: process.env.PATH ?? '', TZ: 'UTC', NODE_ENV: 'production', ...env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(this);
    collectLines(this.child.stdout!, this.stdout);
    collectLines(this.child.stderr!, this.stderr);
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        running.delete(this);
        this.exit = { code, signal };
        resolve(this.exit);
      });
    });
  }

  /**
   * Starts an instance on a free port (or on `port`: a restart where the last one listened);
   * `ready()` waits for it to serve. `main`: another build's entry (test/support/service-build.ts).
   */
  static async start(name: string, env: Record<string, string>, main = BUILT_MAIN, port?: number): Promise<ServiceProcess> {
    if (!existsSync(main)) throw new Error(`${main} is missing: build first (npm run test:multi builds)`);
    return new ServiceProcess(name, port ?? (await freePort()), env, main);
  }

  get alive(): boolean {
    return this.exit === null;
  }

  /** Resolves once GET /readyz answers 200; throws (with the instance's output) if it exits or takes too long. */
  async ready(timeoutMs = 90_000): Promise<this> {
    const giveUpAt = Date.now() + timeoutMs;
    while (Date.now() < giveUpAt) {
      if (!this.alive) throw new Error(`${this.name} exited (${JSON.stringify(this.exit)}) before it was ready:\n${this.output()}`);
      try {
        const res = await fetch(`${this.url}/readyz`);
        if (res.status === 200) return this;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`${this.name} was not ready after ${timeoutMs} ms:\n${this.output()}`);
  }

  /** The JSON log records of stdout (non-JSON lines, such as the start banner, are skipped). */
  records(): LogRecord[] {
    return this.stdout.flatMap((line) => {
      try {
        const record = JSON.parse(line) as unknown;
        return record && typeof record === 'object' && typeof (record as LogRecord).level === 'number' ? [record as LogRecord] : [];
      } catch {
        return [];
      }
    });
  }

  /** Error-level log records plus anything written to stderr. */
  errors(): string[] {
    return [...this.records().filter((record) => record.level >= ERROR_LEVEL).map((record) => JSON.stringify(record)), ...this.stderr];
  }

  output(): string {
    return [...this.stdout, ...this.stderr.map((line) => `stderr: ${line}`)].slice(-60).join('\n');
  }

  kill(signal: NodeJS.Signals): void {
    if (this.alive) this.child.kill(signal);
  }

  /** SIGTERM (a graceful shutdown), then SIGKILL if it has not exited after `graceMs`. */
  async stop(graceMs = 10_000): Promise<void> {
    if (!this.alive) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}

/** Stops every instance still running (afterAll; also on a failed test). */
export async function stopAllServices(): Promise<void> {
  await Promise.all([...running].map((service) => service.stop()));
}

function collectLines(stream: NodeJS.ReadableStream, into: string[]): void {
  let partial = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) into.push(line);
  });
  stream.on('end', () => {
    if (partial.trim()) into.push(partial);
  });
}
