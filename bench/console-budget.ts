/**
 * The admin console's budgets (issue 22), measured on the built service, never in a timed test:
 *
 *   npm run bench:console            # builds, then prints the three figures and checks them
 *   npm run bench:console -- --runs 7 --json
 *
 * 1. First-load JavaScript: the scripts `dist/console/index.html` loads (entry + modulepreloads),
 *    gzipped at level 6 (what a reverse proxy's default gzip sends) and at 9; budget 200 KB.
 * 2. Dashboard interactive from a cold cache on localhost: a fresh browser context (empty cache)
 *    that holds a signed-in session opens /admin/; the time from navigation start until the
 *    dashboard's data is on screen (its "Gateways per mode" table rendered, which needs the
 *    dashboard answer) and the page answers input; median of `--runs`; budget 1000 ms.
 * 3. Idle RSS cost of serving it: the service's idle RSS (V8's memory reducer settled) after
 *    `--loads` cold loads whose page and assets the browser takes from `dist/console/` itself, so
 *    the service answers only the API calls the console makes (what curl or Swagger UI would
 *    cost too); then after `--loads` cold loads served by the service; budget +5 MB between the
 *    two. Also printed: the RSS of a fresh service, of one with no console built, and the whole
 *    growth from a fresh service (the first API traffic's warm-up included).
 *
 * Chromium: Debian's (/usr/bin/chromium, CHROMIUM_PATH to override), as the browser suite uses.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { memoryOf, sleep, startTarget, stopTarget, type Target, watchIdleRss } from './processes.js';

const ROOT = resolve(__dirname, '..', '..');
const CONSOLE_DIR = join(ROOT, 'dist', 'console');
const PASSWORD = 'bench-console-application-password';
const BUDGET = { firstLoadKb: 200, interactiveMs: 1000, idleRssGrowthMb: 5 };

const { values: options } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    loads: { type: 'string', default: '20' },
    'idle-watch': { type: 'string', default: '40' },
    json: { type: 'boolean', default: false },
  },
});

/** 1. The JavaScript the page loads first, raw and gzipped. */
export function firstLoadScripts(consoleDir = CONSOLE_DIR): { files: string[]; rawKb: number; gzip6Kb: number; gzip9Kb: number } {
  const html = readFileSync(join(consoleDir, 'index.html'), 'utf8');
  const srcs = [...html.matchAll(/<script[^>]*\ssrc="([^"]+\.js)"/g), ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+\.js)"/g)].map((m) => m[1]);
  const files = [...new Set(srcs)].map((src) => join(consoleDir, src.replace(/^\/admin\//, '')));
  let raw = 0;
  let gz6 = 0;
  let gz9 = 0;
  for (const file of files) {
    const bytes = readFileSync(file);
    raw += bytes.length;
    gz6 += gzipSync(bytes, { level: 6 }).length;
    gz9 += gzipSync(bytes, { level: 9 }).length;
  }
  return { files: files.map((f) => f.slice(ROOT.length + 1)), rawKb: raw / 1024, gzip6Kb: gz6 / 1024, gzip9Kb: gz9 / 1024 };
}

async function startService(consoleDir: string, dataDir: string): Promise<Target> {
  return startTarget({
    name: 'service',
    args: [join(ROOT, 'dist', 'src', 'main.js')],
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', TZ: 'UTC', DATA_DIR: dataDir, CHECKOUT_ADMIN_PASSWORD: PASSWORD, ADMIN_CONSOLE_DIR: consoleDir, LOG_LEVEL: 'warn' },
    readyPath: '/readyz',
    logFile: join(dataDir, 'service.log'),
  });
}

/** The console's page or asset as the service would send it, read from the build (no CSP: not measured here). */
function consoleFileFromDisk(url: string): { status: number; body: string | Buffer; contentType: string } {
  const name = new URL(url).pathname.replace(/^\/admin\//, '');
  if (!name.startsWith('assets/')) {
    const html = readFileSync(join(CONSOLE_DIR, 'index.html'), 'utf8').replaceAll('%CHECKOUT_REST_BASE%', '/wp-json/checkout/v1');
    return { status: 200, body: html, contentType: 'text/html; charset=utf-8' };
  }
  const types: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml' };
  const type = types[extname(name)];
  if (!type || name.includes('..')) return { status: 404, body: '', contentType: 'text/plain' };
  return { status: 200, body: readFileSync(join(CONSOLE_DIR, name)), contentType: type };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main(): Promise<void> {
  const runs = Number(options.runs);
  const loads = Number(options.loads);
  const idleWatch = Number(options['idle-watch']);
  const size = firstLoadScripts();

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'checkout-bench-console-'));
  const baselineDir = mkdtempSync(join(tmpdir(), 'checkout-bench-console-none-'));
  let service: Target | undefined;
  let baseline: Target | undefined;
  try {
    // 3a. Idle RSS of a service that never served the console (no console built: the page is a 503 note).
    baseline = await startService(join(baselineDir, 'no-console'), baselineDir);
    const baselineIdle = await watchIdleRss(baseline.child.pid!, idleWatch);
    await stopTarget(baseline);
    baseline = undefined;

    service = await startService(CONSOLE_DIR, dataDir);
    const origin = `http://127.0.0.1:${service.port}`;
    const idleFresh = await watchIdleRss(service.child.pid!, idleWatch);

    // One sign-in; each measured run reuses the session cookie in a fresh context (empty cache).
    const signInContext = await browser.newContext();
    const signIn = await signInContext.request.post(`${origin}/wp-json/checkout/v1/auth/session`, {
      headers: { Origin: origin, 'Sec-Fetch-Site': 'same-origin' },
      data: { login: 'admin', password: PASSWORD },
    });
    if (signIn.status() !== 201) throw new Error(`sign-in answered ${signIn.status()}`);
    const state = await signInContext.storageState();
    await signInContext.close();

    /** One cold load to an interactive dashboard, in a fresh context (empty cache); its time in ms. */
    const loadDashboard = async (consoleFromDisk: boolean): Promise<number> => {
      const context = await browser.newContext({ storageState: state });
      if (consoleFromDisk) await context.route(`${origin}/admin/**`, (route) => route.fulfill(consoleFileFromDisk(route.request().url())));
      const page = await context.newPage();
      await page.goto(`${origin}/admin/`);
      await page.getByRole('table', { name: 'Gateways per mode' }).waitFor();
      // "Interactive": the page answers input (a task queued now runs within the same frame budget).
      const ms = (await page.evaluate('new Promise((done) => setTimeout(() => done(performance.now()), 0))')) as number;
      await context.close();
      return ms;
    };

    // 3b. The console's API traffic alone: the service warms up as it would for any API client.
    for (let i = 0; i < loads; i++) await loadDashboard(true);
    await sleep(1000);
    const idleBefore = await watchIdleRss(service.child.pid!, idleWatch);

    // 2 and 3c. Cold loads served by the service.
    const interactive: number[] = [];
    for (let i = 0; i < Math.max(runs, loads); i++) {
      const ms = await loadDashboard(false);
      if (i < runs) interactive.push(ms);
    }
    await sleep(1000);
    const idleAfter = await watchIdleRss(service.child.pid!, idleWatch);
    const result = {
      first_load_js: { ...size, budget_kb: BUDGET.firstLoadKb, ok: size.gzip6Kb <= BUDGET.firstLoadKb },
      dashboard_interactive_ms: { runs: interactive.map((v) => Math.round(v)), median: Math.round(median(interactive)), budget_ms: BUDGET.interactiveMs, ok: median(interactive) <= BUDGET.interactiveMs },
      idle_rss_mb: {
        no_console_service: round(baselineIdle.rssMb),
        fresh_service: round(idleFresh.rssMb),
        growth_from_fresh: round(idleAfter.rssMb - idleFresh.rssMb),
        before_console: round(idleBefore.rssMb),
        after_console_loads: round(idleAfter.rssMb),
        loads: Math.max(runs, loads),
        growth: round(idleAfter.rssMb - idleBefore.rssMb),
        peak: round(memoryOf(service.child.pid!).peakMb),
        budget_growth_mb: BUDGET.idleRssGrowthMb,
        ok: idleAfter.rssMb - idleBefore.rssMb <= BUDGET.idleRssGrowthMb,
      },
    };
    if (options.json) {
      console.log(JSON.stringify(result, null, 2));
    } else {
      console.log(`first-load JS: ${result.first_load_js.files.join(', ')}: ${round(size.rawKb)} KB raw, ${round(size.gzip6Kb)} KB gzip -6, ${round(size.gzip9Kb)} KB gzip -9 (budget ${BUDGET.firstLoadKb} KB) ${result.first_load_js.ok ? 'ok' : 'MISSED'}`);
      console.log(`dashboard interactive, cold cache: median ${result.dashboard_interactive_ms.median} ms of ${result.dashboard_interactive_ms.runs.join(', ')} (budget ${BUDGET.interactiveMs} ms) ${result.dashboard_interactive_ms.ok ? 'ok' : 'MISSED'}`);
      console.log(
        `idle RSS: ${result.idle_rss_mb.before_console} MB after ${loads} loads of the console's API calls only, ${result.idle_rss_mb.after_console_loads} MB after ${result.idle_rss_mb.loads} console loads served (growth ${result.idle_rss_mb.growth} MB, budget ${BUDGET.idleRssGrowthMb}) ${result.idle_rss_mb.ok ? 'ok' : 'MISSED'}; ` +
          `a fresh service: ${result.idle_rss_mb.fresh_service} MB (all growth since: ${result.idle_rss_mb.growth_from_fresh} MB); a service without a built console: ${result.idle_rss_mb.no_console_service} MB`,
      );
    }
    if (!result.first_load_js.ok || !result.dashboard_interactive_ms.ok || !result.idle_rss_mb.ok) process.exitCode = 1;
  } finally {
    await stopTarget(service);
    await stopTarget(baseline);
    await browser.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(baselineDir, { recursive: true, force: true });
  }
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(2);
  });
}
