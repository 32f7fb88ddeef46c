import { readFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Frame, Page } from 'playwright-core';
import { startTestApp, TEST_ADMIN_PASSWORD, type TestApp } from '../../support/test-app.js';
import { collectPageErrors, launchChromium } from './chromium.js';

/** The built console the browser suite drives (its global setup builds it). */
export const CONSOLE_DIR = join(__dirname, '..', '..', '..', 'dist', 'console');

export interface ConsoleApp {
  t: TestApp;
  /** `http://127.0.0.1:<port>`: the service's own origin, as a browser sees it */
  origin: string;
  close(): Promise<void>;
}

/**
 * The whole service on a local port with the built console, its PUBLIC_BASE_URL the address the
 * browser uses (the console's requests are same-origin, as in production).
 */
export async function startConsoleApp(env: Record<string, string> = {}, options: { port?: number } = {}): Promise<ConsoleApp> {
  // Without a port, it is known only after listening; the origin check also accepts the Host a request was sent to.
  const t = await startTestApp({ ADMIN_CONSOLE_DIR: CONSOLE_DIR, ...env });
  await t.app.listen(options.port ?? 0, '127.0.0.1');
  const address = t.app.getHttpServer().address() as { port: number };
  const origin = `http://127.0.0.1:${address.port}`;
  return { t, origin, close: () => t.close() };
}

/** A describe block's chromium and console app: started before its tests, closed after them. */
export interface ConsoleSuite {
  readonly browser: Browser;
  readonly app: ConsoleApp;
}

/** Call inside `describe`: registers the block's beforeAll/afterAll and answers their browser and app (read them in tests). */
export function useConsoleSuite(env: Record<string, string> = {}): ConsoleSuite {
  const started: { browser?: Browser; app?: ConsoleApp } = {};
  beforeAll(async () => {
    started.browser = await launchChromium();
    started.app = await startConsoleApp(env);
  });
  afterAll(async () => {
    await started.browser?.close();
    await started.app?.close();
  });
  return {
    get browser() {
      if (!started.browser) throw new Error('The console suite has not started: read browser inside a test.');
      return started.browser;
    },
    get app() {
      if (!started.app) throw new Error('The console suite has not started: read app inside a test.');
      return started.app;
    },
  };
}

/**
 * A free local port, for an app whose own address must be known before it starts (PUBLIC_BASE_URL:
 * the OAuth callback and webhook URLs a provider is given).
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface ConsolePage {
  page: Page;
  context: BrowserContext;
  /** Uncaught errors and console errors seen so far (a CSP violation is a console error). */
  errors: string[];
}

/** A fresh browser context (no cookie) with a page at `width` × 900 collecting its errors; `options` e.g. a browser `locale`. */
export async function openConsole(browser: Browser, app: ConsoleApp, width = 1280, options: BrowserContextOptions = {}): Promise<ConsolePage> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, ...options });
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await page.goto(`${app.origin}/admin/`);
  return { page, context, errors };
}

/** Signs in on the console's sign-in screen and waits for the dashboard. */
export async function signIn(page: Page, login = 'admin', password = TEST_ADMIN_PASSWORD): Promise<void> {
  await page.getByLabel('Login').fill(login);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * axe-core's serious and critical violations on the page (or a frame's document) as it is now
 * (WCAG 2.x A/AA rules). axe is evaluated through the DevTools protocol, which the page's CSP
 * does not govern: the page itself still runs under its strict policy.
 */
export async function seriousA11yViolations(page: Page | Frame): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(`axe
    .run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
    .then((result) => result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')) })))`)) as AxeViolation[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * The landmark rules axe counts as best practice (two landmarks of one role and name, a second
 * banner or main) and its experimental check that a control's name holds its visible words
 * (`label-content-name-mismatch`, WCAG 2.5.3): none of them is in `seriousA11yViolations`' tags.
 */
export async function landmarkAndNameViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  const rules = ['landmark-unique', 'landmark-no-duplicate-banner', 'landmark-no-duplicate-main', 'landmark-no-duplicate-contentinfo', 'landmark-one-main', 'label-content-name-mismatch'];
  return (await page.evaluate(`axe
    .run(document, { runOnly: { type: 'rule', values: ${JSON.stringify(rules)} } })
    .then((result) => result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')) })))`)) as AxeViolation[];
}

/** Opens the navigation: on a narrow screen it sits behind the menu button (a wide one shows it). */
export async function openMenu(page: Page): Promise<void> {
  const button = page.getByRole('button', { name: 'Menu' });
  if ((await button.isVisible()) && (await button.getAttribute('aria-expanded')) !== 'true') await button.click();
}

/** Unfolds a list's filters: on a narrow screen they sit behind their "Filters" button. */
export async function openFilters(page: Page): Promise<void> {
  const button = page.getByRole('button', { name: 'Filters', exact: true });
  if ((await button.isVisible()) && (await button.getAttribute('aria-expanded')) !== 'true') await button.click();
}

/** True when the page scrolls sideways at its current width (a 375 px screen must not). */
export async function overflowsHorizontally(page: Page): Promise<boolean> {
  return page.evaluate('document.documentElement.scrollWidth > document.documentElement.clientWidth + 1') as Promise<boolean>;
}
