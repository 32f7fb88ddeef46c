/**
 * `npm run bench -- --size [options]`: the admin reads at size (issue 36) against a database that
 * `npm run bench:seed` filled. Starts the built service on it, sends each request one at a time
 * (`--requests`, default 20, after one warm-up) and prints p50/p95/p99, with the `EXPLAIN` of the
 * statement that decides each one's cost; `--export` also streams the whole CSV export, sampling
 * the service's RSS and timing `POST /payment/status` meanwhile against its idle value. Prints
 * Markdown for docs/benchmarks.md ("Size runs"); writes nothing itself. Options: `--size --help`.
 */
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { startTarget, stopTarget } from './processes.js';
import { ADMIN_AUTH, ADMIN_PASSWORD, prepareFixture } from './scenarios.js';

const REST = '/wp-json/checkout/v1';
const HELP = `npm run bench -- --size [options]   (fill the database first: npm run bench:seed)
  --db DB          mysql | sqlite (default mysql)
  --url URL        the seeded database (default: DATABASE_URL, else mysql://root@127.0.0.1:3306/t_bench_size;
                   sqlite: sqlite:/tmp/checkout-size/checkout.sqlite)
  --requests N     timed requests per read, one at a time, after one warm-up (default 20)
  --export         also stream the whole CSV export (RSS sampled, POST /payment/status timed meanwhile)
  --only LIST      comma-separated read names to run (default all)`;

interface Read {
  name: string;
  path: string;
  /** The statement that decides the read's cost, for EXPLAIN (MariaDB text; SQLite gets the same with its quoting) */
  explain?: string;
  requests?: number;
  /** Issue 36's budget for the read's p95, in ms (MariaDB's; on SQLite reported against it) */
  budget?: number;
}

/** One budget of issue 36 against what the run measured. */
interface Budget {
  name: string;
  wanted: string;
  measured: string;
  met: boolean;
}

/** The list, search, keyset and provider-events reads: p95 ≤ 100 ms (issue 36, item 2). */
const LIST_BUDGET_MS = 100;
/** The dashboard's 30-day money: ≤ 200 ms. */
const DASHBOARD_BUDGET_MS = 200;
/** The export of 1,000,000 rows: ≥ 20,000 rows/s, RSS growth ≤ 50 MB, POST /payment/status p95 during it ≤ 3× idle. */
const EXPORT_BUDGETS = { rowsPerSecond: 20_000, rssGrowthMb: 50, statusRatio: 3 };

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function ms(value: number): string {
  return value >= 100 ? value.toFixed(0) : value.toFixed(1);
}

export async function sizeMain(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      size: { type: 'boolean' },
      db: { type: 'string', default: 'mysql' },
      url: { type: 'string' },
      requests: { type: 'string', default: '20' },
      export: { type: 'boolean', default: false },
      only: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  const db = values.db as 'mysql' | 'sqlite';
  const url = values.url ?? (db === 'mysql' ? (process.env.DATABASE_URL?.startsWith('mysql') ? process.env.DATABASE_URL : 'mysql://root@127.0.0.1:3306/t_bench_size') : 'sqlite:/tmp/checkout-size/checkout.sqlite');
  const requests = Math.max(1, Number(values.requests));
  const sqliteFile = db === 'sqlite' ? resolve(url.replace(/^sqlite:/, '')) : '';
  // One data directory per database, kept: the service's secret key is in it, and a second run on
  // the same database with another key refuses to start (docs/security.md).
  const dataDir = db === 'sqlite' ? dirname(sqliteFile) : join(tmpdir(), `checkout-size-${new URL(url).pathname.slice(1)}`);
  mkdirSync(dataDir, { recursive: true });
  const query = await explainer(db, url, sqliteFile);
  const say = (line: string) => process.stderr.write(`[size] ${line}\n`);

  const counts = await query.counts();
  const root = join(__dirname, '..', '..');
  const logFile = join(mkdtempSync(join(tmpdir(), 'checkout-size-log-')), 'service.log');
  say(`starting the service on ${db} (${counts.payments} payments; log ${logFile})`);
  const service = await startTarget({
    name: 'service',
    args: [join(root, 'dist', 'src', 'main.js')],
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: db === 'sqlite' ? `sqlite:${sqliteFile}` : url,
      CHECKOUT_ADMIN_PASSWORD: ADMIN_PASSWORD,
      CHECKOUT_PROXY_URL: 'http://127.0.0.1:9',
      RATE_LIMIT_NEW_PAYMENT: '100000000',
      RATE_LIMIT_NEW_PAYMENT_WINDOW_SECONDS: '1',
      RATE_LIMIT_PUBLIC_PAYMENT: '100000000',
      RATE_LIMIT_PUBLIC_PAYMENT_WINDOW_SECONDS: '1',
      RECONCILE_INTERVAL_SECONDS: '0',
      LOG_LEVEL: 'info',
    },
    cwd: root,
    readyPath: '/readyz',
    logFile,
    timeoutMs: 600_000,
  });
  const origin = `http://127.0.0.1:${service.port}`;
  try {
    const fixture = await prepareFixture(service.port, db === 'sqlite' ? { kind: 'sqlite', file: sqliteFile } : { kind: 'mysql', url });
    const since = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
    const deep = await query.deepCursor(600_000 - 1);
    const deepEvent = await query.deepEventCursor(100_000 - 1);
    const probeId = Math.max(1, Math.floor(counts.payments * 0.777));
    const reads: Read[] = [
      { name: 'list, first page', path: '/administration/payments', budget: LIST_BUDGET_MS, explain: 'SELECT id FROM {p}checkout_payments ORDER BY created_at DESC, id DESC LIMIT 21' },
      {
        name: 'list, status + date filter',
        budget: LIST_BUDGET_MS,
        path: `/administration/payments?status=completed&created_from=${since}`,
        explain: `SELECT id FROM {p}checkout_payments WHERE status = 'completed' AND created_at >= '${since}' ORDER BY created_at DESC, id DESC LIMIT 21`,
      },
      { name: 'list, form filter', path: '/administration/payments?form_id=3', budget: LIST_BUDGET_MS, explain: 'SELECT id FROM {p}checkout_payments WHERE form_id = 3 ORDER BY created_at DESC, id DESC LIMIT 21' },
      {
        name: 'search `payer123456`',
        budget: LIST_BUDGET_MS,
        path: '/administration/payments?search=payer123456',
        explain: "SELECT id FROM {p}checkout_payments WHERE id IN (SELECT payment_id FROM {p}checkout_payment_search_terms WHERE term LIKE 'payer123456%') ORDER BY created_at DESC, id DESC LIMIT 21",
      },
      {
        name: 'search `müller`',
        budget: LIST_BUDGET_MS,
        path: `/administration/payments?search=${encodeURIComponent('müller')}`,
        // A common word (50,000 payments): probed per payment while the creation index is walked (docs/decisions.md §32).
        explain:
          "SELECT id FROM {p}checkout_payments p WHERE (SELECT 1 FROM {p}checkout_payment_search_terms st WHERE st.payment_id = p.id AND st.term LIKE 'muller%' LIMIT 1) IS NOT NULL ORDER BY created_at DESC, id DESC LIMIT 21",
      },
      {
        name: 'search `zoë müll` (two words)',
        budget: LIST_BUDGET_MS,
        path: `/administration/payments?search=${encodeURIComponent('zoë müll')}`,
        explain:
          "SELECT id FROM {p}checkout_payments p WHERE (SELECT 1 FROM {p}checkout_payment_search_terms st0 WHERE st0.payment_id = p.id AND st0.term LIKE 'zoe%' LIMIT 1) IS NOT NULL" +
          " AND (SELECT 1 FROM {p}checkout_payment_search_terms st1 WHERE st1.payment_id = p.id AND st1.term LIKE 'mull%' LIMIT 1) IS NOT NULL ORDER BY created_at DESC, id DESC LIMIT 21",
      },
      {
        // No payment has both: the walk window (20,000 payments) does not fill the page, which is then read whole (docs/decisions.md §32).
        name: 'search `lovelace hopper` (two common words, no match)',
        budget: LIST_BUDGET_MS,
        path: `/administration/payments?search=${encodeURIComponent('lovelace hopper')}`,
      },
      { name: `search a payment id (${probeId})`, path: `/administration/payments?search=${probeId}`, budget: LIST_BUDGET_MS },
      { name: 'search a provider reference', path: `/administration/payments?search=pi_size${probeId.toString(36).padStart(10, '0')}`, budget: LIST_BUDGET_MS },
      {
        name: 'page 30,000 by keyset (`after`)',
        budget: LIST_BUDGET_MS,
        path: `/administration/payments?after=${deep.cursor}`,
        explain: `SELECT id FROM {p}checkout_payments WHERE created_at <= '${deep.at}' AND (created_at < '${deep.at}' OR id < ${deep.id}) ORDER BY created_at DESC, id DESC LIMIT 21`,
      },
      { name: 'page 30,000 by offset (`page`), for comparison', path: '/administration/payments?page=30000', requests: 3 },
      { name: 'payment detail', path: `/administration/payments/${probeId}` },
      {
        name: 'dashboard money (30 days)',
        budget: DASHBOARD_BUDGET_MS,
        path: '/administration/dashboard/money',
        // The ledger's sums without the dispute flag, whose spelling differs per engine (docs/decisions.md §32).
        explain: `SELECT mode, currency, COUNT(*), SUM(CASE WHEN status = 'failed' THEN 1 ELSE 0 END), SUM(amount_received), SUM(amount_refunded), SUM(application_fee_amount) FROM {p}checkout_payments WHERE created_at >= '${since}' GROUP BY mode, currency`,
      },
      { name: 'provider events, first page', path: '/administration/webhook-events', budget: LIST_BUDGET_MS, explain: 'SELECT id FROM {p}checkout_webhook_events ORDER BY received_at DESC, id DESC LIMIT 21' },
      {
        name: 'provider events, page 5,000 by keyset',
        budget: LIST_BUDGET_MS,
        path: `/administration/webhook-events?after=${deepEvent.cursor}`,
        explain: `SELECT id FROM {p}checkout_webhook_events WHERE (received_at < '${deepEvent.at}' OR (received_at = '${deepEvent.at}' AND id < ${deepEvent.id})) ORDER BY received_at DESC, id DESC LIMIT 21`,
      },
    ];
    const only = values.only?.split(',').map((name) => name.trim());
    const lines: string[] = [];
    const load = () => loadavg().map((value) => value.toFixed(2)).join(' / ');
    lines.push(`Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, load average ${load()} at the start; ${counts.payments} payments, ${counts.logs} log lines, ${counts.terms} search terms, ${counts.events} provider events, ${counts.forms} forms (${db}).`, '');
    lines.push('| request | status | p50 ms | p95 ms | p99 ms | X-WP-Total (estimated) |', '|---|---|---|---|---|---|');
    const plans: string[] = [];
    const budgets: Budget[] = [];
    for (const read of reads) {
      if (only && !only.some((name) => read.name.startsWith(name))) continue;
      const times: number[] = [];
      let status = 0;
      let total = '';
      const count = read.requests ?? requests;
      for (let index = 0; index <= count; index++) {
        const started = process.hrtime.bigint();
        const response = await fetch(`${origin}${REST}${read.path}`, { headers: { authorization: ADMIN_AUTH } });
        await response.arrayBuffer();
        const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
        status = response.status;
        total = `${response.headers.get('x-wp-total') ?? ''}${response.headers.get('x-checkout-total-estimated') === 'true' ? ' (est.)' : ''}`;
        if (index > 0) times.push(elapsed);
      }
      times.sort((a, b) => a - b);
      lines.push(`| ${read.name} | ${status} | ${ms(percentile(times, 50))} | ${ms(percentile(times, 95))} | ${ms(percentile(times, 99))} | ${total} |`);
      if (read.budget !== undefined) {
        const p95 = percentile(times, 95);
        budgets.push({ name: read.name, wanted: `p95 ≤ ${read.budget} ms, status 200`, measured: `${ms(p95)} ms, ${status}`, met: p95 <= read.budget && status === 200 });
      }
      say(lines[lines.length - 1]);
      if (read.explain) plans.push(`${read.name}:`, '```', ...(await query.explain(read.explain)), '```', '');
    }
    // The reconciliation sweeps' statements (no route runs them: the background task does), as the
    // repository sends them (docs/benchmarks.md, "Reconciliation sweeps at size").
    const at = (ago: number) => new Date(Date.now() - ago).toISOString().replace('T', ' ').replace('Z', '');
    const waiting = (status: string) =>
      `SELECT id FROM {p}checkout_payments WHERE status = '${status}' AND provider_payment_ref IS NOT NULL AND updated_at < '${at(300_000)}' AND created_at >= '${at(30 * 86_400_000)}' ORDER BY created_at ASC, id ASC LIMIT 50`;
    const sweeps: Array<[string, string]> = [
      ['reconcile: waiting sweep, pending, first page', waiting('pending')],
      ['reconcile: waiting sweep, processing, first page', waiting('processing')],
      [
        'reconcile: gateway B refund sweep, first page',
        `SELECT id FROM {p}checkout_payments WHERE status = 'completed' AND gateway = 'gateway_b' AND provider_capture_ref IS NOT NULL AND created_at >= '${at(180 * 86_400_000)}' ORDER BY created_at ASC, id ASC LIMIT 20`,
      ],
      ['reconcile: gateway B pending refunds', "SELECT id FROM {p}checkout_payments WHERE gateway = 'gateway_b' AND status = 'completed' AND provider_capture_ref IS NOT NULL AND refund_reserved > 0 ORDER BY id ASC LIMIT 20"],
    ];
    if (!only) for (const [name, sql] of sweeps) plans.push(`${name}:`, '```', ...(await query.explain(sql)), '```', '');
    lines.push('', `Load average at the end: ${load()}.`, '');
    if (values.export) {
      const exported = await exportRun(origin, service.child.pid!, fixture.statusBody, say);
      lines.push(...exported.lines, '');
      budgets.push(...exported.budgets);
    }
    lines.push(
      `Budgets (issue 36, item 2; they are MariaDB's${db === 'sqlite' ? ': SQLite is reported against them' : ''}):`,
      '',
      '| budget | wanted | measured | |',
      '|---|---|---|---|',
      ...budgets.map((budget) => `| ${budget.name} | ${budget.wanted} | ${budget.measured} | ${budget.met ? 'met' : '**missed**'} |`),
      '',
      `${budgets.filter((budget) => !budget.met).length} of ${budgets.length} budgets missed.`,
      '',
    );
    console.log([...lines, '#### EXPLAIN', '', ...plans].join('\n'));
  } finally {
    await stopTarget(service);
    await query.close();
  }
}

/** The whole CSV export, streamed and counted, with the service's RSS and POST /payment/status timed meanwhile. */
async function exportRun(origin: string, pid: number, statusBody: string, say: (line: string) => void): Promise<{ lines: string[]; budgets: Budget[] }> {
  const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  const status = async () => {
    const started = process.hrtime.bigint();
    const response = await fetch(`${origin}${REST}/payment/status`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: statusBody });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`POST /payment/status: ${response.status}`);
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  const idle: number[] = [];
  for (let index = 0; index < 60; index++) idle.push(await status());
  idle.sort((a, b) => a - b);
  const rssBefore = rss();
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rss())), 100);
  const during: number[] = [];
  let done = false;
  const prober = (async () => {
    while (!done) {
      during.push(await status());
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const started = process.hrtime.bigint();
  const response = await fetch(`${origin}${REST}/administration/payments/export.csv`, { headers: { authorization: ADMIN_AUTH } });
  let firstByte = 0;
  let bytes = 0;
  let rows = -1;
  const reader = response.body!.getReader();
  for (;;) {
    const { value, done: end } = await reader.read();
    if (end) break;
    if (firstByte === 0) firstByte = Number(process.hrtime.bigint() - started) / 1e6;
    bytes += value.length;
    for (const byte of value) if (byte === 10) rows++;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  done = true;
  await prober;
  clearInterval(sampler);
  during.sort((a, b) => a - b);
  const line = `| ${rows} | ${(bytes / 1e6).toFixed(0)} MB | ${firstByte.toFixed(0)} ms | ${seconds.toFixed(1)} s | ${Math.round(rows / seconds)} | ${rssBefore.toFixed(0)} → ${rssPeak.toFixed(0)} MB (+${(rssPeak - rssBefore).toFixed(0)}) | ${ms(percentile(idle, 50))} / ${ms(percentile(idle, 95))} | ${ms(percentile(during, 50))} / ${ms(percentile(during, 95))} (${during.length} requests) | ${(percentile(during, 95) / percentile(idle, 95)).toFixed(2)}× |`;
  say(line);
  const rowsPerSecond = rows / seconds;
  const ratio = percentile(during, 95) / percentile(idle, 95);
  return {
    lines: [
      `CSV export (status ${response.status}, X-WP-Total ${response.headers.get('x-wp-total')}, truncated ${response.headers.get('x-checkout-truncated')}; load average ${loadavg()[0].toFixed(2)} after it):`,
      '',
      '| rows | size | first byte | last byte | rows/s | service RSS before → peak | `POST /payment/status` p50 / p95 idle, ms | the same during the export | p95 during / idle |',
      '|---|---|---|---|---|---|---|---|---|',
      line,
    ],
    budgets: [
      { name: `export of ${rows} rows: speed`, wanted: `≥ ${EXPORT_BUDGETS.rowsPerSecond} rows/s`, measured: `${Math.round(rowsPerSecond)} rows/s`, met: response.status === 200 && rowsPerSecond >= EXPORT_BUDGETS.rowsPerSecond },
      { name: 'export: memory', wanted: `RSS growth ≤ ${EXPORT_BUDGETS.rssGrowthMb} MB`, measured: `+${(rssPeak - rssBefore).toFixed(0)} MB`, met: rssPeak - rssBefore <= EXPORT_BUDGETS.rssGrowthMb },
      { name: 'export: other requests', wanted: `POST /payment/status p95 ≤ ${EXPORT_BUDGETS.statusRatio}× idle`, measured: `${ratio.toFixed(2)}×`, met: ratio <= EXPORT_BUDGETS.statusRatio },
    ],
  };
}

interface Explainer {
  counts(): Promise<{ payments: number; logs: number; terms: number; events: number; forms: number }>;
  deepCursor(offset: number): Promise<{ cursor: string; at: string; id: number }>;
  deepEventCursor(offset: number): Promise<{ cursor: string; at: string; id: number }>;
  explain(sql: string): Promise<string[]>;
  close(): Promise<void>;
}

const PREFIX = 'wp_';

async function explainer(db: 'mysql' | 'sqlite', url: string, file: string): Promise<Explainer> {
  const cursorOf = (at: Date, id: number) => ({ cursor: Buffer.from(`${at.getTime()}.${id}`).toString('base64url'), at: at.toISOString().replace('T', ' ').replace('Z', ''), id });
  if (db === 'sqlite') {
    const sqlite = new Database(file, { readonly: true });
    const one = (sql: string) => sqlite.prepare(sql).all()[0] as Record<string, unknown>;
    return {
      counts: async () => ({
        payments: Number(one(`SELECT COUNT(*) AS n FROM ${PREFIX}checkout_payments`).n),
        logs: Number(one(`SELECT COUNT(*) AS n FROM ${PREFIX}checkout_log`).n),
        terms: Number(one(`SELECT COUNT(*) AS n FROM ${PREFIX}checkout_payment_search_terms`).n),
        events: Number(one(`SELECT COUNT(*) AS n FROM ${PREFIX}checkout_webhook_events`).n),
        forms: Number(one(`SELECT COUNT(*) AS n FROM ${PREFIX}checkout_forms`).n),
      }),
      deepCursor: async (offset) => {
        const row = one(`SELECT id, created_at FROM ${PREFIX}checkout_payments ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ${offset}`) ?? one(`SELECT id, created_at FROM ${PREFIX}checkout_payments ORDER BY created_at ASC LIMIT 1`);
        return cursorOf(new Date(`${String(row.created_at).replace(' ', 'T')}Z`), Number(row.id));
      },
      deepEventCursor: async (offset) => {
        const row = one(`SELECT id, received_at FROM ${PREFIX}checkout_webhook_events ORDER BY received_at DESC, id DESC LIMIT 1 OFFSET ${offset}`) ?? one(`SELECT id, received_at FROM ${PREFIX}checkout_webhook_events ORDER BY received_at ASC LIMIT 1`);
        return cursorOf(new Date(`${String(row.received_at).replace(' ', 'T')}Z`), Number(row.id));
      },
      explain: async (sql) => (sqlite.prepare(`EXPLAIN QUERY PLAN ${sql.replaceAll('{p}', PREFIX)}`).all() as Array<{ detail: string }>).map((row) => row.detail),
      close: async () => sqlite.close(),
    };
  }
  const mysql = await import('mysql2/promise');
  const parsed = new URL(url);
  const connection = await mysql.createConnection({
    host: parsed.hostname,
    port: Number(parsed.port || 3306),
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    database: parsed.pathname.slice(1),
    timezone: 'Z',
    dateStrings: true,
  });
  const one = async (sql: string) => ((await connection.query(sql))[0] as Array<Record<string, unknown>>)[0];
  return {
    counts: async () => ({
      payments: Number((await one(`SELECT COUNT(*) AS n FROM ${PREFIX}checkout_payments`)).n),
      logs: Number((await one(`SELECT COUNT(*) AS n FROM ${PREFIX}checkout_log`)).n),
      terms: Number((await one(`SELECT COUNT(*) AS n FROM ${PREFIX}checkout_payment_search_terms`)).n),
      events: Number((await one(`SELECT COUNT(*) AS n FROM ${PREFIX}checkout_webhook_events`)).n),
      forms: Number((await one(`SELECT COUNT(*) AS n FROM ${PREFIX}checkout_forms`)).n),
    }),
    deepCursor: async (offset) => {
      // Past the end with fewer payments (a smaller seed): the oldest, as on SQLite.
      const row = (await one(`SELECT id, created_at FROM ${PREFIX}checkout_payments ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ${offset}`)) ?? (await one(`SELECT id, created_at FROM ${PREFIX}checkout_payments ORDER BY created_at ASC LIMIT 1`));
      return cursorOf(new Date(`${String(row.created_at).replace(' ', 'T')}Z`), Number(row.id));
    },
    deepEventCursor: async (offset) => {
      const row = (await one(`SELECT id, received_at FROM ${PREFIX}checkout_webhook_events ORDER BY received_at DESC, id DESC LIMIT 1 OFFSET ${offset}`)) ?? (await one(`SELECT id, received_at FROM ${PREFIX}checkout_webhook_events ORDER BY received_at LIMIT 1`));
      return cursorOf(new Date(`${String(row.received_at).replace(' ', 'T')}Z`), Number(row.id));
    },
    explain: async (sql) => {
      const [rows] = await connection.query(`EXPLAIN ${sql.replaceAll('{p}', PREFIX)}`);
      return (rows as Array<Record<string, unknown>>).map((row) => `${row.table} type=${row.type} key=${row.key} rows=${row.rows} ${row.Extra ?? ''}`);
    },
    close: () => connection.end(),
  };
}
