/**
 * `npm run bench [-- options]`: builds, then starts in the same run the built service
 * (dist/src/main.js, defaults except a fresh DATA_DIR or t_bench database, a port, raised public
 * payment limits and the admin password), a bare `node:http` server and a bare NestJS-on-Express
 * app, loads each with wrk or autocannon, and prints req/s, p50, p99, errors, the ratio to the bare
 * Nest route, CPU per request, start-to-ready time and RSS; writes the table into
 * docs/benchmarks.md. Never part of `npm test`. Options: bench/README.md or `--help`.
 */
import { type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, hostname, loadavg, release, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type LoadPlan, type LoadResult, runLoad, type Tool, wrkAvailable } from './load.js';
import { cpuSecondsOf, machineCpuSeconds, memoryOf, residentByKind, sleep, startTarget, stopTarget, type Target, watchIdleRss } from './processes.js';
import { type BenchReport, type Check, type Db, evaluate, printReport, type Row, type RunResult, type Targets, writeDocs } from './report.js';
import { ADMIN_PASSWORD, type Fixture, prepareFixture, probe, type Scenario, SCENARIOS } from './scenarios.js';

const ROOT = join(__dirname, '..', '..');
const DIST = join(ROOT, 'dist');
const DEFAULT_MYSQL_URL = 'mysql://root@127.0.0.1:3306/t_bench';

const HELP = `npm run bench -- [options]
  --duration S      seconds of load per scenario (default 5)
  --warmup S        seconds of unmeasured load before each scenario (default 1)
  --connections N   concurrent connections (default 16)
  --scenario LIST   comma-separated: ${SCENARIOS.map((s) => s.id).join(',')} (default all; baselines always run)
  --db DB           sqlite | mysql | both (default sqlite; mysql uses DATABASE_URL or ${DEFAULT_MYSQL_URL})
  --runs N          consecutive runs against the same service process; checks RSS does not grow (default 1)
  --tool T          wrk | autocannon (default wrk when it is on PATH, else autocannon)
  --settle S        seconds idle after ready before the first idle RSS reading (default 3)
  --idle-watch S    then watch the idle RSS for up to S seconds until V8's memory reducer has run
                    and RSS holds (default 40; 0 = no watch); the idle target is judged on it
  --logs WHERE      file | null: where the service's info logs go (default file, in the run's temp dir)
  --no-docs         do not write docs/benchmarks.md (never written with --profile, --env, --node-arg or --variant)
  --check           exit 1 when a target of bench/targets.json is missed (otherwise always 0)
  --profile DIR     CPU profile of the boot and of each scenario, SQL statements per scenario, heap
                    snapshots and memory reports of the service into DIR (loads bench/profiling/agent.js;
                    numbers include profiler overhead, docs not written); then
                    node dist/bench/profiling/analyze.js DIR
  --memory-only     with --profile: only the memory reports and heap snapshots (no CPU profiles,
                    no statement counting), so the RSS after the run is the service's own
  --env KEY=VALUE   extra environment for the service, repeatable, applied after the bench's own
                    (what-if experiments, e.g. --env LOG_LEVEL=warn; shown in the report)
  --variant KEY=VALUE, --variant-node-arg FLAG, --variant-build DIR
                    also start a second instance of the service with these overrides and measure
                    each scenario on it right after the default one (A/B in one run; rows marked
                    [variant]; on MariaDB it gets its own <database>_variant); --variant-build
                    runs another checkout's built dist/ as the variant (e.g. main, to measure a
                    branch against it in one run: the machine's load then hits both alike)
  --size            the admin reads at size against a database npm run bench:seed filled (bench/size.ts;
                    its options: --size --help)
  --node-arg FLAG   extra node flag for the service, repeatable (e.g. --node-arg=--cpu-prof
                    --node-arg=--cpu-prof-dir=/tmp/prof for one whole-process profile, written at exit)`;

interface Options {
  durationS: number;
  warmupS: number;
  connections: number;
  scenarios: Scenario[];
  dbs: Db[];
  runs: number;
  tool: Tool;
  settleS: number;
  idleWatchS: number;
  logs: 'file' | 'null';
  docs: boolean;
  check: boolean;
  profileDir?: string;
  memoryOnly: boolean;
  nodeArgs: string[];
  serviceEnv: Record<string, string>;
  /** `build`: another checkout's root whose `dist/` the variant runs (a branch against main, one run) */
  variant?: { env: Record<string, string>; nodeArgs: string[]; build?: string };
}

function options(): Options {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '5' },
      warmup: { type: 'string', default: '1' },
      connections: { type: 'string', default: '16' },
      scenario: { type: 'string' },
      db: { type: 'string', default: 'sqlite' },
      runs: { type: 'string', default: '1' },
      tool: { type: 'string' },
      settle: { type: 'string', default: '3' },
      'idle-watch': { type: 'string', default: '40' },
      logs: { type: 'string', default: 'file' },
      'no-docs': { type: 'boolean', default: false },
      check: { type: 'boolean', default: false },
      profile: { type: 'string' },
      'memory-only': { type: 'boolean', default: false },
      'node-arg': { type: 'string', multiple: true },
      env: { type: 'string', multiple: true },
      variant: { type: 'string', multiple: true },
      'variant-node-arg': { type: 'string', multiple: true },
      'variant-build': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(HELP);
    process.exit(0);
  }
  const number = (name: string, raw: string, min: number) => {
    const value = Number(raw);
    if (!Number.isFinite(value) || value < min) throw new Error(`--${name} must be a number >= ${min}`);
    return value;
  };
  const ids = values.scenario?.split(',').map((id) => id.trim()).filter(Boolean);
  const unknown = ids?.filter((id) => !SCENARIOS.some((s) => s.id === id)) ?? [];
  if (unknown.length > 0) throw new Error(`unknown scenario ${unknown.join(', ')}; known: ${SCENARIOS.map((s) => s.id).join(', ')}`);
  if (!['sqlite', 'mysql', 'both'].includes(values.db!)) throw new Error('--db must be sqlite, mysql or both');
  if (values.tool !== undefined && values.tool !== 'wrk' && values.tool !== 'autocannon') throw new Error('--tool must be wrk or autocannon');
  if (values.tool === 'wrk' && !wrkAvailable()) throw new Error('--tool wrk: wrk is not on PATH (Debian: apt-get install wrk)');
  if (values.logs !== 'file' && values.logs !== 'null') throw new Error('--logs must be file or null');
  return {
    durationS: number('duration', values.duration!, 1),
    warmupS: number('warmup', values.warmup!, 0),
    connections: number('connections', values.connections!, 1),
    scenarios: ids ? SCENARIOS.filter((s) => ids.includes(s.id)) : SCENARIOS,
    dbs: values.db === 'both' ? ['sqlite', 'mysql'] : [values.db as Db],
    runs: number('runs', values.runs!, 1),
    tool: (values.tool as Tool | undefined) ?? (wrkAvailable() ? 'wrk' : 'autocannon'),
    settleS: number('settle', values.settle!, 0),
    idleWatchS: number('idle-watch', values['idle-watch']!, 0),
    logs: values.logs as 'file' | 'null',
    // profiled and what-if runs never replace the defaults' table
    docs: !values['no-docs'] && values.profile === undefined && values.env === undefined && values['node-arg'] === undefined && values.variant === undefined && values['variant-node-arg'] === undefined && values['variant-build'] === undefined,
    check: values.check!,
    profileDir: values.profile,
    memoryOnly: values['memory-only']!,
    nodeArgs: values['node-arg'] ?? [],
    serviceEnv: envPairs('env', values.env),
    variant:
      values.variant || values['variant-node-arg'] || values['variant-build']
        ? { env: envPairs('variant', values.variant), nodeArgs: values['variant-node-arg'] ?? [], build: variantBuild(values['variant-build']) }
        : undefined,
  };
}

/** The root of another checkout with a built `dist/src/main.js`, resolved; undefined when not given. */
function variantBuild(dir: string | undefined): string | undefined {
  if (dir === undefined) return undefined;
  const root = resolve(dir);
  if (!existsSync(join(root, 'dist', 'src', 'main.js'))) throw new Error(`--variant-build ${dir}: no dist/src/main.js there (run npm run build in it)`);
  return root;
}

function envPairs(flag: string, pairs: string[] | undefined): Record<string, string> {
  return Object.fromEntries(
    (pairs ?? []).map((pair) => {
      const eq = pair.indexOf('=');
      if (eq <= 0) throw new Error(`--${flag} ${pair}: expected KEY=VALUE`);
      return [pair.slice(0, eq), pair.slice(eq + 1)];
    }),
  );
}

/** Talks to bench/profiling/agent.ts inside the service over the IPC channel. */
class Agent {
  private next = 1;
  constructor(private readonly child: ChildProcess) {}

  send(cmd: string, extra: Record<string, unknown> = {}): Promise<void> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      const onMessage = (message: { id: number; ok: boolean; error?: string }) => {
        if (message.id !== id) return;
        this.child.off('message', onMessage);
        if (message.ok) resolve();
        else reject(new Error(`profiling agent: ${message.error}`));
      };
      this.child.on('message', onMessage);
      this.child.send({ id, cmd, ...extra });
    });
  }
}

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

async function recreateMysqlDatabase(url: string): Promise<void> {
  const parsed = new URL(url.replace(/^mariadb:/, 'mysql:'));
  const database = parsed.pathname.replace(/^\//, '');
  if (!/^t_bench\w*$/.test(database)) {
    log(`database ${database} is not a t_bench* database: used as it is (not recreated)`);
    return;
  }
  const mysql = await import('mysql2/promise');
  const connection = await mysql.createConnection({
    host: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : 3306,
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
  });
  try {
    await connection.query(`DROP DATABASE IF EXISTS \`${database}\``);
    await connection.query(`CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  } finally {
    await connection.end();
  }
}

interface Measured {
  load: LoadResult;
  cpuUsPerRequest: number;
  serverCores: number;
  otherCores: number;
}

async function measure(opts: Options, target: Target, plan: () => LoadPlan, workDir: string, around?: { before(): Promise<void>; after(): Promise<void> }): Promise<Measured> {
  if (opts.warmupS > 0) await runLoad(opts.tool, plan(), opts.warmupS, opts.connections, workDir);
  const pid = target.child.pid!;
  await around?.before();
  const cpu0 = cpuSecondsOf(pid);
  const machine0 = machineCpuSeconds();
  const wall0 = process.hrtime.bigint();
  const load = await runLoad(opts.tool, plan(), opts.durationS, opts.connections, workDir);
  const wall = Number(process.hrtime.bigint() - wall0) / 1e9;
  const machine1 = machineCpuSeconds();
  const server = cpuSecondsOf(pid) - cpu0;
  await around?.after();
  return {
    load,
    cpuUsPerRequest: load.requests > 0 ? (server / load.requests) * 1e6 : Number.NaN,
    serverCores: server / wall,
    otherCores: Math.max(0, (machine1.busy - machine0.busy - server - load.generatorCpuSeconds) / wall),
  };
}

function variantLabel(opts: Options): string {
  return [...(opts.variant?.build ? [`build ${opts.variant.build}`] : []), ...(opts.variant?.nodeArgs.map((flag) => `node ${flag}`) ?? []), ...Object.entries(opts.variant?.env ?? {}).map(([k, v]) => `${k}=${v}`)].join(' ');
}

function logRow(db: Db, run: number, row: Row): void {
  const l = row.load;
  log(
    `${db} run ${run} ${row.id.padEnd(15)} ${l.rps.toFixed(0).padStart(6)} req/s  p50 ${l.p50Ms.toFixed(2)} ms  p99 ${l.p99Ms.toFixed(2)} ms  non-2xx ${l.non2xx}  errors ${l.errors}  ${row.cpuUsPerRequest.toFixed(0)} µs CPU/req  other load ${row.otherCores.toFixed(2)} cores`,
  );
}

async function benchDb(opts: Options, db: Db, workDir: string): Promise<BenchReport> {
  const runDir = mkdtempSync(join(workDir, `${db}-`));
  const loadStart = loadavg();
  const logFile = opts.logs === 'file' ? join(runDir, 'service.log') : '/dev/null';
  const baselineEnv = { PATH: process.env.PATH, NODE_ENV: process.env.NODE_ENV };
  let bareNode: Target | undefined;
  let bareNest: Target | undefined;
  let bareNestLogged: Target | undefined;
  let bareNestMetered: Target | undefined;
  let service: Target | undefined;
  let variant: Target | undefined;
  try {
    bareNode = await startTarget({ name: 'bare node', args: [join(DIST, 'bench', 'baselines', 'bare-node.js')], env: baselineEnv, cwd: ROOT, readyPath: '/healthz', logFile: join(runDir, 'bare-node.log') });
    const profiling = opts.profileDir !== undefined;
    // CPU profiles and statement counts (not with --memory-only)
    const cpuProfiling = profiling && !opts.memoryOnly;
    const agentPath = join(DIST, 'bench', 'profiling', 'agent.js');
    bareNest = await startTarget({
      name: 'bare nest',
      args: [...(profiling ? ['--require', agentPath] : []), join(DIST, 'bench', 'baselines', 'bare-nest.js')],
      env: baselineEnv,
      cwd: ROOT,
      readyPath: '/healthz',
      logFile: join(runDir, 'bare-nest.log'),
      ipc: profiling,
    });

    // The floor of a logged route: bare Nest plus the service's request log, its lines sent where
    // the service's go (a file in the run's directory, or /dev/null with --logs null); and the same
    // plus the service's metrics: the difference is what metrics cost every request.
    const startLogged = (name: string, id: string) =>
      startTarget({
        name,
        args: [join(DIST, 'bench', 'baselines', `${id}.js`)],
        env: { ...baselineEnv, LOG_LEVEL: 'info' },
        cwd: ROOT,
        readyPath: '/healthz',
        logFile: opts.logs === 'file' ? join(runDir, `${id}.log`) : '/dev/null',
      });
    bareNestLogged = await startLogged('bare nest + request log', 'bare-nest-logged');
    bareNestMetered = await startLogged('bare nest + request log + metrics', 'bare-nest-metered');

    let databaseUrl = '';
    if (db === 'mysql') {
      databaseUrl = process.env.DATABASE_URL && /^(mysql|mariadb):/.test(process.env.DATABASE_URL) ? process.env.DATABASE_URL : DEFAULT_MYSQL_URL;
      await recreateMysqlDatabase(databaseUrl);
    }
    const startService = (name: string, dataDir: string, url: string, nodeArgs: string[], env: Record<string, string>, log: string, bootProfile = true, withAgent = profiling, root = ROOT) => {
      mkdirSync(dataDir, { recursive: true });
      return startTarget({
        name,
        args: [...nodeArgs, ...(withAgent ? ['--require', agentPath] : []), join(root, 'dist', 'src', 'main.js')],
        env: {
          ...process.env,
          ...(withAgent && bootProfile && cpuProfiling ? { BENCH_PROFILE_BOOT: '1' } : {}),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          DATABASE_URL: url,
          CHECKOUT_ADMIN_PASSWORD: ADMIN_PASSWORD,
          // The two public payment limits, raised so that the load generator's one IP is not
          // throttled, over a 1 s window: the in-memory throttler stores one expiry per hit in the
          // window and takes Math.min(...hits) on every request, so a raised limit over the default
          // 10-minute window would make the guard O(hits in 10 min) per request (and past ~120k
          // hits a RangeError): a bench artifact. In production at most `limit` (10, 60) hits are
          // kept per IP; a 1 s window keeps the bench's one IP in that order (~rate entries).
          RATE_LIMIT_NEW_PAYMENT: '100000000',
          RATE_LIMIT_NEW_PAYMENT_WINDOW_SECONDS: '1',
          RATE_LIMIT_PUBLIC_PAYMENT: '100000000',
          RATE_LIMIT_PUBLIC_PAYMENT_WINDOW_SECONDS: '1',
          // The connect callback provisions a webhook endpoint at the gateway: no gateway here, so it
          // fails fast on a closed local port instead of waiting on the default public proxy.
          CHECKOUT_PROXY_URL: 'http://127.0.0.1:9',
          LOG_LEVEL: 'info',
          ...env,
        },
        cwd: root,
        readyPath: '/readyz',
        logFile: log,
        ipc: withAgent,
      });
    };
    log(`${db}: starting the service (${opts.logs === 'file' ? `logs in ${logFile}` : 'logs to /dev/null'})`);
    // First boot on the fresh data directory or database (migrations, first admin, secret key),
    // stopped, then the restart that is measured and loaded, as a deployed service restarts.
    // With --profile the idle heap snapshot is taken here, in the first boot's process: once V8 has
    // taken a snapshot it tracks object moves for good, which slows GC and grows memory, so the
    // measured process never takes one before its load.
    const profileFile = (name: string) => join(opts.profileDir!, `${db}-${name}`);
    if (profiling) mkdirSync(opts.profileDir!, { recursive: true });
    const firstBoot = await startService('service (first boot)', join(runDir, 'data'), databaseUrl, opts.nodeArgs, opts.serviceEnv, logFile, false, profiling);
    if (profiling) {
      await sleep(opts.settleS * 1000);
      await new Agent(firstBoot.child).send('heap', { file: profileFile('idle-first-boot.heapsnapshot') });
    }
    await stopTarget(firstBoot);
    log(`${db}: first boot (fresh data, migrations) ready in ${firstBoot.readyMs.toFixed(0)} ms; restarting`);
    service = await startService('service', join(runDir, 'data'), databaseUrl, opts.nodeArgs, opts.serviceEnv, logFile);
    const agent = profiling ? new Agent(service.child) : undefined;

    const pid = service.child.pid!;
    const rssAtReady = memoryOf(pid).rssMb;
    if (agent && cpuProfiling) {
      await agent.send('cpu-stop', { file: profileFile('boot.cpuprofile') });
      writeFileSync(profileFile('boot.meta.json'), JSON.stringify({ label: `service boot (spawn to /readyz 200 in ${service.readyMs.toFixed(0)} ms)`, requests: 0 }));
    }
    await sleep(opts.settleS * 1000);
    const rssSettled = memoryOf(pid).rssMb;
    log(`${db}: ready in ${service.readyMs.toFixed(0)} ms; RSS ${rssAtReady.toFixed(0)} MB at ready, ${rssSettled.toFixed(0)} MB after ${opts.settleS} s idle`);
    const idle = opts.idleWatchS > 0 ? await watchIdleRss(pid, opts.idleWatchS) : undefined;
    if (idle) log(`${db}: idle RSS ${idle.rssMb.toFixed(0)} MB ${idle.released ? `(memory reducer ran; held from ${(opts.settleS + idle.settledAfterS).toFixed(0)} s after ready)` : `(no release within ${opts.idleWatchS} s)`}`);
    const bareIdleRss = { node: memoryOf(bareNode.child.pid!).rssMb, nest: memoryOf(bareNest.child.pid!).rssMb };
    if (agent) {
      await agent.send('memory', { file: profileFile('idle-memory.json') });
    }

    let variantFixture: Fixture | undefined;
    let variantIdleRssMb: number | undefined;
    if (opts.variant) {
      let variantUrl = '';
      if (db === 'mysql') {
        const url = new URL(databaseUrl.replace(/^mariadb:/, 'mysql:'));
        url.pathname = `${url.pathname}_variant`;
        variantUrl = url.toString();
        await recreateMysqlDatabase(variantUrl);
      }
      const variantLog = opts.logs === 'file' ? join(runDir, 'variant.log') : '/dev/null';
      // Booted as the service is: first boot on fresh data, stopped, and the restart measured, so
      // that the two idle readings compare like with like.
      const startVariant = () =>
        startService('variant', join(runDir, 'variant-data'), variantUrl, opts.variant!.nodeArgs, { ...opts.serviceEnv, ...opts.variant!.env }, variantLog, true, profiling, opts.variant!.build);
      await stopTarget(await startVariant());
      variant = await startVariant();
      log(`${db}: variant ready in ${variant.readyMs.toFixed(0)} ms, RSS ${memoryOf(variant.child.pid!).rssMb.toFixed(0)} MB (${variantLabel(opts)})`);
      if (opts.idleWatchS > 0) {
        await sleep(opts.settleS * 1000);
        const variantIdle = await watchIdleRss(variant.child.pid!, opts.idleWatchS);
        variantIdleRssMb = variantIdle.rssMb;
        log(`${db}: variant idle RSS ${variantIdle.rssMb.toFixed(0)} MB ${variantIdle.released ? '(memory reducer ran)' : `(no release within ${opts.idleWatchS} s)`}`);
      }
      variantFixture = await prepareFixture(variant.port, variantUrl ? { kind: 'mysql', url: variantUrl } : { kind: 'sqlite', file: join(runDir, 'variant-data', 'checkout.sqlite') });
    }
    const fixture: Fixture = await prepareFixture(service.port, db === 'mysql' ? { kind: 'mysql', url: databaseUrl } : { kind: 'sqlite', file: join(runDir, 'data', 'checkout.sqlite') });
    const runs: RunResult[] = [];
    for (let run = 1; run <= opts.runs; run += 1) {
      const rows: Row[] = [];
      const baseline = async (id: string, label: string, target: Target, profileAs?: string) => {
        const baselineAgent = profileAs ? new Agent(target.child) : undefined;
        const around = baselineAgent && {
          before: () => baselineAgent.send('cpu-start', { interval: 500 }),
          after: () => baselineAgent.send('cpu-stop', { file: profileFile(`run${run}-${profileAs}.cpuprofile`) }),
        };
        const m = await measure(opts, target, () => ({ port: target.port, request: { method: 'GET', path: '/healthz', headers: {} } }), runDir, around);
        if (profileAs) writeFileSync(profileFile(`run${run}-${profileAs}.meta.json`), JSON.stringify({ scenario: profileAs, label, requests: m.load.requests, cpuUsPerRequest: m.cpuUsPerRequest, rps: m.load.rps }));
        const row: Row = { id, label, kind: 'baseline', ...m };
        logRow(db, run, row);
        return row;
      };
      rows.push(await baseline('bare-node', 'bare Node http GET /healthz', bareNode));
      const nestBefore = await baseline('bare-nest', 'bare Nest GET /healthz (before)', bareNest, cpuProfiling ? 'bare-nest' : undefined);
      rows.push(nestBefore);
      rows.push(await baseline('bare-nest-logged', 'bare Nest + request log GET /healthz', bareNestLogged));
      rows.push(await baseline('bare-nest-metered', 'bare Nest + request log + metrics GET /healthz', bareNestMetered));
      let loadSeconds = 0;
      for (const scenario of opts.scenarios) {
        await probe(scenario, service.port, fixture);
        const around =
          agent && cpuProfiling
            ? {
                before: async () => {
                  await agent.send('queries-start');
                  await agent.send('cpu-start', { interval: 500 });
                },
                after: async () => {
                  await agent.send('cpu-stop', { file: profileFile(`run${run}-${scenario.id}.cpuprofile`) });
                  await agent.send('queries-stop', { file: profileFile(`run${run}-${scenario.id}.queries.json`) });
                },
              }
            : undefined;
        const m = await measure(opts, service, () => scenario.plan(service!.port, fixture), runDir, around);
        if (agent && cpuProfiling) {
          const meta = { scenario: scenario.id, label: scenario.label, requests: m.load.requests, cpuUsPerRequest: m.cpuUsPerRequest, rps: m.load.rps };
          writeFileSync(profileFile(`run${run}-${scenario.id}.meta.json`), JSON.stringify(meta));
        }
        loadSeconds += opts.warmupS + m.load.seconds;
        const row: Row = { id: scenario.id, label: scenario.label, kind: scenario.kind, ...m };
        logRow(db, run, row);
        rows.push(row);
        if (variant && variantFixture) {
          const target = variant;
          const vf = variantFixture;
          await probe(scenario, target.port, vf);
          const v = await measure(opts, target, () => scenario.plan(target.port, vf), runDir);
          const variantRow: Row = { id: `${scenario.id}@variant`, label: `${scenario.label} [variant: ${variantLabel(opts)}]`, kind: scenario.kind, ...v };
          logRow(db, run, variantRow);
          rows.push(variantRow);
        }
      }
      const nestAfter = await baseline('bare-nest', 'bare Nest GET /healthz (after)', bareNest);
      rows.push(nestAfter);
      const rssAfterMb = memoryOf(pid).rssMb;
      // --memory-only: a snapshot after every run but the last (which gets after.heapsnapshot
      // below), so that consecutive runs can be compared (bench/profiling/heap-diff.js).
      if (agent && opts.memoryOnly && run < opts.runs) await agent.send('heap', { file: profileFile(`run${run}-after.heapsnapshot`) });
      const variantRssAfterMb = variant ? memoryOf(variant.child.pid!).rssMb : undefined;
      log(`${db} run ${run}: service RSS after the run ${rssAfterMb.toFixed(0)} MB${variantRssAfterMb === undefined ? '' : `, variant ${variantRssAfterMb.toFixed(0)} MB`}`);
      // What the service keeps once the load is over: RSS right after a run lands anywhere in V8's
      // collection cycle (live heap plus up to half of it in garbage), so growth between runs is
      // judged on this reading. Not when profiling: the snapshots' object tracking grows memory.
      const idleAfter = opts.idleWatchS > 0 && !agent ? await watchIdleRss(pid, opts.idleWatchS) : undefined;
      if (idleAfter) {
        const kinds = residentByKind(pid);
        log(
          `${db} run ${run}: RSS ${idleAfter.rssMb.toFixed(0)} MB once idle after the run${idleAfter.released ? '' : ` (no release within ${opts.idleWatchS} s)`}: malloc heap ${kinds.brk.toFixed(1)} MB, anonymous (V8 heap, large mallocs) ${kinds.anon.toFixed(1)} MB, files ${kinds.file.toFixed(1)} MB`,
        );
      }
      runs.push({
        rows,
        bareNest: { before: nestBefore.load.rps, after: nestAfter.load.rps },
        rssAfterMb,
        ...(idleAfter ? { rssIdleAfterMb: idleAfter.rssMb } : {}),
        ...(variantRssAfterMb === undefined ? {} : { variantRssAfterMb }),
        loadSeconds,
      });
    }
    if (agent) {
      await agent.send('memory', { file: profileFile('after-memory.json') });
      await agent.send('heap', { file: profileFile('after.heapsnapshot') });
    }
    return {
      db,
      tool: opts.tool,
      connections: opts.connections,
      durationS: opts.durationS,
      warmupS: opts.warmupS,
      date: new Date().toISOString(),
      command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
      machine: `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Linux ${release()}, Node ${process.version} (${hostname()})`,
      loadAverage: { start: loadStart, end: loadavg() },
      readyMs: { service: service.readyMs, firstBoot: firstBoot.readyMs, bareNode: bareNode.readyMs, bareNest: bareNest.readyMs },
      idleRssMb: {
        atReady: rssAtReady,
        settled: rssSettled,
        ...(idle ? { watched: { rssMb: idle.rssMb, afterReadyS: opts.settleS + idle.settledAfterS, released: idle.released, watchS: opts.idleWatchS } } : {}),
        bareNode: bareIdleRss.node,
        bareNest: bareIdleRss.nest,
        ...(variantIdleRssMb === undefined ? {} : { variant: variantIdleRssMb }),
      },
      settleS: opts.settleS,
      logs: opts.logs === 'file' ? `a file (${(statSync(logFile).size / 2 ** 20).toFixed(0)} MiB written)` : '/dev/null',
      runs,
      profiled: profiling,
      overrides: [...opts.nodeArgs.map((flag) => `node ${flag}`), ...Object.entries(opts.serviceEnv).map(([k, v]) => `${k}=${v}`)],
    };
  } finally {
    await Promise.all([stopTarget(service), stopTarget(variant), stopTarget(bareNest), stopTarget(bareNestLogged), stopTarget(bareNestMetered), stopTarget(bareNode)]);
  }
}

async function main(): Promise<void> {
  // The size runs (issue 36) against a seeded database: their own options (bench/size.ts).
  if (process.argv.includes('--size')) return (await import('./size.js')).sizeMain(process.argv.slice(2));
  const opts = options();
  const targets = JSON.parse(readFileSync(join(ROOT, 'bench', 'targets.json'), 'utf8')) as Targets;
  const workDir = mkdtempSync(join(tmpdir(), 'checkout-bench-'));
  log(`tool ${opts.tool}, ${opts.connections} connections, ${opts.warmupS} s warm-up + ${opts.durationS} s per scenario, ${opts.runs} run(s); work dir ${workDir}`);
  let failed = false;
  for (const db of opts.dbs) {
    const report = await benchDb(opts, db, workDir);
    const checks: Check[] = evaluate(report, targets);
    failed ||= checks.some((check) => !check.pass);
    printReport(report, checks);
    if (opts.docs) {
      writeDocs(join(ROOT, 'docs', 'benchmarks.md'), report, checks);
      log(`docs/benchmarks.md: ${db} section written`);
    }
  }
  // Left in place when the run throws, for the service logs (its path is printed at the start).
  rmSync(workDir, { recursive: true, force: true });
  process.exitCode = opts.check && failed ? 1 : 0;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
