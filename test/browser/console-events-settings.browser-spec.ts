import type { Browser, Locator, Page } from 'playwright-core';
import request from 'supertest';
import { signedEvent, signPayload } from '../fakes/gateway-a/index.js';
import { AccountService } from '../../src/modules/identity/index.js';
import { connectGateway, createPaymentForm, type SyncAnswer } from '../support/payment-fixtures.js';
import { launchChromium } from './support/chromium.js';
import { type ConsoleApp, openConsole, overflowsHorizontally, seriousA11yViolations, signIn, startConsoleApp } from './support/console.js';

const GATEWAY_A_SIGNING_SECRET = 'whsec_consoleEventsBrowserSpec0123456789';

/**
 * The admin console's provider events, settings, tags and feature-request screens in chromium
 * (issue 22): events delivered through the real webhook routes (section B's generic webhook and
 * gateway A's callback, signed as the senders sign them) listed with their outcome and reason and
 * narrowed by filters; settings saved and restored; a tag created, a duplicate refused at its
 * field, deleted; an account without `checkout_settings` sees the no-access screen; a 403 on a
 * query or a change reads as such. axe-clean, 375 px, keyboard, no console error.
 */
describe('admin console: provider events, settings and tags', () => {
  let browser: Browser;
  let app: ConsoleApp;
  let paymentId: number;

  const admin = (method: 'get' | 'post' | 'delete', path: string) => request(app.t.http)[method](`${app.t.base}${path}`).set('Authorization', app.t.admin.auth);

  beforeAll(async () => {
    browser = await launchChromium();
    app = await startConsoleApp();
    const { t } = app;
    await connectGateway(t, 'gateway_a', 'test');
    const form = await createPaymentForm(t);
    const sync = await request(t.http).post(`${t.base}/payment/sync-details`).send({ form_id: form.id, payment_gateway: 'gateway_a', payment_method: 'ccard', email_address: 'payer@example.test' });
    expect(sync.status).toBe(201);
    paymentId = (sync.body as SyncAnswer).payment_id;

    // Section B's generic webhook: one event naming the payment with the wrong amount, one it does not act on.
    const genericSecret = (await admin('post', '/webhook/rotate-secret')).body.secret as string;
    const sendGeneric = async (envelope: Record<string, unknown>) => {
      const raw = JSON.stringify(envelope);
      const res = await request(t.http).post(`${t.base}/webhook/receive`).set('Content-Type', 'application/json').set('Checkout-Signature', signPayload(raw, genericSecret)).send(raw);
      return res.body.outcome as string;
    };
    expect(await sendGeneric({ id: 'evt_console_rejected', event: 'payment_intent.succeeded', data: { transaction_id: String(paymentId), amount: '1.00', currency: 'USD' } })).toBe('rejected');
    expect(await sendGeneric({ id: 'evt_console_ignored', event: 'charge.refunded', data: { transaction_id: String(paymentId), amount: '1.00', currency: 'USD' } })).toBe('ignored');

    // Gateway A's test-mode callback, signed with a manually configured signing secret: an object this installation did not create.
    expect((await admin('post', '/payment-gateway/save-webhook-settings').send({ gateway: 'gateway_a', mode: 'test', signing_secret: GATEWAY_A_SIGNING_SECRET })).status).toBe(200);
    const { body, signature } = signedEvent('payment_intent.succeeded', { id: 'pi_elsewhere', object: 'payment_intent', amount: 100, currency: 'usd', status: 'succeeded', metadata: {} }, GATEWAY_A_SIGNING_SECRET, { id: 'evt_console_gateway_a' });
    const delivered = await request(t.http).post(`${t.base}/webhook/gateway-a-callback/test`).set('Content-Type', 'application/json').set('Gateway-A-Signature', signature).send(body);
    expect(delivered.body.outcome).toBe('ignored');
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  const rowsOf = (page: Page) => page.locator('table tbody tr:not(.details-row)');
  const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name }).waitFor();
  const focusedId = (page: Page) => page.evaluate('document.activeElement && document.activeElement.id') as Promise<string | null>;

  it('lists the received events with outcome and reason, shows one event and its payment, and narrows by filters kept in the address', async () => {
    const { page, context, errors } = await openConsole(browser, app);
    await signIn(page);
    await page.getByRole('link', { name: 'Provider events' }).click();
    await heading(page, 'Provider events');
    await expectCount(rowsOf(page), 3);
    const rejected = page.getByRole('row', { name: /payment_intent\.succeeded.*rejected/ });
    await rejected.waitFor();
    expect(await rejected.textContent()).toContain('amount or currency differs from the record');
    expect(await rejected.getByRole('link', { name: `#${paymentId}` }).getAttribute('href')).toBe(`/admin/payments/${paymentId}`);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // One event's details, opened by keyboard.
    const toggle = page.getByRole('row', { name: /rejected/ }).getByRole('button', { name: 'payment_intent.succeeded' });
    await toggle.focus();
    await page.keyboard.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    const details = page.getByRole('region', { name: 'Event evt_console_rejected' });
    await details.waitFor();
    expect(await details.textContent()).toContain('Not applied: it disagrees with the payment it names.');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Filters: outcome, provider and mode narrow the list, and the address keeps them.
    await page.getByLabel('Outcome').selectOption('rejected');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/outcome=rejected/);
    await expectCount(rowsOf(page), 1);
    await page.goto(`${app.origin}/admin/events?mode=test`);
    await heading(page, 'Provider events');
    await expectCount(rowsOf(page), 1);
    expect(await rowsOf(page).first().textContent()).toContain('not created by this installation');
    await page.goto(`${app.origin}/admin/events?event_type=charge.refunded`);
    await expectCount(rowsOf(page), 1);
    expect(await page.getByLabel('Event type').inputValue()).toBe('charge.refunded');
    await page.goto(`${app.origin}/admin/events?payment_id=${paymentId}&outcome=processed`);
    await page.getByText('No provider event matches these filters.').waitFor();

    // A refused filter: the API's message at its field, which takes focus.
    await page.goto(`${app.origin}/admin/events`);
    await heading(page, 'Provider events');
    await page.getByLabel('Received from').fill('2026-03-10');
    await page.getByLabel('Received until').fill('2026-03-01');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('received_before must be later than received_from').first().waitFor();
    expect(await page.getByLabel('Received until').getAttribute('aria-invalid')).toBe('true');
    expect(await focusedId(page)).toBe('event-filter-received_to');

    // From the event to its payment.
    await page.goto(`${app.origin}/admin/events?outcome=rejected`);
    await page.getByRole('link', { name: `#${paymentId}` }).click();
    await heading(page, `Payment #${paymentId}`);
    // The refused filter's 400 is the one console error this flow may show.
    expect(errors.filter((error) => !error.includes('400'))).toEqual([]);
    await context.close();
  });

  it('saves settings (the API key write-only, shown masked), refuses a bad key at its field, and restores the defaults after a confirmation', async () => {
    const { page, context, errors } = await openConsole(browser, app);
    await signIn(page);
    await page.getByRole('link', { name: 'Settings' }).click();
    await heading(page, 'Settings');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByLabel('API key').fill('short');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.locator('#settings-api_key-error').waitFor();
    expect(await page.getByLabel('API key').getAttribute('aria-invalid')).toBe('true');
    expect(await focusedId(page)).toBe('settings-api_key');
    expect((await admin('get', '/settings')).body.api_key).toBeNull();

    await page.getByLabel('Currency').selectOption('EUR');
    await page.getByLabel('API key').fill('sk_console_browser_key_4321');
    await page.getByLabel('Debug mode').check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Settings updated.' }).waitFor();
    expect((await admin('get', '/settings')).body).toEqual({ currency: 'EUR', payment_gateway: 'gateway_a', api_key: expect.stringMatching(/4321$/), debug_mode: true, language: 'en' });
    // The key itself is never in the page again: the field is empty, the mask is shown.
    expect(await page.getByLabel('API key').inputValue()).toBe('');
    expect(await page.content()).not.toContain('sk_console_browser_key_4321');
    await page.getByText(/Stored: .*4321/).waitFor();

    // Restore defaults: a confirmation first, by keyboard; Cancel changes nothing.
    await page.getByRole('button', { name: 'Restore defaults…' }).click();
    expect(await page.evaluate('document.activeElement && document.activeElement.textContent')).toBe('Yes, restore defaults');
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect((await admin('get', '/settings')).body.currency).toBe('EUR');
    await page.getByRole('button', { name: 'Restore defaults…' }).click();
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Settings reset to default.' }).waitFor();
    expect((await admin('get', '/settings')).body).toEqual({ currency: 'USD', payment_gateway: 'gateway_a', api_key: null, debug_mode: false, language: 'en' });
    expect(await page.getByLabel('Currency').inputValue()).toBe('USD');
    expect(await page.getByLabel('Debug mode').isChecked()).toBe(false);
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(errors.filter((error) => !error.includes('400'))).toEqual([]);
    await context.close();
  });

  it('creates a tag by keyboard, refuses a duplicate at the field with the API’s message, deletes it', async () => {
    const { page, context, errors } = await openConsole(browser, app);
    await signIn(page);
    await page.goto(`${app.origin}/admin/settings/tags`);
    await heading(page, 'Tags');
    await page.getByText('No tags yet.').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByLabel('Tag name').focus();
    await page.keyboard.type('Donations');
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Tag “Donations” created.' }).waitFor();
    await page.getByRole('rowheader', { name: 'Donations' }).waitFor();
    expect((await admin('get', '/tags')).body).toEqual([{ tag_id: expect.any(Number), tag: 'Donations' }]);

    await page.getByLabel('Tag name').fill('donations');
    await page.keyboard.press('Enter');
    await page.locator('#tags-tag-error').filter({ hasText: 'A tag with that name already exists.' }).waitFor();
    expect(await page.getByLabel('Tag name').getAttribute('aria-invalid')).toBe('true');
    expect(await focusedId(page)).toBe('tags-tag');
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect((await admin('get', '/tags')).body).toHaveLength(1);

    const remove = page.getByRole('button', { name: 'Delete tag “Donations”' });
    await remove.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Tag “Donations” deleted.' }).waitFor();
    await page.getByText('No tags yet.').waitFor();
    expect((await admin('get', '/tags')).body).toEqual([]);
    // The duplicate's 409 is the one console error this flow may show.
    expect(errors.filter((error) => !error.includes('409'))).toEqual([]);
    await context.close();
  });

  it('answers a feature-request area and keeps the answer', async () => {
    const { page, context, errors } = await openConsole(browser, app);
    await signIn(page);
    await page.goto(`${app.origin}/admin/settings/features`);
    await heading(page, 'Feature requests');
    const area = (await admin('get', '/tagging/area/form-builder')).body as { name: string; submit_text: string; email_address: string; features: Array<{ tag: string; name: string }> };
    expect(area.email_address).not.toBe('');
    const form = page.getByRole('form', { name: area.name });
    // The account's email is the default; a name typed is kept with the answer.
    expect(await form.getByLabel('Email address').inputValue()).toBe(area.email_address);
    await form.getByLabel(area.features[0].name).check();
    await form.getByLabel('First name (optional)').fill('Ada');
    await form.getByRole('button', { name: area.submit_text }).click();
    await form.getByRole('status').waitFor();
    expect((await admin('get', '/tagging/area/form-builder')).body).toMatchObject({ applied_tags: [area.features[0].tag], email_address: area.email_address, first_name: 'Ada', applied_at: expect.any(String) });
    await form.getByText('You last answered on').waitFor();

    // A refused answer: the API's message at the email field, which takes focus.
    await form.getByLabel('Email address').fill('not an address');
    await form.getByRole('button', { name: area.submit_text }).click();
    await page.locator('#area-form-builder-email_address-error').waitFor();
    expect(await focusedId(page)).toBe('area-form-builder-email_address');
    expect((await admin('get', '/tagging/area/form-builder')).body.email_address).toBe(area.email_address);
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(errors.filter((error) => !error.includes('400'))).toEqual([]);
    await context.close();
  });

  it.each(['/events', '/settings', '/settings/tags', '/settings/features'])('shows %s at 375 px without sideways scroll, axe-clean', async (path) => {
    const { page, context, errors } = await openConsole(browser, app, 375);
    await signIn(page);
    await page.goto(`${app.origin}/admin${path}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.locator('.loading').first().waitFor({ state: 'detached' }); // first(): a screen may show several at once
    expect(await overflowsHorizontally(page)).toBe(false);
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('says plainly that access is missing when the API answers 403 to a read or a change', async () => {
    const { page, context } = await openConsole(browser, app);
    await signIn(page);
    const forbidden = { status: 403, contentType: 'application/json', body: JSON.stringify({ code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 403 } }) };
    await page.route('**/checkout/v1/settings', (route) => route.fulfill(forbidden));
    await page.goto(`${app.origin}/admin/settings`);
    await page.getByRole('alert').filter({ hasText: 'You do not have access to this' }).waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('Sorry, you are not allowed to do that.');

    await page.route('**/checkout/v1/tags', (route) => (route.request().method() === 'POST' ? route.fulfill(forbidden) : route.fallback()));
    await page.goto(`${app.origin}/admin/settings/tags`);
    await page.getByLabel('Tag name').fill('Refused');
    await page.getByRole('button', { name: 'Add tag' }).click();
    await page.getByRole('alert').filter({ hasText: 'You do not have access to this' }).waitFor();
    // Not a field's problem: the field stays valid.
    expect(await page.getByLabel('Tag name').getAttribute('aria-invalid')).toBeNull();
    expect((await admin('get', '/tags')).body).toEqual([]);
    await context.close();
  });

  it('shows an account without checkout_settings the no-access screen, not a blank page', async () => {
    // A subscriber: every console role (an editor too) holds checkout_settings now.
    const editor = await app.t.createUser('subscriber');
    // With an account password: one without is asked to choose one first (console-accounts.browser-spec.ts).
    await app.t.app.get(AccountService).setPassword(editor.id, 'the editor account password');
    const { page, context, errors } = await openConsole(browser, app, 375);
    await page.getByLabel('Login').fill(editor.login);
    await page.getByLabel('Password', { exact: true }).fill('the editor account password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'No access to the Checkout admin' }).waitFor();
    expect(await page.textContent('body')).toContain(editor.login);
    expect(await overflowsHorizontally(page)).toBe(false);
    expect(await seriousA11yViolations(page)).toEqual([]);
    // Its way out works by keyboard.
    await page.getByRole('button', { name: 'Sign out' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Sign in to Checkout' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});

/** Waits (up to 10 s) until the locator matches `count` elements, then asserts it: a list redraws after its query answers. */
async function expectCount(locator: Locator, count: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  let seen = await locator.count();
  while (seen !== count && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    seen = await locator.count();
  }
  expect(seen).toBe(count);
}
