import type { Browser, Locator, Page } from 'playwright-core';
import request from 'supertest';
import { PaymentLedgerService } from '../../src/modules/payments/index.js';
import { signPayload } from '../fakes/gateway-a/index.js';
import { connectGateway, createPaymentForm, type SyncAnswer } from '../support/payment-fixtures.js';
import { launchChromium } from './support/chromium.js';
import { type ConsoleApp, landmarkAndNameViolations, openConsole, overflowsHorizontally, seriousA11yViolations, signIn, startConsoleApp } from './support/console.js';

/**
 * Every console screen on a phone and a desktop (issue 30 item 7), with one service and one
 * browser: at 375 and 1280 px each screen opens with no serious or critical axe violation, no two
 * landmarks of one name, no control whose name leaves out its visible words, nothing scrolling
 * sideways and no console error. At 375 px: the menu button opens and closes the navigation, the
 * payments list shows a payment's amount, status and date on screen, a form's actions are on
 * screen, and the builder switches between the form and its preview.
 */
describe('admin console: phones and accessibility', () => {
  let browser: Browser;
  let app: ConsoleApp;
  let formId: number;
  let paymentId: number;
  let endpointId: number;
  let memberId: number;

  beforeAll(async () => {
    browser = await launchChromium();
    // The endpoint below points at this machine, which only this setting allows.
    app = await startConsoleApp({ OUTGOING_WEBHOOKS_ALLOW_PRIVATE: 'true' });
    const { t } = app;
    const admin = (method: 'get' | 'post', path: string) => request(t.http)[method](`${t.base}${path}`).set('Authorization', t.admin.auth);
    await connectGateway(t, 'gateway_a', 'test');
    // A published form from the gallery (the builder's preview draws it) and a payment of another form.
    formId = (await admin('post', '/administration/import-template').send({ type: 'form_template', slug: 'simple-payment' }).expect(201)).body.form_id as number;
    await request(t.http).put(`${t.base}/administration/payment-forms/${formId}`).set('Authorization', t.admin.auth).send({ status: 'publish' }).expect(200);
    const sync = await request(t.http).post(`${t.base}/payment/sync-details`).send({ form_id: (await createPaymentForm(t)).id, payment_gateway: 'gateway_a', payment_method: 'ccard', email_address: 'payer@example.test' });
    expect(sync.status).toBe(201);
    paymentId = (sync.body as SyncAnswer).payment_id;
    await t.app.get(PaymentLedgerService).transition(paymentId, 'completed', { source: 'test' });
    // One provider event (section B's generic webhook), one tag, one endpoint, one teammate: no list screen is empty.
    const secret = (await admin('post', '/webhook/rotate-secret')).body.secret as string;
    const raw = JSON.stringify({ id: 'evt_phones', event: 'charge.refunded', data: { transaction_id: String(paymentId), amount: '1.00', currency: 'USD' } });
    expect((await request(t.http).post(`${t.base}/webhook/receive`).set('Content-Type', 'application/json').set('Checkout-Signature', signPayload(raw, secret)).send(raw)).status).toBeLessThan(300);
    expect((await admin('post', '/tags').send({ tag: 'phones' })).status).toBe(201);
    const endpoint = await admin('post', '/administration/webhook-endpoints').send({ url: 'http://127.0.0.1:9/hooks', description: 'CRM' });
    expect(endpoint.status).toBe(201);
    endpointId = endpoint.body.id as number;
    memberId = (await t.createUser('support')).id;
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  /** Every screen of the console, by its address and its heading. */
  const screens = (): Array<[path: string, heading: string]> => [
    ['/', 'Dashboard'],
    ['/gateways', 'Gateways'],
    ['/forms', 'Forms'],
    ['/forms/new', 'New form'],
    [`/forms/${formId}`, `Edit form #${formId}`],
    ['/payments', 'Payments'],
    [`/payments/${paymentId}`, `Payment #${paymentId}`],
    ['/events', 'Provider events'],
    ['/webhooks', 'Webhooks'],
    [`/webhooks/${endpointId}`, `Endpoint #${endpointId}`],
    ['/team', 'Team'],
    [`/team/${memberId}`, 'support'],
    ['/settings', 'Settings'],
    ['/settings/tags', 'Tags'],
    ['/settings/features', 'Feature requests'],
    ['/account', 'Your account'],
    ['/no-such-screen', 'Page not found'],
  ];

  it.each([375, 1280])('opens every screen at %i px: axe-clean, unique landmarks, no sideways scroll', async (width) => {
    const { page, context, errors } = await openConsole(browser, app, width);
    await signIn(page);
    const found: unknown[] = [];
    for (const [path, heading] of screens()) {
      await page.goto(`${app.origin}/admin${path}`);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      await page.locator('.loading').first().waitFor({ state: 'detached' }); // first(): a screen may show several at once
      const problems = [...(await seriousA11yViolations(page)), ...(await landmarkAndNameViolations(page))];
      if (process.env.CONSOLE_SCREENSHOTS) await page.screenshot({ path: `${process.env.CONSOLE_SCREENSHOTS}/phones-${width}${path === '/' ? '-dashboard' : path.replace(/\W+/g, '-').replace(/-$/, '')}.png`, fullPage: true });
      if (problems.length > 0 || (await overflowsHorizontally(page))) found.push({ path, overflows: await overflowsHorizontally(page), problems });
    }
    expect(found).toEqual([]);
    // The menu button is the narrow screen's only: a wide one shows the navigation itself.
    expect(await page.getByRole('button', { name: 'Menu' }).isVisible()).toBe(width < 768);
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(width >= 768);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('at 375 px: the menu button opens the navigation, lists are cards with their actions, the builder shows its preview', async () => {
    const { page, context, errors } = await openConsole(browser, app, 375);
    await signIn(page);
    const menu = page.getByRole('button', { name: 'Menu' });
    const nav = page.getByRole('navigation', { name: 'Main' });
    // Folded: one button in the bar, no navigation on screen.
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await nav.isVisible()).toBe(false);
    expect(await page.locator('.topbar').evaluate((bar) => bar.getBoundingClientRect().height)).toBeLessThan(70);
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    expect(await page.locator(`#${await menu.getAttribute('aria-controls')}`).isVisible()).toBe(true);
    // Escape closes it and gives focus back to the button.
    await nav.getByRole('link', { name: 'Forms' }).focus();
    await page.keyboard.press('Escape');
    expect(await nav.isVisible()).toBe(false);
    expect(await menu.evaluate((button) => button === button.ownerDocument.activeElement)).toBe(true);
    // Following a link closes it.
    await menu.click();
    await nav.getByRole('link', { name: 'Payments' }).click();
    await page.getByRole('heading', { level: 1, name: 'Payments' }).waitFor();
    expect(await menu.getAttribute('aria-expanded')).toBe('false');

    // The filters fold behind their button, so the list comes first; the button unfolds them.
    const filters = page.getByRole('button', { name: 'Filters', exact: true });
    expect(await page.getByRole('form', { name: 'Filter payments' }).isVisible()).toBe(false);
    await filters.click();
    expect(await filters.getAttribute('aria-expanded')).toBe('true');
    await page.getByLabel('Status').waitFor();

    // The payment's card: its amount, status and date on screen, without scrolling sideways.
    const card = page.getByRole('row', { name: new RegExp(`#${paymentId}\\b`) });
    for (const cell of [card.locator('td[data-label="Amount"]'), card.locator('td[data-label="Status"]'), card.locator('td[data-label="Created"]')]) {
      expect(await onScreen(cell)).toBe(true);
    }

    // A form's card: editing, opening its page and deleting it are all on screen.
    await page.goto(`${app.origin}/admin/forms`);
    const formCard = page.getByRole('row', { name: new RegExp(`#${formId}\\b`) });
    for (const action of [formCard.getByRole('link', { name: /^Edit / }), formCard.getByRole('link', { name: /^Open page of / }), formCard.getByRole('button', { name: /^Delete / })]) {
      expect(await onScreen(action)).toBe(true);
    }

    // The builder: the form first, the preview one tap away (and back).
    await formCard.getByRole('link', { name: /^Edit / }).click();
    await page.getByRole('heading', { level: 1, name: `Edit form #${formId}` }).waitFor();
    const preview = page.locator('iframe[title="Live preview of the payment form"]');
    const settings = page.getByRole('form', { name: 'Form settings' });
    // The heading is drawn before the form's data arrives: wait for the form, then check the preview is folded away.
    await settings.waitFor();
    expect(await preview.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    expect(await page.getByRole('button', { name: 'Preview', exact: true }).getAttribute('aria-pressed')).toBe('true');
    await page.frameLocator('iframe[title="Live preview of the payment form"]').locator('.price-label').first().waitFor();
    expect(await onScreen(preview)).toBe(true);
    expect(await settings.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Form', exact: true }).click();
    expect(await settings.isVisible()).toBe(true);
    expect(await overflowsHorizontally(page)).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });
});

/** True when the element is shown and lies across the 375 px viewport's width (after scrolling to it vertically). */
async function onScreen(locator: Locator): Promise<boolean> {
  await locator.scrollIntoViewIfNeeded();
  const box = await locator.boundingBox();
  const page: Page = locator.page();
  const width = page.viewportSize()!.width;
  return box !== null && box.width > 0 && box.x >= 0 && box.x + box.width <= width;
}
