/**
 * Child processes of the bench (the built service and the two baselines): spawn, wait for
 * readiness, read their memory and CPU time from /proc, stop them.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';

export interface Target {
  name: string;
  port: number;
  child: ChildProcess;
  /** milliseconds from spawn to the first 200 of the readiness path */
  readyMs: number;
}

export interface SpawnOptions {
  name: string;
  /** node arguments: flags and the script */
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** GET path that answers 200 once the process is ready */
  readyPath: string;
  /** file that receives stdout and stderr; `/dev/null` drops them */
  logFile: string;
  /** open an IPC channel (the profiling agent listens on it) */
  ipc?: boolean;
  timeoutMs?: number;
}

export async function startTarget(options: SpawnOptions): Promise<Target> {
  const port = await freePort();
  const log = openSync(options.logFile, 'a');
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, options.args, {
    cwd: options.cwd,
    env: { ...options.env, PORT: String(port) },
    stdio: options.ipc ? ['ignore', log, log, 'ipc'] : ['ignore', log, log],
  });
  closeSync(log);
  let exited: string | undefined;
  child.once('exit', (code, signal) => {
    exited = `exited with ${signal ?? code}`;
  });
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    if (exited) throw new Error(`${options.name} ${exited} before it was ready (log: ${options.logFile})`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${options.name} was not ready after ${options.timeoutMs ?? 30_000} ms (log: ${options.logFile})`);
    }
    if ((await getStatus(port, options.readyPath)) === 200) break;
    await sleep(10);
  }
  const readyMs = Number(process.hrtime.bigint() - started) / 1e6;
  return { name: options.name, port, child, readyMs };
}

export async function stopTarget(target: Target | undefined): Promise<void> {
  if (!target || target.child.exitCode !== null || target.child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => target.child.once('exit', () => resolve()));
  target.child.kill('SIGTERM');
  const timer = setTimeout(() => target.child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** One GET over a fresh connection; 0 when nothing answers. */
export function getStatus(port: number, path: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET', agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.setTimeout(2_000, () => req.destroy());
    req.end();
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export interface Memory {
  /** resident set, MiB */
  rssMb: number;
  /** peak resident set since start, MiB */
  peakMb: number;
}

/**
 * Resident memory by kind, MiB, from /proc/PID/smaps: `brk` is the malloc heap (`[heap]`: native
 * allocations of Node, SQLite, the addons), `anon` the anonymous mappings (V8's heap pages and
 * large mallocs), `file` everything mapped from files (the node binary, libraries, addons).
 */
export function residentByKind(pid: number): { brk: number; anon: number; file: number } {
  const out = { brk: 0, anon: 0, file: 0 };
  let kind: keyof typeof out = 'anon';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) {
      const name = header[1];
      kind = name === '[heap]' ? 'brk' : name.startsWith('/') ? 'file' : 'anon';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) out[kind] += Number(rss[1]) / 1024;
  }
  return out;
}

export function memoryOf(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

const CLOCK_TICKS = 100; // USER_HZ on Linux

/** CPU seconds (user + system) a process has used so far. */
export function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // fields after the parenthesised command name; utime and stime are fields 14 and 15
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** Busy and total CPU seconds of the whole machine (all cores) so far. */
export function machineCpuSeconds(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
  const busy = user + nice + system + irq + softirq + (steal ?? 0);
  return { busy: busy / CLOCK_TICKS, total: (busy + idle + iowait) / CLOCK_TICKS };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export interface IdleRss {
  /** RSS when the watch ended, MiB */
  rssMb: number;
  /** seconds from the start of the watch to the last change of more than 1 MiB */
  settledAfterS: number;
  /** whether the watch saw RSS fall by a tenth or more (V8's memory reducer ran) */
  released: boolean;
}

/**
 * RSS of an idle process until it stops falling. V8 does not return the young generation and the
 * old space's garbage right after a burst of allocation (a boot, a load): its memory reducer does,
 * with memory-reducing GCs that start `--gc-memory-reducer-start-delay-ms` (8 s) after the last
 * mark-compact once the allocation rate is low; seen here 15–25 s after ready. The watch ends once
 * RSS has fallen by a tenth and held for `holdS`, or after `maxS`.
 */
export async function watchIdleRss(pid: number, maxS: number, holdS = 4): Promise<IdleRss> {
  const start = memoryOf(pid).rssMb;
  let last = start;
  let lastChange = 0;
  const started = Date.now();
  for (;;) {
    const elapsed = (Date.now() - started) / 1000;
    const rss = memoryOf(pid).rssMb;
    if (Math.abs(rss - last) > 1) {
      last = rss;
      lastChange = elapsed;
    }
    const released = last <= start * 0.9;
    if ((released && elapsed - lastChange >= holdS) || elapsed >= maxS) return { rssMb: rss, settledAfterS: lastChange, released };
    await sleep(500);
  }
}
