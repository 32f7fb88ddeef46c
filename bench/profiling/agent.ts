/**
 * Loaded into the built service with `node --require dist/bench/profiling/agent.js` by
 * `npm run bench -- --profile <dir>` (never in production, no change to the service): listens on
 * the IPC channel the bench opens and, on request, starts/stops a V8 CPU profile (the sampler that
 * `node --cpu-prof` uses, but per scenario), writes a heap snapshot, or writes a memory report
 * (process.memoryUsage, V8 heap spaces, /proc/self/smaps by mapping, loaded modules by package),
 * or counts the SQL statements the database driver executes (better-sqlite3 or mysql2, whichever
 * the service has loaded), by statement text.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { getHeapCodeStatistics, getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';

interface Command {
  id: number;
  cmd: 'cpu-start' | 'cpu-stop' | 'heap' | 'memory' | 'queries-start' | 'queries-stop';
  file?: string;
  /** sampling interval in microseconds (cpu-start) */
  interval?: number;
}

const session = new Session();
session.connect();

// BENCH_PROFILE_BOOT=1: profile from here (before the service's first require) until the bench
// sends cpu-stop once the service is ready: where start-to-ready goes.
if (process.env.BENCH_PROFILE_BOOT === '1') {
  session.post('Profiler.enable', () => session.post('Profiler.setSamplingInterval', { interval: 500 }, () => session.post('Profiler.start')));
}

function post<T = unknown>(method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) => session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result as T))));
}

async function handle(command: Command): Promise<void> {
  switch (command.cmd) {
    case 'cpu-start':
      await post('Profiler.enable');
      await post('Profiler.setSamplingInterval', { interval: command.interval ?? 1000 });
      await post('Profiler.start');
      return;
    case 'cpu-stop': {
      const { profile } = await post<{ profile: unknown }>('Profiler.stop');
      writeFileSync(command.file!, JSON.stringify(profile));
      return;
    }
    case 'heap':
      writeHeapSnapshot(command.file);
      return;
    case 'memory':
      writeFileSync(command.file!, JSON.stringify(memoryReport(), null, 1));
      return;
    case 'queries-start':
      patchDrivers();
      statements.clear();
      return;
    case 'queries-stop':
      writeFileSync(command.file!, JSON.stringify(Object.fromEntries([...statements].sort((a, b) => b[1] - a[1])), null, 1));
      return;
  }
}

const statements = new Map<string, number>();
let driversPatched = false;

function countStatement(sql: unknown): void {
  const text = typeof sql === 'string' ? sql : typeof (sql as { sql?: unknown })?.sql === 'string' ? (sql as { sql: string }).sql : String(sql);
  const key = text.replace(/\s+/g, ' ').trim();
  statements.set(key, (statements.get(key) ?? 0) + 1);
}

type Method = (this: unknown, ...args: unknown[]) => unknown;

function wrap(owner: Record<string, unknown>, name: string, sqlOf: (self: unknown, args: unknown[]) => unknown): void {
  const original = owner[name] as Method;
  owner[name] = function (this: unknown, ...args: unknown[]) {
    countStatement(sqlOf(this, args));
    return original.apply(this, args);
  };
}

/** Wraps the statement methods of the drivers the service has loaded (never loads one itself). */
function patchDrivers(): void {
  if (driversPatched) return;
  driversPatched = true;
  for (const [file, module] of Object.entries(require.cache)) {
    if (/node_modules\/better-sqlite3\/lib\/index\.js$/.test(file)) {
      const Database = module!.exports as new (path: string) => { prepare(sql: string): object; close(): void };
      const db = new Database(':memory:');
      const statement = Object.getPrototypeOf(db.prepare('select 1')) as Record<string, unknown>;
      db.close();
      for (const name of ['run', 'get', 'all', 'iterate']) wrap(statement, name, (self) => (self as { source: string }).source);
    }
    if (/node_modules\/mysql2\/index\.js$/.test(file)) {
      let proto = (module!.exports as { Connection: { prototype: object } }).Connection.prototype;
      while (proto && !Object.prototype.hasOwnProperty.call(proto, 'query')) proto = Object.getPrototypeOf(proto) as object;
      for (const name of ['query', 'execute']) {
        const owner = Object.prototype.hasOwnProperty.call(proto, name) ? proto : (module!.exports as { Connection: { prototype: object } }).Connection.prototype;
        wrap(owner as Record<string, unknown>, name, (_self, args) => args[0]);
      }
    }
  }
}

function memoryReport(): unknown {
  return {
    memoryUsage: process.memoryUsage(),
    heapSpaces: getHeapSpaceStatistics(),
    code: getHeapCodeStatistics(),
    smaps: smapsByMapping(),
    modules: modulesByPackage(),
  };
}

/** Resident kB per mapped file (or [heap], [anon], [stack]...), from /proc/self/smaps. */
function smapsByMapping(): Record<string, number> {
  const totals: Record<string, number> = {};
  let current = '[anon]';
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) {
      current = header[1] || '[anon]';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) totals[current] = (totals[current] ?? 0) + Number(rss[1]);
  }
  return totals;
}

/** Loaded CommonJS modules grouped by npm package (or the app's own dist files): count and source bytes. */
function modulesByPackage(): Record<string, { files: number; bytes: number }> {
  const groups: Record<string, { files: number; bytes: number }> = {};
  for (const file of Object.keys(require.cache)) {
    const match = /.*node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file);
    let key = match ? match[1] : file.includes('/dist/src/') ? '(app) dist/src' : file.includes('/dist/bench/') ? '(bench agent)' : '(other)';
    if (file.endsWith('.node')) key = `${key} (native addon)`;
    let bytes = 0;
    try {
      bytes = statSync(file).size;
    } catch {
      // a module without a file (JSON inlined, deleted file): count it with 0 bytes
    }
    const group = (groups[key] ??= { files: 0, bytes: 0 });
    group.files += 1;
    group.bytes += bytes;
  }
  return groups;
}

process.on('message', (message: Command) => {
  handle(message).then(
    () => process.send?.({ id: message.id, ok: true }),
    (error: unknown) => process.send?.({ id: message.id, ok: false, error: String(error) }),
  );
});
