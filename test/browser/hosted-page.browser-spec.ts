import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { connectGatewayA, connectGatewayB, type ConnectIo } from '../../src/cli-connect.js';
import { gatewayBWebhookUrl } from '../../src/modules/gateway-b/index.js';
import { type FakeGatewayA, startFakeGatewayA } from '../fakes/gateway-a/index.js';
import { type FakeGatewayB, startFakeGatewayB } from '../fakes/gateway-b/index.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { collectPageErrors, launchChromium } from './support/chromium.js';

const SECRET_KEY = 'sk_test_hostedPageBrowser1234567890';
const PUBLISHABLE_KEY = 'pk_test_hostedPageBrowser1234567890';
const GOOD_CARD = '4242424242424242';
const DECLINED_CARD = '4000000000000002';

/**
 * Stand-in for Stripe.js (window.Stripe → elements().create('card'), confirmCardPayment,
 * confirmCardSetup): its "card element" is one input; confirming posts the client secret and the
 * card number to the stand-in's origin, which confirms the intent at fake gateway A, as Stripe's
 * servers would.
 */
const STRIPE_STANDIN = `(function () {
  var origin = new URL(document.currentScript.src).origin;
  window.Stripe = function (publishableKey) {
    if (!/^pk_(test|live)_/.test(publishableKey)) throw new Error('stand-in Stripe.js: not a publishable key');
    var input = null;
    var element = {
      mount: function (selector) {
        input = document.createElement('input');
        input.id = 'standin-card-number';
        input.placeholder = 'Card number';
        input.autocomplete = 'cc-number';
        document.querySelector(selector).appendChild(input);
      },
    };
    function confirm(kind) {
      return function (clientSecret, data) {
        if (!data || !data.payment_method || data.payment_method.card !== element) return Promise.resolve({ error: { message: 'stand-in Stripe.js: no card element' } });
        return fetch(origin + '/gateway-a/confirm', {
          method: 'POST',
          headers: { 'Content-Type': 'text/plain' },
          body: JSON.stringify({ kind: kind, client_secret: clientSecret, publishable_key: publishableKey, card_number: input.value, billing_details: data.payment_method.billing_details }),
        }).then(function (response) { return response.json(); });
      };
    }
    return {
      elements: function () {
        return { create: function (type) { if (type !== 'card') throw new Error('stand-in Stripe.js: card only'); return element; } };
      },
      confirmCardPayment: confirm('payment'),
      confirmCardSetup: confirm('setup'),
    };
  };
})();`;

/**
 * Stand-in for PayPal's JS SDK (window.paypal.Buttons({...}).render()): one button; a click runs
 * onClick, createOrder, has fake gateway B's approval page approve the order, then onApprove.
 */
const PAYPAL_STANDIN = `(function () {
  var src = new URL(document.currentScript.src);
  window.paypal = {
    Buttons: function (options) {
      return {
        render: function (selector) {
          var button = document.createElement('button');
          button.type = 'button';
          button.id = 'standin-wallet-button';
          button.textContent = 'Wallet (' + src.searchParams.get('currency') + ')';
          button.addEventListener('click', async function () {
            var go = true;
            if (options.onClick) await options.onClick({}, { resolve: function () { return true; }, reject: function () { go = false; return false; } });
            if (!go) return;
            try {
              var orderId = await options.createOrder({}, {});
              var answer = await fetch(src.origin + '/gateway-b/approve', {
                method: 'POST',
                headers: { 'Content-Type': 'text/plain' },
                body: JSON.stringify({ order_id: orderId, client_id: src.searchParams.get('client-id') }),
              }).then(function (response) { return response.json(); });
              if (!answer.approved) return options.onCancel && options.onCancel({ orderID: orderId });
              await options.onApprove({ orderID: orderId }, {});
            } catch (error) {
              if (options.onError) options.onError(error);
            }
          });
          document.querySelector(selector).appendChild(button);
          return Promise.resolve();
        },
      };
    },
  };
})();`;

/** The stand-ins' origin: their scripts, and the provider-side confirm/approve the scripts call. */
async function startStandIns(fakeA: FakeGatewayA, fakeB: FakeGatewayB): Promise<{ url: string; server: Server; confirms: Array<Record<string, unknown>> }> {
  const confirms: Array<Record<string, unknown>> = [];
  const answer = (res: ServerResponse, status: number, body: unknown, type = 'application/json') => {
    res.writeHead(status, { 'Content-Type': type, 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'no-store' });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  const readJson = async (req: IncomingMessage): Promise<Record<string, string>> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, string>;
  };
  const server = createServer((req, res) => {
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://standin').pathname;
      if (req.method === 'GET' && path === '/v3/') return answer(res, 200, STRIPE_STANDIN, 'text/javascript');
      if (req.method === 'GET' && path === '/sdk/js') return answer(res, 200, PAYPAL_STANDIN, 'text/javascript');
      if (req.method === 'POST' && path === '/gateway-a/confirm') {
        const body = await readJson(req);
        confirms.push(body);
        const intentId = String(body.client_secret).split('_secret_')[0];
        const intent = fakeA.resources.get(intentId);
        if (!intent || intent.client_secret !== body.client_secret || body.publishable_key !== PUBLISHABLE_KEY) return answer(res, 200, { error: { type: 'invalid_request_error', message: 'No such intent.' } });
        const paymentMethod = body.card_number === GOOD_CARD ? 'pm_card_visa' : body.card_number === DECLINED_CARD ? 'pm_card_chargeDeclined' : null;
        if (!paymentMethod) return answer(res, 200, { error: { type: 'validation_error', message: 'Your card number is incomplete.' } });
        const kind = body.kind === 'setup' ? 'setup_intents' : 'payment_intents';
        const confirmed = await fetch(`${fakeA.url}/v1/${kind}/${intentId}/confirm`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${SECRET_KEY}`, 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ payment_method: paymentMethod }).toString(),
        });
        const result = (await confirmed.json()) as { id?: string; status?: string; error?: { message: string; type: string } };
        if (!confirmed.ok) return answer(res, 200, { error: { type: result.error?.type, message: result.error?.message } });
        return answer(res, 200, body.kind === 'setup' ? { setupIntent: { id: result.id, status: result.status } } : { paymentIntent: { id: result.id, status: result.status } });
      }
      if (req.method === 'POST' && path === '/gateway-b/approve') {
        const body = await readJson(req);
        if (body.client_id !== fakeB.clientId) return answer(res, 200, { approved: false });
        const page = await fetch(`${fakeB.url}/checkoutnow?token=${encodeURIComponent(body.order_id)}`, { redirect: 'manual' });
        return answer(res, 200, { approved: page.status === 200 || page.status === 302 });
      }
      answer(res, 404, { error: 'not found' });
    })().catch((error: unknown) => answer(res, 500, { error: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, confirms };
}

function silentIo(secrets: ConnectIo['secrets']): ConnectIo {
  return { secrets, prompt: async () => null, out: () => undefined, err: () => undefined };
}

/**
 * The hosted payment page in chromium against the gateway fakes (issue 15): the app in-process on
 * an ephemeral port, gateways connected with the CLI's connect commands, the providers' browser
 * libraries replaced by the stand-ins above (GATEWAY_A_JS_URL / GATEWAY_B_JS_URL).
 */
describe('hosted payment page in a browser', () => {
  let browser: Browser;
  let fakeA: FakeGatewayA;
  let fakeB: FakeGatewayB;
  let standIns: Awaited<ReturnType<typeof startStandIns>>;
  let t: TestApp;
  let appUrl: string;
  const forms: Record<'simple' | 'donation', number> = { simple: 0, donation: 0 };

  beforeAll(async () => {
    browser = await launchChromium();
    fakeA = await startFakeGatewayA();
    fakeB = await startFakeGatewayB({ environment: 'sandbox' });
    standIns = await startStandIns(fakeA, fakeB);
    t = await startTestApp({
      CHECKOUT_PLAN: 'pro',
      GATEWAY_A_API_BASE: fakeA.url,
      CHECKOUT_PROXY_URL: fakeA.url,
      GATEWAY_B_API_BASE_TEST: fakeB.url,
      GATEWAY_A_JS_URL: `${standIns.url}/v3/`,
      GATEWAY_B_JS_URL: `${standIns.url}/sdk/js`,
      RATE_LIMIT_NEW_PAYMENT: '1000',
      RATE_LIMIT_PUBLIC_PAYMENT: '1000',
      RECONCILE_INTERVAL_SECONDS: '0',
    });
    await t.app.listen(0, '127.0.0.1');
    appUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;

    // Connected as the README's five minutes do it: the CLI's connect commands.
    expect(await connectGatewayA(t.app, 'test', silentIo({ gatewayASecretKey: SECRET_KEY, gatewayAPublishableKey: PUBLISHABLE_KEY }))).toBe(0);
    fakeB.setWebhookListener(fakeB.webhookId, { url: gatewayBWebhookUrl(t.config, 'test'), eventTypes: ['PAYMENT.CAPTURE.COMPLETED'] });
    expect(await connectGatewayB(t.app, 'test', 'merchant@example.test', silentIo({ gatewayBClientId: fakeB.clientId, gatewayBClientSecret: fakeB.clientSecret, gatewayBWebhookId: fakeB.webhookId }))).toBe(0);
    await request(t.http).post(`${t.base}/payment-gateway/set-payment-methods`).set('Authorization', t.admin.auth).send({ gateway: 'gateway_b', methods: ['standard_checkout'] }).expect(200);

    for (const slug of ['simple-payment', 'donation'] as const) {
      const imported = await request(t.http).post(`${t.base}/administration/import-template`).set('Authorization', t.admin.auth).send({ type: 'form_template', slug }).expect(201);
      const id = imported.body.form_id as number;
      await request(t.http).put(`${t.base}/administration/payment-forms/${id}`).set('Authorization', t.admin.auth).send({ status: 'publish' }).expect(200);
      forms[slug === 'simple-payment' ? 'simple' : 'donation'] = id;
    }
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await new Promise((resolve) => standIns?.server.close(resolve));
    await fakeA?.stop();
    await fakeB?.stop();
  });

  async function openPage(formId: number): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.newPage();
    const errors = collectPageErrors(page);
    const response = await page.goto(`${appUrl}/pay/${formId}`);
    expect(response?.status()).toBe(200);
    await page.fill('#field-email_address', 'payer@example.test');
    await page.fill('#field-first_name', 'Ada');
    if (await page.$('#field-last_name')) await page.fill('#field-last_name', 'Lovelace');
    return { page, errors };
  }

  async function latestPayment(formId: number): Promise<Record<string, unknown>> {
    const [row] = await t.dataSource.query(`SELECT * FROM ${t.config.tablePrefix}checkout_payments WHERE form_id = ? ORDER BY id DESC LIMIT 1`, [formId]);
    return row as Record<string, unknown>;
  }

  const intentCreates = () => fakeA.requestsTo('POST', '/v1/payment_intents');

  it('pays a simple-payment form by card: the record completes and the success message shows', async () => {
    const { page, errors } = await openPage(forms.simple);
    expect(await page.textContent('#form-title')).toBe('Simple payment');
    expect(await page.textContent('.price-label')).toBe('$10.00');
    await page.waitForSelector('#standin-card-number');
    if (process.env.HOSTED_PAGE_SCREENSHOT) {
      await page.fill('#standin-card-number', GOOD_CARD);
      await page.screenshot({ path: process.env.HOSTED_PAGE_SCREENSHOT, fullPage: true });
    }
    await page.fill('#standin-card-number', GOOD_CARD);
    fakeA.clearRequests();
    await page.click('#pay-button');
    await page.waitForSelector('#success:not([hidden])');
    expect(await page.textContent('#success-message')).toBe('Thank you! Your payment was received.');
    expect(await page.isVisible('#failure')).toBe(false);

    const row = await latestPayment(forms.simple);
    expect(row).toMatchObject({ status: 'completed', gateway: 'gateway_a', payment_method: 'ccard', amount: 1000, currency: 'USD', amount_received: 1000, email_address: 'payer@example.test' });
    expect(intentCreates().map((r) => r.body.amount)).toEqual(['1000']);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('pays a donation with a custom amount within the bounds', async () => {
    const { page, errors } = await openPage(forms.donation);
    expect(await page.textContent('.price-label')).toContain('Any amount from');
    await page.fill('.custom-amount input', '25.50');
    await page.fill('#field-dedication', 'For the library');
    await page.waitForSelector('#standin-card-number');
    await page.fill('#standin-card-number', GOOD_CARD);
    fakeA.clearRequests();
    await page.click('#pay-button');
    await page.waitForSelector('#success:not([hidden])');
    expect(await page.textContent('#success-message')).toBe('Thank you for your generosity!');
    const row = await latestPayment(forms.donation);
    expect(row).toMatchObject({ status: 'completed', amount: 2550, amount_received: 2550, currency: 'USD' });
    expect(JSON.parse(String(row.custom_fields))).toEqual({ dedication: 'For the library' });
    expect(intentCreates().map((r) => r.body.amount)).toEqual(['2550']);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('charges what the form says whatever the page is made to send (a tampered price)', async () => {
    const { page, errors } = await openPage(forms.simple);
    await page.waitForSelector('#standin-card-number');
    // The payer edits the page: the fixed price now "is" a custom amount of $0.01 in JPY.
    // (A string: this file is type-checked without the DOM library.)
    await page.evaluate(`(() => {
      const price = document.querySelector('input[name="price"]');
      price.dataset.customMin = '1';
      price.dataset.currency = 'JPY';
      document.querySelector('.price-label').textContent = '$0.01';
      const label = document.createElement('label');
      label.className = 'custom-amount';
      label.dataset.for = price.id;
      label.innerHTML = '<input type="number" value="0.01">';
      price.closest('fieldset').appendChild(label);
    })()`);
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
    expect(errors).toEqual([]);
    await page.close();
  });

  it('refuses a donation amount below the bounds even when the page lets it through', async () => {
    const { page, errors } = await openPage(forms.donation);
    await page.waitForSelector('#standin-card-number');
    await page.evaluate(`document.querySelector('.custom-amount input').removeAttribute('min')`);
    await page.fill('.custom-amount input', '0.50');
    await page.fill('#standin-card-number', GOOD_CARD);
    const before = await latestPayment(forms.donation);
    fakeA.clearRequests();
    await page.click('#pay-button');
    await page.waitForSelector('#failure:not([hidden])');
    expect(await page.textContent('#failure-message')).toContain('amount');
    expect(await latestPayment(forms.donation)).toEqual(before);
    expect(fakeA.requests).toEqual([]);
    // The browser logs the refused request (400) itself; nothing else went wrong.
    expect(errors.filter((error) => !/status of 400/.test(error))).toEqual([]);
    await page.close();
  });

  it('shows a declined card as a clear failure and pays on retry with the same record', async () => {
    const { page, errors } = await openPage(forms.simple);
    await page.waitForSelector('#standin-card-number');
    await page.fill('#standin-card-number', DECLINED_CARD);
    await page.click('#pay-button');
    await page.waitForSelector('#failure:not([hidden])');
    expect(await page.textContent('#failure-message')).toBe('Your card was declined.');
    const declined = await latestPayment(forms.simple);
    expect(declined.status).not.toBe('completed');

    await page.click('#retry-button');
    expect(await page.isVisible('#failure')).toBe(false);
    await page.fill('#standin-card-number', GOOD_CARD);
    await page.click('#pay-button');
    await page.waitForSelector('#success:not([hidden])');
    const paid = await latestPayment(forms.simple);
    expect(paid).toMatchObject({ id: declined.id, status: 'completed', amount: 1000 });
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
});
