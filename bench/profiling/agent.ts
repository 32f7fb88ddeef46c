/**
 * Loaded into the built service with `node --require dist/bench/profiling/agent.js` by
 * `npm run bench -- --profile <dir>` (never in production, no change to the service): listens on
 * the IPC channel the bench opens and, on request, starts/stops a V8 CPU profile (the sampler that
 * `node --cpu-prof` uses, but per scenario), writes a heap snapshot, or writes a memory report
 * (process.memoryUsage, V8 heap spaces, /proc/self/smaps by mapping, loaded modules by package).
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { getHeapCodeStatistics, getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';

interface Command {
  id: number;
  cmd: 'cpu-start' | 'cpu-stop' | 'heap' | 'memory';
  file?: string;
  /** sampling interval in microseconds (cpu-start) */
  interval?: number;
}

const session = new Session();
session.connect();

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
    const key = match ? match[1] : file.includes('/dist/src/') ? '(app) dist/src' : file.includes('/dist/bench/') ? '(bench agent)' : '(other)';
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
