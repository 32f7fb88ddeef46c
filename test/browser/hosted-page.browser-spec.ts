import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Frame, Page } from 'playwright-core';
import request from 'supertest';
import { embedSnippet } from '../../clients/typescript/index.js';
import { connectGatewayA } from '../../src/modules/gateway-a/index.js';
import { connectGatewayB, gatewayBWebhookUrl } from '../../src/modules/gateway-b/index.js';
import type { ConnectIo } from '../../src/modules/gateways/index.js';
import { type FakeGatewayA, startFakeGatewayA } from '../fakes/gateway-a/index.js';
import { type FakeGatewayB, startFakeGatewayB } from '../fakes/gateway-b/index.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { collectPageErrors, launchChromium, waitForExpression } from './support/chromium.js';
import { seriousA11yViolations } from './support/console.js';
import { DECLINED_CARD, GOOD_CARD, PUBLISHABLE_KEY, REDIRECT_CARD, SECRET_KEY, startStandIns } from './support/gateway-standins.js';

function silentIo(env: NodeJS.ProcessEnv): ConnectIo {
  return { env, prompt: async () => null, out: () => undefined, err: () => undefined };
}

/**
 * A merchant's shop on another origin (its own port): a product page with the form's embed
 * snippet, built by the client's `embedSnippet` exactly as the admin console shows it.
 */
async function startShop(): Promise<{ url: string; server: Server; setService(origin: string): void }> {
  let service = '';
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://shop');
    const formId = Number(url.searchParams.get('form'));
    if (url.pathname !== '/product' || !formId) {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      return res.end('not found');
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Acme Coffee: support us</title><link rel="icon" href="data:,">
<style>body{font-family:Georgia,serif;margin:0;background:#faf7f2;color:#2b2118}header{background:#2b2118;color:#faf7f2;padding:1rem 2rem}
main{max-width:46rem;margin:0 auto;padding:1.5rem 2rem}.aside{color:#6b5b4b}</style></head>
<body><header><strong>Acme Coffee</strong> · Roasters since 1998</header>
<main><h1>Support the roastery</h1><p class="aside">Pay securely below: the form is served by our payment service.</p>
${embedSnippet({ origin: service, formId })}
<p class="aside">Questions? hello@acme.example</p></main></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, setService: (origin) => (service = origin) };
}

/** What the page under test can be: the hosted page itself, or the frame inside a shop's page. */
type Surface = Page | Frame;

/**
 * The hosted payment page in chromium against the gateway fakes (issues 15 and 23): the app
 * in-process on an ephemeral port, gateways connected with the CLI's connect commands, the
 * providers' browser libraries replaced by the stand-ins above (GATEWAY_A_JS_URL /
 * GATEWAY_B_JS_URL), and a shop on another origin that embeds a form (EMBED_ORIGINS).
 */
describe('hosted payment page in a browser', () => {
  let browser: Browser;
  let fakeA: FakeGatewayA;
  let fakeB: FakeGatewayB;
  let standIns: Awaited<ReturnType<typeof startStandIns>>;
  let shop: Awaited<ReturnType<typeof startShop>>;
  let t: TestApp;
  let appUrl: string;
  const forms: Record<'simple' | 'donation' | 'subscription' | 'plain', number> = { simple: 0, donation: 0, subscription: 0, plain: 0 };

  beforeAll(async () => {
    browser = await launchChromium();
    fakeA = await startFakeGatewayA();
    fakeB = await startFakeGatewayB({ environment: 'sandbox' });
    standIns = await startStandIns(fakeA, fakeB);
    shop = await startShop();
    t = await startTestApp({
      CHECKOUT_PLAN: 'pro',
      GATEWAY_A_API_BASE: fakeA.url,
      CHECKOUT_PROXY_URL: fakeA.url,
      GATEWAY_B_API_BASE_TEST: fakeB.url,
      GATEWAY_A_JS_URL: `${standIns.url}/v3/`,
      GATEWAY_B_JS_URL: `${standIns.url}/sdk/js`,
      EMBED_ORIGINS: shop.url,
      RATE_LIMIT_NEW_PAYMENT: '1000',
      RATE_LIMIT_PUBLIC_PAYMENT: '1000',
      RECONCILE_INTERVAL_SECONDS: '0',
    });
    await t.app.listen(0, '127.0.0.1');
    appUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    shop.setService(appUrl);

    // Connected as the README's five minutes do it: the CLI's connect commands.
    expect(await connectGatewayA(t.app, 'test', silentIo({ GATEWAY_A_SECRET_KEY: SECRET_KEY, GATEWAY_A_PUBLISHABLE_KEY: PUBLISHABLE_KEY }))).toBe(0);
    fakeB.setWebhookListener(fakeB.webhookId, { url: gatewayBWebhookUrl(t.config, 'test'), eventTypes: ['PAYMENT.CAPTURE.COMPLETED'] });
    expect(await connectGatewayB(t.app, 'test', 'merchant@example.test', silentIo({ GATEWAY_B_CLIENT_ID: fakeB.clientId, GATEWAY_B_CLIENT_SECRET: fakeB.clientSecret, GATEWAY_B_WEBHOOK_ID: fakeB.webhookId }))).toBe(0);
    await request(t.http).post(`${t.base}/payment-gateway/set-payment-methods`).set('Authorization', t.admin.auth).send({ gateway: 'gateway_b', methods: ['standard_checkout'] }).expect(200);
    await request(t.http)
      .post(`${t.base}/payment-gateway/set-payment-methods`)
      .set('Authorization', t.admin.auth)
      .send({ gateway: 'gateway_a', methods: ['ccard', 'device_wallet_1', 'regional_wallet_1'] })
      .expect(200);

    for (const slug of ['simple-payment', 'donation', 'subscription'] as const) {
      const imported = await request(t.http).post(`${t.base}/administration/import-template`).set('Authorization', t.admin.auth).send({ type: 'form_template', slug }).expect(201);
      const id = imported.body.form_id as number;
      const change: Record<string, unknown> = { status: 'publish' };
      if (slug === 'donation') {
        // The donation also offers device wallet 1 and regional wallet 1 (the payment element's other methods).
        const { body: stored } = await request(t.http).get(`${t.base}/administration/payment-forms/${id}`).set('Authorization', t.admin.auth).expect(200);
        change.settings = { ...stored.settings, payment_methods: { gateway_a: ['ccard', 'device_wallet_1', 'regional_wallet_1'], gateway_b: ['standard_checkout'] } };
      }
      await request(t.http).put(`${t.base}/administration/payment-forms/${id}`).set('Authorization', t.admin.auth).send(change).expect(200);
      forms[slug === 'simple-payment' ? 'simple' : slug] = id;
    }
    // A simple payment with the service's own button label (the template's "Pay now" is the merchant's, shown as written).
    const plain = await request(t.http).post(`${t.base}/administration/import-template`).set('Authorization', t.admin.auth).send({ type: 'form_template', slug: 'simple-payment' }).expect(201);
    const { body: plainForm } = await request(t.http).get(`${t.base}/administration/payment-forms/${plain.body.form_id}`).set('Authorization', t.admin.auth).expect(200);
    const { button_label: _merchantLabel, ...display } = plainForm.settings.display as Record<string, unknown>;
    await request(t.http)
      .put(`${t.base}/administration/payment-forms/${plain.body.form_id}`)
      .set('Authorization', t.admin.auth)
      .send({ status: 'publish', settings: { ...plainForm.settings, display } })
      .expect(200);
    forms.plain = plain.body.form_id as number;
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await new Promise((resolve) => standIns?.server.close(resolve));
    await new Promise((resolve) => shop?.server.close(resolve));
    await fakeA?.stop();
    await fakeB?.stop();
  });

  async function fillPayer(surface: Surface): Promise<void> {
    await surface.fill('#field-email_address', 'payer@example.test');
    await surface.fill('#field-first_name', 'Ada');
    if (await surface.$('#field-last_name')) await surface.fill('#field-last_name', 'Lovelace');
  }

  async function openPage(formId: number, fill = true): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.newPage();
    const errors = collectPageErrors(page);
    const response = await page.goto(`${appUrl}/pay/${formId}`);
    expect(response?.status()).toBe(200);
    if (fill) await fillPayer(page);
    return { page, errors };
  }

  async function latestPayment(formId: number): Promise<Record<string, unknown>> {
    const [row] = await t.dataSource.query(`SELECT * FROM ${t.config.tablePrefix}checkout_payments WHERE form_id = ? ORDER BY id DESC LIMIT 1`, [formId]);
    return row as Record<string, unknown>;
  }

  const intentCreates = () => fakeA.requestsTo('POST', '/v1/payment_intents');
  const focusedId = (surface: Surface) => surface.evaluate('document.activeElement && document.activeElement.id') as Promise<string>;
  /** The options of the payment element the page mounted last (the stand-in keeps them). */
  const elementOptions = (surface: Surface) =>
    surface.evaluate('(() => { const all = window.__standinElements.filter((s) => !s.destroyed); const last = all[all.length - 1]; return { options: last.options, element: last.elementOptions }; })()') as Promise<{
      options: Record<string, unknown>;
      element: Record<string, unknown>;
    }>;

  it('pays a simple-payment form by card: the button names the amount, test mode shows, focus lands on the confirmation with amount and reference', async () => {
    const { page, errors } = await openPage(forms.simple);
    expect(await page.textContent('#form-title')).toBe('Simple payment');
    expect(await page.textContent('.price-label')).toBe('$10.00');
    expect(await page.textContent('#pay-button')).toBe('Pay now $10.00');
    expect(await page.isVisible('#test-mode')).toBe(true);
    expect(await page.textContent('#test-mode')).toContain('Test mode');
    await page.waitForSelector('#standin-card-number');
    // Deferred-intent mode: the element has the amount, currency and mode of the price and the method's parameters.
    expect(await elementOptions(page)).toEqual({
      options: { mode: 'payment', currency: 'usd', amount: 1000, paymentMethodTypes: ['card', 'link'], captureMethod: 'automatic', locale: 'en' },
      element: { layout: 'tabs', wallets: { applePay: 'never', googlePay: 'never' } },
    });
    expect(await seriousA11yViolations(page)).toEqual([]);
    if (process.env.HOSTED_PAGE_SCREENSHOT) {
      await page.fill('#standin-card-number', GOOD_CARD);
      await page.screenshot({ path: process.env.HOSTED_PAGE_SCREENSHOT, fullPage: true });
    }
    await page.fill('#standin-card-number', GOOD_CARD);
    fakeA.clearRequests();
    const keys: Record<string, string | undefined> = {};
    page.on('request', (req) => {
      const path = new URL(req.url()).pathname;
      if (req.method() === 'POST') keys[path.slice(path.indexOf('/checkout/v1') + '/checkout/v1'.length)] = req.headers()['idempotency-key'];
    });
    await page.click('#pay-button');
    await page.waitForSelector('#success:not([hidden])');
    expect(await page.textContent('#success-message')).toBe('Thank you! Your payment was received.');
    expect(await page.isVisible('#failure')).toBe(false);
    const row = await latestPayment(forms.simple);
    expect(await focusedId(page)).toBe('success');
    expect(await page.textContent('#success-amount')).toBe('Amount: $10.00');
    expect(await page.textContent('#success-reference')).toBe(`Payment reference: ${row.id}`);

    expect(row).toMatchObject({ status: 'completed', gateway: 'gateway_a', payment_method: 'ccard', amount: 1000, currency: 'USD', amount_received: 1000, email_address: 'payer@example.test' });
    // The intent matched the element (the stand-in refuses otherwise): its parameters are those of the element above.
    expect(intentCreates().map((r) => [r.body.amount, r.body.currency, r.body.capture_method, r.body.allowed_payment_method_types])).toEqual([['1000', 'usd', 'automatic', ['card', 'link']]]);
    // The creating requests of one payment attempt carry an Idempotency-Key each; the finalising ones none.
    expect(keys['/payment/sync-details']).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys['/gateway-a/payment-intent-or-setup']).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys['/gateway-a/payment-intent-or-setup']).not.toBe(keys['/payment/sync-details']);
    expect(keys['/gateway-a/checkout']).toBeUndefined();
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  // Issue 32: the page in the browser's language, the provider's element told the same language, axe at desktop and phone widths.
  for (const { browserLocale, lang, button, fieldError, paid } of [
    { browserLocale: 'de-DE', lang: 'de', button: '10,00\u00a0$ bezahlen', fieldError: 'Geben Sie Ihre E-Mail-Adresse ein', paid: 'Betrag: 10,00\u00a0$' },
    { browserLocale: 'ja-JP', lang: 'ja', button: '$10.00 を支払う', fieldError: 'メールアドレスを入力してください', paid: '金額: $10.00' },
  ]) {
    it(`pays in ${lang} (a ${browserLocale} browser): lang, labels, the pay button, field errors and the element's locale in ${lang}; no serious axe violation at 1280 and 375 px`, async () => {
      const context = await browser.newContext({ locale: browserLocale, viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const errors = collectPageErrors(page);
      const response = await page.goto(`${appUrl}/pay/${forms.plain}`);
      expect(response?.headers().vary).toMatch(/Accept-Language/);
      expect(await page.getAttribute('html', 'lang')).toBe(lang);
      expect(await page.textContent('#pay-button')).toBe(button);
      await page.waitForSelector('#standin-card-number');
      expect((await elementOptions(page)).options.locale).toBe(lang);
      expect(await seriousA11yViolations(page)).toEqual([]);
      // The page's own check, in the payer's language.
      await page.click('#pay-button');
      await page.waitForSelector('#error-summary:not([hidden])');
      expect(await page.textContent('#error-email_address')).toBe(fieldError);
      await page.setViewportSize({ width: 375, height: 812 });
      expect(await seriousA11yViolations(page)).toEqual([]);
      await fillPayer(page);
      await page.fill('#standin-card-number', GOOD_CARD);
      await page.click('#pay-button');
      await page.waitForSelector('#success:not([hidden])');
      expect(await page.textContent('#success-amount')).toBe(paid);
      const row = await latestPayment(forms.plain);
      expect(row).toMatchObject({ status: 'completed', locale: lang });
      expect(await seriousA11yViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it('moves focus to a summary of the fields in error, each marked aria-invalid with its own message; nothing is sent', async () => {
    const { page, errors } = await openPage(forms.simple, false);
    await page.fill('#field-email_address', 'not-an-email');
    await page.waitForSelector('#standin-card-number');
    await page.fill('#standin-card-number', GOOD_CARD);
    fakeA.clearRequests();
    const before = await latestPayment(forms.simple);
    await page.click('#pay-button');
    await page.waitForSelector('#error-summary:not([hidden])');
    expect(await focusedId(page)).toBe('error-summary');
    expect(await page.$$eval('#error-summary a', (links) => links.map((link) => [link.getAttribute('href'), link.textContent]))).toEqual([
      ['#field-email_address', 'Enter a valid email address, like name@example.com'],
      ['#field-first_name', 'Enter your first name'],
      ['#field-last_name', 'Enter your last name'],
    ]);
    expect(await page.getAttribute('#field-email_address', 'aria-invalid')).toBe('true');
    expect(await page.getAttribute('#field-email_address', 'aria-describedby')).toBe('error-email_address');
    expect(await page.textContent('#error-email_address')).toBe('Enter a valid email address, like name@example.com');
    expect(await seriousA11yViolations(page)).toEqual([]);
    // A link of the summary takes the payer to its field.
    await page.click('#error-summary a[href="#field-first_name"]');
    expect(await focusedId(page)).toBe('field-first_name');
    expect(await latestPayment(forms.simple)).toEqual(before);
    expect(fakeA.requests).toEqual([]);

    // Corrected, the marks go and the payment goes through.
    await fillPayer(page);
    await page.click('#pay-button');
    await page.waitForSelector('#success:not([hidden])');
    expect(await page.getAttribute('#field-email_address', 'aria-invalid')).toBeNull();
    expect(await page.isVisible('#error-summary')).toBe(false);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('pays a donation with a custom amount within the bounds; the button and the element follow the amount', async () => {
    const { page, errors } = await openPage(forms.donation);
    expect(await page.textContent('.price-label')).toContain('Any amount from');
    expect(await page.textContent('#pay-button')).toBe('Donate $25.00');
    await page.fill('.custom-amount input', '25.50');
    expect(await page.textContent('#pay-button')).toBe('Donate $25.50');
    await page.fill('#field-dedication', 'For the library');
    await page.waitForSelector('#standin-card-number');
    expect((await elementOptions(page)).options.amount).toBe(2550);
    await page.fill('#standin-card-number', GOOD_CARD);
    fakeA.clearRequests();
    await page.click('#pay-button');
    await page.waitForSelector('#success:not([hidden])');
    expect(await page.textContent('#success-message')).toBe('Thank you for your generosity!');
    expect(await page.textContent('#success-amount')).toBe('Amount: $25.50');
    const row = await latestPayment(forms.donation);
    expect(row).toMatchObject({ status: 'completed', amount: 2550, amount_received: 2550, currency: 'USD' });
    expect(JSON.parse(String(row.custom_fields))).toEqual({ dedication: 'For the library' });
    expect(intentCreates().map((r) => r.body.amount)).toEqual(['2550']);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('subscribes with a setup intent: the button says "Subscribe … / month", the element is in setup mode, the intent matches it', async () => {
    const { page, errors } = await openPage(forms.subscription);
    expect(await page.textContent('#pay-button')).toBe('Subscribe $9.99 / month');
    await page.waitForSelector('#standin-card-number');
    expect((await elementOptions(page)).options).toEqual({ mode: 'setup', currency: 'usd', locale: 'en', paymentMethodTypes: ['card', 'link'], setupFutureUsage: 'off_session' });
    await page.check('#price-1-0');
    expect(await page.textContent('#pay-button')).toBe('Subscribe $99.99 / year');
    await page.check('#price-0-0');
    await page.waitForSelector('#standin-card-number');
    await page.fill('#standin-card-number', GOOD_CARD);
    fakeA.clearRequests();
    await page.click('#pay-button');
    await page.waitForSelector('#success:not([hidden])');
    expect(await page.textContent('#success-amount')).toBe('Amount: $9.99 / month');
    const row = await latestPayment(forms.subscription);
    expect(row).toMatchObject({ status: 'completed', gateway: 'gateway_a', payment_method: 'ccard', amount: 999, currency: 'USD' });
    expect(fakeA.requestsTo('POST', '/v1/setup_intents').map((r) => [r.body.usage, r.body.allowed_payment_method_types])).toEqual([['off_session', ['card', 'link']]]);
    expect(String(row.provider_subscription_ref)).toMatch(/^sub_/);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('charges what the form says whatever the page is made to send (a tampered price): the element is told the server’s amount before confirming', async () => {
    const { page, errors } = await openPage(forms.simple);
    await page.waitForSelector('#standin-card-number');
    // The payer edits the page: the fixed price now "is" a custom amount of $0.01 in JPY.
    // (A string: this file is type-checked without the DOM library.)
    await page.evaluate(`(() => {
      const price = document.querySelector('input[name="price"]');
      price.dataset.customMin = '1';
      price.dataset.customMax = '100000';
      price.dataset.currency = 'JPY';
      document.querySelector('.price-label').textContent = '$0.01';
      const label = document.createElement('label');
      label.className = 'custom-amount';
      label.dataset.for = price.id;
      label.innerHTML = '<input type="number" name="custom_amount" value="0.01">';
      price.closest('fieldset').appendChild(label);
      label.firstChild.dispatchEvent(new Event('input', { bubbles: true }));
    })()`);
    // The page believes it: its element is now for 1 JPY.
    await waitForExpression(page, 'window.__standinElements.length === 2');
    expect((await elementOptions(page)).options).toMatchObject({ amount: 1, currency: 'jpy' });
    await page.fill('#standin-card-number', GOOD_CARD);
    fakeA.clearRequests();
    const syncBodies: Array<Record<string, unknown>> = [];
    page.on('request', (req) => {
      if (req.url().endsWith('/payment/sync-details')) syncBodies.push(JSON.parse(req.postData() ?? '{}'));
    });
    await page.click('#pay-button');
    await page.waitForSelector('#success:not([hidden])');
    expect(syncBodies[0]).toMatchObject({ amount: 1 });
    const row = await latestPayment(forms.simple);
    expect(row).toMatchObject({ status: 'completed', amount: 1000, currency: 'USD', amount_received: 1000 });
    expect(intentCreates().map((r) => [r.body.amount, r.body.currency])).toEqual([['1000', 'usd']]);
    expect((await elementOptions(page)).options).toMatchObject({ amount: 1000, currency: 'usd' });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('marks the amount field with a payer message when the server refuses the amount (never the API’s text)', async () => {
    const { page, errors } = await openPage(forms.donation);
    await page.waitForSelector('#standin-card-number');
    // The page's own bounds check is talked out of it; the server's is not.
    await page.evaluate(`(() => { const price = document.querySelector('input[name="price"]:checked'); price.dataset.customMin = '1'; })()`);
    await page.fill('.custom-amount input', '0.50');
    await page.fill('#standin-card-number', GOOD_CARD);
    const before = await latestPayment(forms.donation);
    fakeA.clearRequests();
    await page.click('#pay-button');
    await page.waitForSelector('#error-summary:not([hidden])');
    expect(await focusedId(page)).toBe('error-summary');
    expect(await page.textContent('#error-summary')).toContain('Enter an amount from $0.01 to $10,000.00');
    expect(await page.getAttribute('.custom-amount input', 'aria-invalid')).toBe('true');
    expect(await page.textContent('main')).not.toMatch(/rest_invalid_param|amount must|Invalid parameter/);
    expect(await latestPayment(forms.donation)).toEqual(before);
    expect(fakeA.requests).toEqual([]);
    // The browser logs the refused request (400) itself; nothing else went wrong.
    expect(errors.filter((error) => !/status of 400/.test(error))).toEqual([]);
    await page.close();
  });

  it('shows a declined card as a failure that takes focus, and pays on retry with the same record', async () => {
    const { page, errors } = await openPage(forms.simple);
    await page.waitForSelector('#standin-card-number');
    await page.fill('#standin-card-number', DECLINED_CARD);
    await page.click('#pay-button');
    await page.waitForSelector('#failure:not([hidden])');
    expect(await page.textContent('#failure-message')).toBe('Your card was declined.');
    expect(await focusedId(page)).toBe('failure');
    expect(await seriousA11yViolations(page)).toEqual([]);
    const declined = await latestPayment(forms.simple);
    expect(declined.status).not.toBe('completed');

    await page.click('#retry-button');
    expect(await page.isVisible('#failure')).toBe(false);
    expect(await focusedId(page)).toBe('pay-button');
    await page.fill('#standin-card-number', GOOD_CARD);
    await page.click('#pay-button');
    await page.waitForSelector('#success:not([hidden])');
    const paid = await latestPayment(forms.simple);
    expect(paid).toMatchObject({ id: declined.id, status: 'completed', amount: 1000 });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('records the chosen method with a sync-details update: the element and the intent follow it (device wallet 1)', async () => {
    const { page, errors } = await openPage(forms.donation);
    await page.waitForSelector('#standin-card-number');
    await page.check('input[name="method"][value="gateway_a:device_wallet_1"]');
    await waitForExpression(page, 'window.__standinElements.filter((s) => !s.destroyed).length === 1 && window.__standinElements.length === 2');
    expect(await elementOptions(page)).toMatchObject({ options: { paymentMethodTypes: ['card'] }, element: { wallets: { applePay: 'auto', googlePay: 'never' } } });
    await page.fill('#standin-card-number', GOOD_CARD);
    fakeA.clearRequests();
    await page.click('#pay-button');
    await page.waitForSelector('#success:not([hidden])');
    const row = await latestPayment(forms.donation);
    expect(row).toMatchObject({ status: 'completed', payment_method: 'device_wallet_1' });
    expect(intentCreates().map((r) => [r.body.allowed_payment_method_types, r.body.metadata])).toEqual([[['card'], expect.objectContaining({ checkout_payment_method: 'device_wallet_1' })]]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('comes back from an authentication page through return_url: no secret of ours in any URL, the provider’s leaves the address bar, the payment completes', async () => {
    const { page, errors } = await openPage(forms.simple);
    await page.waitForSelector('#standin-card-number');
    await page.fill('#standin-card-number', REDIRECT_CARD);
    const urls: string[] = [];
    page.on('request', (req) => urls.push(req.url()));
    await page.click('#pay-button');
    await page.waitForSelector('#success:not([hidden])');
    const row = await latestPayment(forms.simple);
    expect(row).toMatchObject({ status: 'completed', amount_received: 1000 });
    expect(page.url()).toBe(`${appUrl}/pay/${forms.simple}`);
    const navigation = urls.find((url) => url.includes('payment_intent_client_secret'));
    // The provider appends its own intent id and client secret (as the real one does); ours (payment secret, checkout token) never travel in a URL.
    expect(navigation).toBeDefined();
    for (const url of urls) expect(url).not.toMatch(/payment_secret|checkout_token/);
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
    expect(await focusedId(page)).toBe('success');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('draws the page with the form stylesheets only: accent and layout applied, no CSP violation, no inline style allowed', async () => {
    const { page, errors } = await openPage(forms.donation);
    // The donation template's accent (#16a34a) reaches the button through /pay/assets/accent/16a34a.css.
    expect(await page.evaluate(`getComputedStyle(document.getElementById('pay-button')).backgroundColor`)).toBe('rgb(22, 163, 74)');
    // Only the chosen price's amount input shows; the gateway containers follow the chosen method.
    expect(await page.isVisible('.custom-amount input')).toBe(true);
    expect(await page.isVisible('#provider-gateway_b')).toBe(false);
    await page.check('input[name="method"][data-gateway="gateway_b"]');
    await page.waitForSelector('#standin-wallet-button');
    expect(await page.isVisible('#provider-gateway_a')).toBe(false);
    expect(await page.isVisible('#pay-button')).toBe(false);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("shows the builder's live preview under its strict CSP, styled by the same stylesheets, framed by its own origin only", async () => {
    const previewPath = `${t.base}/administration/payment-forms/${forms.donation}/live-preview`;
    const context = await browser.newContext({ extraHTTPHeaders: { Authorization: t.admin.auth } });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    const response = await page.goto(`${appUrl}${previewPath}`);
    expect(response?.status()).toBe(200);
    expect(await page.textContent('.preview-banner')).toBe('Preview: payments are disabled.');
    expect(await page.evaluate(`getComputedStyle(document.getElementById('pay-button')).backgroundColor`)).toBe('rgb(22, 163, 74)');
    expect(await page.isDisabled('#pay-button')).toBe(true);
    expect(errors).toEqual([]);

    // A page of the same origin may frame it (the admin console does); another origin may not.
    const framed = async (hostOrigin: string): Promise<string | null> => {
      await page.route(`${hostOrigin}/frame-host`, (route) => route.fulfill({ contentType: 'text/html', body: `<!doctype html><iframe src="${appUrl}${previewPath}"></iframe>` }));
      // The host's load event waits for its frame.
      await page.goto(`${hostOrigin}/frame-host`, { waitUntil: 'load' });
      const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
      return frame ? frame.evaluate('document.querySelector(".preview-banner") && document.querySelector(".preview-banner").textContent').catch(() => null) as Promise<string | null> : null;
    };
    expect(await framed(appUrl)).toBe('Preview: payments are disabled.');
    expect(errors).toEqual([]);
    const otherOrigin = appUrl.replace('127.0.0.1', 'localhost');
    // Refused by frame-ancestors 'self': the frame holds the browser's error page, not the preview.
    expect(await framed(otherOrigin)).toBeNull();
    await context.close();
  });

  it('pays with gateway B through its buttons: order, approval, capture, status', async () => {
    const { page, errors } = await openPage(forms.donation);
    await page.check('input[name="method"][data-gateway="gateway_b"]');
    await page.fill('.custom-amount input', '12');
    await page.waitForSelector('#standin-wallet-button');
    expect(await page.isVisible('#pay-button')).toBe(false);
    await page.click('#standin-wallet-button');
    await page.waitForSelector('#success:not([hidden])');
    expect(await page.textContent('#success-message')).toBe('Thank you for your generosity!');
    const row = await latestPayment(forms.donation);
    expect(row).toMatchObject({ status: 'completed', gateway: 'gateway_b', payment_method: 'standard_checkout', amount: 1200, currency: 'USD' });
    const order = fakeB.orders.get(String(row.provider_payment_ref))!;
    expect(order.status).toBe('COMPLETED');
    expect(JSON.stringify(order)).toContain('"value":"12.00"');
    expect(errors).toEqual([]);
    await page.close();
  });

  describe('embedded in a shop on another origin (EMBED_ORIGINS)', () => {
    async function openShop(formId: number, origin = shop.url): Promise<{ page: Page; frame: Frame; errors: string[] }> {
      const page = await browser.newPage({ viewport: { width: 1024, height: 900 } });
      const errors = collectPageErrors(page);
      await page.goto(`${origin}/product?form=${formId}`, { waitUntil: 'load' });
      const element = await page.waitForSelector('iframe.checkout-embed');
      const frame = (await element.contentFrame())!;
      return { page, frame, errors };
    }

    it('pays inside the frame: sized to the form by height messages, the same flow, focus and confirmation', async () => {
      const { page, frame, errors } = await openShop(forms.donation);
      await frame.waitForSelector('#standin-card-number');
      expect(frame.url()).toBe(`${appUrl}/pay/${forms.donation}?embed=1`);
      expect(await frame.evaluate('document.body.className')).toBe('form-page embedded');
      // The frame takes the height of the form inside it (no inner scroll bar), once the height message arrived.
      const heights = async () => [
        (await page.evaluate(`document.querySelector('iframe.checkout-embed').getBoundingClientRect().height`)) as number,
        (await frame.evaluate('Math.ceil(document.documentElement.getBoundingClientRect().height)')) as number,
      ];
      let [frameHeight, contentHeight] = await heights();
      for (let tries = 0; tries < 20 && Math.abs(frameHeight - contentHeight) > 1; tries++) {
        await page.waitForTimeout(100);
        [frameHeight, contentHeight] = await heights();
      }
      expect(Math.abs(frameHeight - contentHeight)).toBeLessThanOrEqual(1);
      expect(contentHeight).toBeGreaterThan(400);
      expect(await frame.textContent('#pay-button')).toBe('Donate $25.00');
      expect(await frame.isVisible('#test-mode')).toBe(true);
      await fillPayer(frame);
      await frame.fill('.custom-amount input', '30');
      await frame.fill('#field-dedication', 'From the shop');
      await frame.fill('#standin-card-number', GOOD_CARD);
      if (process.env.HOSTED_PAGE_EMBED_SCREENSHOT) await page.screenshot({ path: process.env.HOSTED_PAGE_EMBED_SCREENSHOT, fullPage: true });
      expect(await seriousA11yViolations(frame)).toEqual([]);
      await frame.click('#pay-button');
      await frame.waitForSelector('#success:not([hidden])');
      expect(await focusedId(frame)).toBe('success');
      expect(await frame.textContent('#success-amount')).toBe('Amount: $30.00');
      const row = await latestPayment(forms.donation);
      expect(row).toMatchObject({ status: 'completed', gateway: 'gateway_a', amount: 3000, amount_received: 3000 });
      // The frame grew or shrank with the confirmation; the shop page is still the shop's.
      expect(page.url()).toBe(`${shop.url}/product?form=${forms.donation}`);
      expect(errors).toEqual([]);
      await page.close();
    });

    it('hands a method that may leave the page to a new top-level tab of the hosted page, with the method chosen', async () => {
      const { page, frame, errors } = await openShop(forms.donation);
      await frame.waitForSelector('#standin-card-number');
      await fillPayer(frame);
      await frame.check('input[name="method"][value="gateway_a:regional_wallet_1"]');
      await waitForExpression(frame, 'window.__standinElements.length === 2');
      expect((await elementOptions(frame)).options).toMatchObject({ excludedPaymentMethodTypes: ['card', 'sepa_debit', 'us_bank_account'] });
      const before = await latestPayment(forms.donation);
      const [tab] = await Promise.all([page.context().waitForEvent('page'), frame.click('#pay-button')]);
      await tab.waitForLoadState('load');
      expect(tab.url()).toBe(`${appUrl}/pay/${forms.donation}`);
      expect(await tab.isChecked('input[name="method"][value="gateway_a:regional_wallet_1"]')).toBe(true);
      expect(await frame.textContent('#status')).toBe('The payment continues in a new tab.');
      // Nothing was created for the hand-off itself.
      expect(await latestPayment(forms.donation)).toEqual(before);
      expect(errors).toEqual([]);
      await tab.close();
      await page.close();
    });

    it('is refused in a page of an origin EMBED_ORIGINS does not list', async () => {
      const { page, frame } = await openShop(forms.donation, shop.url.replace('127.0.0.1', 'localhost'));
      // The browser blocks the frame (frame-ancestors): no form inside it.
      expect(await frame.$('#checkout-form').catch(() => null)).toBeNull();
      await page.close();
    });
  });
});
