/**
 * `npm run bench:seed [-- options]`: fills a database with payments for the size runs (issue 36):
 * by default 1,000,000 payments (one log line each), 200,000 provider events and 10 forms on
 * MariaDB, 200,000 payments (40,000 events) on SQLite. Multi-row INSERTs in batches, each batch its
 * own transaction, straight into the tables (not the app's create path): minutes, not hours. The
 * schema is the service's own (its migrations are applied first); the search terms are computed
 * by the same function the service writes them with. Options: `--help`, bench/README.md.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { DataSource } from 'typeorm';
import { loadConfig } from '../src/config/index.js';
import { buildDataSourceOptions, paymentSearchTerms } from '../src/database/index.js';
import { runMigrations } from '../src/database/run-migrations.js';

const HELP = `npm run bench:seed -- [options]
  --db DB          mysql | sqlite (default mysql)
  --url URL        mysql: the database to fill (default DATABASE_URL, else mysql://root@127.0.0.1:3306/t_bench_size);
                   sqlite: sqlite:<file> (default sqlite:/tmp/checkout-size/checkout.sqlite)
  --payments N     payments, one log line each (default 1000000 on mysql, 200000 on sqlite)
  --events N       provider events (default 200000 on mysql, 40000 on sqlite)
  --forms N        forms (default 10)
  --days N         creation times spread evenly over the last N days (default 730)
  --batch N        rows per INSERT (default 1000)
  --fresh          mysql: drop and create the database first; sqlite: delete the file first
                   (otherwise a database that already holds payments is refused)`;

/** Names with accents, so the accent-insensitive search has something to find. */
const FIRST = ['Ada', 'Grace', 'Zoë', 'José', 'Chloé', 'Jürgen', 'Søren', 'Anaïs', 'Björn', 'Łukasz', 'Noémie', 'Alan', 'Margaret', 'Linus', 'Barbara', 'Edsger', 'Frances', 'Niklaus', 'Radia', 'Ken'];
const LAST = ['Lovelace', 'Hopper', 'Müller', 'García', 'Dubois', 'Kjærgaard', 'Nowak', 'Ødegård', 'Jean-Pierre', 'Turing', 'Hamilton', 'Torvalds', 'Liskov', 'Dijkstra', 'Allen', 'Wirth', 'Perlman', 'Thompson', 'de la Cruz', "O'Neil"];
const STATUSES: Array<[string, number]> = [['completed', 70], ['pending', 10], ['processing', 3], ['failed', 12], ['canceled', 5]];
const CURRENCIES = ['USD', 'USD', 'USD', 'EUR', 'EUR', 'GBP', 'JPY'];

function statusOf(n: number): string {
  let slot = (n * 7919) % 100;
  for (const [status, share] of STATUSES) {
    if (slot < share) return status;
    slot -= share;
  }
  return 'completed';
}

function datetime(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
}

const FORM_SETTINGS = JSON.stringify({
  plans: [{ title: 'Payment', prices: [{ amount: 1000, currency: 'USD', frequency: 'one-time' }] }],
  payment_methods: { gateway_a: ['ccard'], gateway_b: ['standard_checkout'] },
  fields: [
    { name: 'email_address', type: 'email', label: 'Email', required: true },
    { name: 'first_name', type: 'text', label: 'First name', required: false },
    { name: 'last_name', type: 'text', label: 'Last name', required: false },
    { name: 'company', type: 'text', label: 'Company', required: false },
  ],
  submit_actions: ['message'],
  email: { email_to: 'owner@example.test', admin_subject: 'New payment', payer_subject: 'Thank you', from_name: 'Shop' },
  display: {},
});

interface Sink {
  /** One multi-row INSERT of `rows` (each an array of values in `columns` order) into `table`. */
  insert(table: string, columns: string[], rows: unknown[][]): Promise<void>;
  begin(): Promise<void>;
  commit(): Promise<void>;
  finish(): Promise<void>;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      db: { type: 'string', default: 'mysql' },
      url: { type: 'string' },
      payments: { type: 'string' },
      events: { type: 'string' },
      forms: { type: 'string', default: '10' },
      days: { type: 'string', default: '730' },
      batch: { type: 'string', default: '1000' },
      fresh: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  const db = values.db;
  if (db !== 'mysql' && db !== 'sqlite') throw new Error('--db must be mysql or sqlite');
  const whole = (name: string, raw: string | undefined, fallback: number) => {
    const value = raw === undefined ? fallback : Number(raw);
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`--${name} must be a whole number`);
    return value;
  };
  const payments = whole('payments', values.payments, db === 'mysql' ? 1_000_000 : 200_000);
  const events = whole('events', values.events, db === 'mysql' ? 200_000 : 40_000);
  const forms = Math.max(1, whole('forms', values.forms, 10));
  const days = Math.max(1, whole('days', values.days, 730));
  const batch = Math.max(1, whole('batch', values.batch, 1000));
  const url = values.url ?? (db === 'mysql' ? (process.env.DATABASE_URL && /^(mysql|mariadb):/.test(process.env.DATABASE_URL) ? process.env.DATABASE_URL : 'mysql://root@127.0.0.1:3306/t_bench_size') : 'sqlite:/tmp/checkout-size/checkout.sqlite');
  const started = Date.now();
  const say = (message: string) => process.stderr.write(`[seed ${((Date.now() - started) / 1000).toFixed(1)} s] ${message}\n`);

  if (db === 'mysql') await prepareMysql(url, values.fresh!);
  else {
    const file = resolve(url.replace(/^sqlite:/, ''));
    if (values.fresh) for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
    mkdirSync(dirname(file), { recursive: true });
  }
  // The schema: the service's migrations, as a boot applies them.
  const config = loadConfig({ DATABASE_URL: url, DATA_DIR: db === 'sqlite' ? dirname(resolve(url.replace(/^sqlite:/, ''))) : undefined });
  const dataSource = new DataSource(buildDataSourceOptions(config));
  await dataSource.initialize();
  await runMigrations(dataSource, { lockTimeoutSeconds: 60, logger: { log: (message) => say(message) } });
  const prefix = dataSource.options.entityPrefix ?? '';
  const [{ n: existing }] = (await dataSource.query(`SELECT COUNT(*) AS n FROM ${prefix}checkout_payments`)) as Array<{ n: number | string }>;
  await dataSource.destroy();
  if (Number(existing) > 0) throw new Error(`the database already holds ${existing} payments: --fresh to start again`);

  const sink = db === 'mysql' ? await mysqlSink(url) : sqliteSink(resolve(url.replace(/^sqlite:/, '')));
  const now = Date.now();
  const span = days * 86_400_000;

  await sink.begin();
  await sink.insert(
    `${prefix}checkout_forms`,
    ['id', 'title', 'status', 'author_id', 'settings', 'created_at', 'updated_at'],
    Array.from({ length: forms }, (_, index) => [index + 1, `Size form ${index + 1}`, 'publish', 1, FORM_SETTINGS, datetime(now - span), datetime(now - span)]),
  );
  await sink.commit();
  say(`${forms} forms`);

  const paymentColumns = [
    'id', 'form_id', 'gateway', 'payment_method', 'mode', 'status', 'amount', 'currency', 'frequency', 'email_address', 'first_name', 'last_name', 'custom_fields', 'secret_nonce',
    'provider_payment_ref', 'provider_capture_ref', 'amount_received', 'amount_refunded', 'refund_reserved', 'created_at', 'updated_at',
  ];
  const logColumns = ['payment_id', 'level', 'event', 'message', 'context', 'created_at'];
  const termColumns = ['payment_id', 'term'];
  for (let start = 1; start <= payments; start += batch) {
    const end = Math.min(payments, start + batch - 1);
    const rows: unknown[][] = [];
    const logs: unknown[][] = [];
    const terms: unknown[][] = [];
    for (let id = start; id <= end; id++) {
      // Evenly spread over the span, oldest first: the newest payment has the highest id.
      const created = now - Math.round(((payments - id) / payments) * span);
      const status = statusOf(id);
      const gatewayB = id % 5 === 0;
      const gateway = gatewayB ? 'gateway_b' : 'gateway_a';
      const currency = CURRENCIES[id % CURRENCIES.length];
      const amount = 500 + ((id * 37) % 20_000);
      const paid = status === 'completed';
      const fields = {
        emailAddress: `payer${id}@example${id % 100}.com`,
        firstName: FIRST[id % FIRST.length],
        lastName: LAST[Math.floor(id / FIRST.length) % LAST.length],
        providerPaymentRef: status === 'pending' && id % 2 === 0 ? null : gatewayB ? `ORD${id.toString(36).toUpperCase().padStart(12, '0')}` : `pi_size${id.toString(36).padStart(10, '0')}`,
        providerCaptureRef: gatewayB && paid ? `CAP${id.toString(36).toUpperCase().padStart(13, '0')}` : null,
      };
      rows.push([
        id, (id % forms) + 1, gateway, gatewayB ? 'standard_checkout' : 'ccard', id % 10 === 0 ? 'live' : 'test', status, amount, currency, 'one-time',
        fields.emailAddress, fields.firstName, fields.lastName, id % 3 === 0 ? JSON.stringify({ company: `Company ${id % 1000}` }) : '{}',
        `s${id.toString(36).padStart(42, '0')}`, fields.providerPaymentRef, fields.providerCaptureRef, paid ? amount : null, paid && id % 50 === 0 ? Math.floor(amount / 2) : 0, 0,
        datetime(created), datetime(created + 60_000),
      ]);
      logs.push([id, 'info', 'status_changed', `Status changed from pending to ${status} by seed.`, JSON.stringify({ source: 'seed' }), datetime(created + 60_000)]);
      for (const term of paymentSearchTerms(fields)) terms.push([id, term]);
    }
    await sink.begin();
    await sink.insert(`${prefix}checkout_payments`, paymentColumns, rows);
    await sink.insert(`${prefix}checkout_log`, logColumns, logs);
    await sink.insert(`${prefix}checkout_payment_search_terms`, termColumns, terms);
    await sink.commit();
    if (end % 100_000 < batch || end === payments) say(`${end} payments`);
  }

  const eventColumns = ['provider', 'event_id', 'event_type', 'mode', 'status', 'payment_id', 'received_at', 'processed_at', 'reason'];
  const outcomes = ['processed', 'processed', 'processed', 'ignored', 'rejected'];
  for (let start = 1; start <= events; start += batch) {
    const end = Math.min(events, start + batch - 1);
    const rows: unknown[][] = [];
    for (let n = start; n <= end; n++) {
      const received = now - Math.round(((events - n) / events) * span);
      const status = outcomes[n % outcomes.length];
      const paymentId = payments > 0 ? Math.max(1, payments - events + n) : null;
      const gatewayB = n % 5 === 0;
      rows.push([
        gatewayB ? 'gateway_b' : 'gateway_a', gatewayB ? `WH-SIZE-${n}` : `evt_size${n.toString(36).padStart(10, '0')}`, gatewayB ? 'PAYMENT.CAPTURE.COMPLETED' : 'payment_intent.succeeded',
        n % 10 === 0 ? 'live' : 'test', status, status === 'rejected' ? null : paymentId, datetime(received), datetime(received + 50), status === 'processed' ? null : 'seeded',
      ]);
    }
    await sink.begin();
    await sink.insert(`${prefix}checkout_webhook_events`, eventColumns, rows);
    await sink.commit();
    if (end % 100_000 < batch || end === events) say(`${end} provider events`);
  }
  await sink.finish();
  say(`done: ${payments} payments (as many log lines), ${events} provider events, ${forms} forms in ${url.replace(/\/\/[^@]*@/, '//')}`);
}

async function prepareMysql(url: string, fresh: boolean): Promise<void> {
  const parsed = new URL(url.replace(/^mariadb:/, 'mysql:'));
  const database = parsed.pathname.replace(/^\//, '');
  const mysql = await import('mysql2/promise');
  const connection = await mysql.createConnection({ host: parsed.hostname, port: Number(parsed.port || 3306), user: decodeURIComponent(parsed.username), password: decodeURIComponent(parsed.password) });
  try {
    if (fresh) await connection.query(`DROP DATABASE IF EXISTS \`${database}\``);
    await connection.query(`CREATE DATABASE IF NOT EXISTS \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  } finally {
    await connection.end();
  }
}

async function mysqlSink(url: string): Promise<Sink> {
  const parsed = new URL(url.replace(/^mariadb:/, 'mysql:'));
  const mysql = await import('mysql2/promise');
  const connection = await mysql.createConnection({
    host: parsed.hostname,
    port: Number(parsed.port || 3306),
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    database: parsed.pathname.replace(/^\//, ''),
    timezone: 'Z',
  });
  // A seed, not a service: no unique checks per row (the values are unique by construction).
  await connection.query('SET SESSION unique_checks = 0, SESSION foreign_key_checks = 0');
  return {
    async insert(table, columns, rows) {
      if (rows.length === 0) return;
      const row = `(${columns.map(() => '?').join(', ')})`;
      await connection.query(`INSERT INTO \`${table}\` (${columns.map((column) => `\`${column}\``).join(', ')}) VALUES ${rows.map(() => row).join(', ')}`, rows.flat());
    },
    begin: async () => void (await connection.query('START TRANSACTION')),
    commit: async () => void (await connection.query('COMMIT')),
    async finish() {
      for (const table of ['checkout_payments', 'checkout_log', 'checkout_payment_search_terms', 'checkout_webhook_events', 'checkout_forms']) {
        const [rows] = await connection.query('SHOW TABLES LIKE ?', [`%${table}`]);
        for (const found of rows as Array<Record<string, string>>) await connection.query(`ANALYZE TABLE \`${Object.values(found)[0]}\``);
      }
      await connection.end();
    },
  };
}

function sqliteSink(file: string): Sink {
  if (!existsSync(file)) throw new Error(`${file} was not created by the migrations`);
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = OFF');
  const statements = new Map<string, ReturnType<Database['prepare']>>();
  return {
    async insert(table, columns, rows) {
      // One prepared single-row INSERT run per row inside the batch's transaction: SQLite's fastest path.
      const key = `${table}|${columns.join(',')}`;
      let statement = statements.get(key);
      if (!statement) {
        statement = sqlite.prepare(`INSERT INTO "${table}" (${columns.map((column) => `"${column}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
        statements.set(key, statement);
      }
      for (const row of rows) statement.run(...row);
    },
    begin: async () => void sqlite.exec('BEGIN'),
    commit: async () => void sqlite.exec('COMMIT'),
    async finish() {
      sqlite.exec('ANALYZE');
      sqlite.pragma('synchronous = NORMAL');
      sqlite.close();
    },
  };
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
