import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { signedEvent } from '../fakes/gateway-a/sign-event.js';
import { type FakeGatewayA, startFakeGatewayA } from '../fakes/gateway-a/index.js';
import { type FakeGatewayB, startFakeGatewayB } from '../fakes/gateway-b/index.js';
import { collectPageErrors, launchChromium, waitForExpression } from './support/chromium.js';
import { type ConsoleApp, freePort, openConsole, seriousA11yViolations, signIn, startConsoleApp } from './support/console.js';
import { GOOD_CARD, PUBLISHABLE_KEY, SECRET_KEY, startStandIns } from './support/gateway-standins.js';

/** CONSOLE_SCREENSHOTS=docs/console npm run test:browser -- test/browser/console-first-payment.browser-spec.ts refreshes the README's pictures. */
async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.CONSOLE_SCREENSHOTS) await page.screenshot({ path: `${process.env.CONSOLE_SCREENSHOTS}/${name}.png`, fullPage: true });
}

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name }).waitFor();

/**
 * The whole first payment from the browser, as a new merchant does it (issue 22 item 6): sign in,
 * connect gateway A in test mode with the merchant's own keys (Pro plan), create a form from a
 * template, change its price in the builder, publish it, pay it on the hosted page opened from the
 * dashboard's quick setup (which counts its steps done as they are), then find the payment
 * completed in the payments list and its provider event in the events view; sign out.
 * Against the local fakes, with a stand-in of the Payment Element; no API call of the test's own
 * changes anything the console should have done.
 */
describe('admin console: a first payment from the browser', () => {
  let browser: Browser;
  let fakeA: FakeGatewayA;
  let fakeB: FakeGatewayB;
  let standIns: Awaited<ReturnType<typeof startStandIns>>;
  let app: ConsoleApp;

  beforeAll(async () => {
    browser = await launchChromium();
    fakeA = await startFakeGatewayA();
    fakeB = await startFakeGatewayB({ environment: 'sandbox' });
    standIns = await startStandIns(fakeA, fakeB);
    const port = await freePort();
    app = await startConsoleApp(
      {
        CHECKOUT_PLAN: 'pro',
        GATEWAY_A_API_BASE: fakeA.url,
        CHECKOUT_PROXY_URL: fakeA.url,
        GATEWAY_B_API_BASE_TEST: fakeB.url,
        GATEWAY_A_JS_URL: `${standIns.url}/v3/`,
        GATEWAY_B_JS_URL: `${standIns.url}/sdk/js`,
        PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
        RECONCILE_INTERVAL_SECONDS: '0',
      },
      { port },
    );
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await new Promise((resolve) => standIns?.server.close(resolve));
    await fakeA?.stop();
    await fakeB?.stop();
  });

  it('signs in, connects gateway A, builds and publishes a form, is paid on the hosted page, and sees the payment and its event', async () => {
    const { page, context, errors } = await openConsole(browser, app);
    await signIn(page);

    // Quick setup starts with nothing done (issue 30 item 6: it ends in a test payment).
    await nav(page, 'Dashboard');
    await heading(page, 'Dashboard');
    const setup = page.getByRole('region', { name: 'Quick setup: your first test payment' });
    await setup.getByText('0 of 4 steps done').waitFor();

    // Gateway A in test mode with the merchant's own keys.
    await nav(page, 'Gateways');
    await heading(page, 'Gateways');
    const testMode = page.getByRole('region', { name: 'Stripe', exact: true }).getByRole('region', { name: /^Test mode/ });
    await testMode.getByText('Connect test mode with your own keys').click();
    await testMode.getByLabel('Publishable key').fill(PUBLISHABLE_KEY);
    await testMode.getByLabel('Secret key').fill(SECRET_KEY);
    await testMode.getByRole('button', { name: 'Connect test mode', exact: true }).click();
    await testMode.getByText('Connected (test keys)').waitFor();
    await testMode.getByText('Verified', { exact: true }).waitFor();
    await screenshot(page, 'gateways');

    // A form from the gallery, its price changed in the builder, published.
    await nav(page, 'Forms');
    await heading(page, 'Forms');
    await page.getByRole('link', { name: 'New form from a template' }).click();
    await heading(page, 'New form');
    await waitForExpression(page, `((images) => images.length > 0 && images.every((img) => img.complete && img.naturalWidth > 0))([...document.querySelectorAll('.gallery img')])`);
    await screenshot(page, 'template-gallery');
    await page.getByRole('button', { name: 'Use Simple payment' }).click();
    await heading(page, /^Edit form #\d+$/);
    const formId = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByLabel('Amount (USD)').fill('12.50');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByText(/^Published: payers can pay at/).waitFor();
    await page.frameLocator('iframe[title="Live preview of the payment form"]').locator('.price-label').first().waitFor();
    await screenshot(page, 'form-builder');

    // Quick setup names the test card and opens the published form's page in a new tab.
    await nav(page, 'Dashboard');
    await heading(page, 'Dashboard');
    await setup.getByText('3 of 4 steps done').waitFor();
    await setup.getByText(/4242 4242 4242 4242, any future expiry date, any CVC/).waitFor();
    const [payer] = await Promise.all([context.waitForEvent('page'), setup.getByRole('link', { name: /^Open the payment page in test mode/ }).click()]);
    const payerErrors = collectPageErrors(payer);
    await payer.waitForURL(`${app.origin}/pay/${formId}`);
    await payer.fill('#field-email_address', 'payer@example.test');
    await payer.fill('#field-first_name', 'Ada');
    if (await payer.$('#field-last_name')) await payer.fill('#field-last_name', 'Lovelace');
    await payer.locator('#standin-card-number').waitFor();
    await payer.fill('#standin-card-number', GOOD_CARD);
    const pay = payer.getByRole('button', { name: /\$12\.50/ });
    await pay.click();
    const confirmation = payer.getByText(/Payment reference/);
    await confirmation.waitFor();
    expect(payerErrors).toEqual([]);
    await payer.close();

    // Gateway A delivers its event, signed with the endpoint's secret, as the provider would.
    const [payment] = await app.t.dataSource.query(`SELECT id, provider_payment_ref FROM ${app.t.config.tablePrefix}checkout_payments WHERE form_id = ?`, [formId]);
    const intent = fakeA.resources.get(payment.provider_payment_ref as string)!;
    const [endpoint] = fakeA.resources.list('webhook_endpoint');
    const event = signedEvent('payment_intent.succeeded', intent, fakeA.resources.secrets.get(endpoint.id as string)!);
    await request(app.t.http).post(`${app.t.base}/webhook/gateway-a-callback/test`).set('Stripe-Signature', event.signature).set('Content-Type', 'application/json').send(event.body).expect(200);

    // The dashboard, still open, sees the test payment completed and leads to it.
    await setup.getByText('4 of 4 steps done').waitFor();
    await setup.getByRole('link', { name: `see payment #${payment.id} in Payments` }).click();
    await heading(page, `Payment #${payment.id}`);

    // The merchant finds the payment completed, and the event.
    await nav(page, 'Payments');
    await heading(page, 'Payments');
    const row = page.getByRole('row', { name: new RegExp(`#${payment.id}`) });
    await row.getByText('completed').waitFor();
    await row.getByText('$12.50').waitFor();
    await screenshot(page, 'payments');
    await row.getByRole('link', { name: `#${payment.id}` }).click();
    await heading(page, `Payment #${payment.id}`);
    await screenshot(page, 'payment');
    await nav(page, 'Provider events');
    await heading(page, 'Provider events');
    await page.getByRole('row', { name: /payment_intent\.succeeded/ }).waitFor();
    await screenshot(page, 'events');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await nav(page, 'Dashboard');
    await heading(page, 'Dashboard');
    await screenshot(page, 'dashboard');

    // Signing out ends the session on the server too.
    const [cookie] = (await context.cookies()).filter((c) => c.name === 'checkout_console_session');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Checkout' }).waitFor();
    const reused = await request(app.t.http).get(`${app.t.base}/administration/dashboard`).set('Cookie', `checkout_console_session=${cookie.value}`);
    expect(reused.status).toBe(401);
    expect(errors).toEqual([]);
    await context.close();
  });
});
