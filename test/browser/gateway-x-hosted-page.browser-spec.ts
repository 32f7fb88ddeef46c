import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { FakeGatewayX } from '../gateway-x/fake/fake-gateway-x.js';
import { GatewayXModule } from '../gateway-x/gateway-x.module.js';
import { gatewayXOption } from '../gateway-x/gateway-x-options.js';
import { OptionsService } from '../../src/modules/settings/index.js';
import { validSettings } from '../support/form-fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { collectPageErrors, launchChromium, waitForExpression } from './support/chromium.js';
import { seriousA11yViolations } from './support/console.js';

const SIGNING_SECRET = 'xwhsec_0123456789abcdefABCDEF';
const API_KEY = 'xsk_test_0123456789';

/**
 * The test-only gateway X (test/gateway-x/) on the hosted page in chromium: the page, which names
 * no gateway, loads the slice's driver bundle by the name its adapter gives, the driver loads the
 * fake provider's library under the page's CSP and pays through the slice's route; the slice's
 * signed webhook then completes the payment. Issue 28 item 2's proof that a gateway's driver is
 * part of its folder.
 */
describe('hosted page paying through the test-only gateway X', () => {
  let browser: Browser;
  let fake: FakeGatewayX;
  let t: TestApp;
  let appUrl: string;
  let formId: number;

  beforeAll(async () => {
    browser = await launchChromium();
    fake = await FakeGatewayX.start();
    fake.apiKeys.add(API_KEY);
    t = await startTestApp({ RATE_LIMIT_NEW_PAYMENT: '1000', RATE_LIMIT_PUBLIC_PAYMENT: '1000', RECONCILE_INTERVAL_SECONDS: '0' }, { modules: [GatewayXModule.register({ url: fake.url })] });
    await t.app.listen(0, '127.0.0.1');
    appUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    const options = t.app.get(OptionsService);
    await options.set(gatewayXOption.publicId('test'), 'xpk_test_1');
    await options.setSecret(gatewayXOption.apiKey('test'), API_KEY);
    const admin = (path: string, body: object) => request(t.http).post(`${t.base}${path}`).set('Authorization', t.admin.auth).send(body);
    await admin('/payment-gateway/save-webhook-settings', { gateway: 'gateway_x', mode: 'test', signing_secret: SIGNING_SECRET }).expect(200);
    const form = await admin('/administration/payment-forms', { title: 'Gateway X form', status: 'publish', settings: validSettings({ payment_methods: { gateway_x: ['x_card'] } }) }).expect(201);
    formId = form.body.id;
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await fake?.stop();
  });

  async function openPage(): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.newPage();
    const errors = collectPageErrors(page);
    expect((await page.goto(`${appUrl}/pay/${formId}`))?.status()).toBe(200);
    await page.fill('#field-email_address', 'payer@example.test');
    await page.fill('#field-first_name', 'Ada');
    // The driver mounted the provider library's card field in the gateway's container.
    await page.waitForSelector('#mount-gateway_x input[name="x-card-number"]');
    return { page, errors };
  }

  const latestPayment = async (): Promise<Record<string, unknown>> => {
    const [row] = await t.dataSource.query(`SELECT * FROM ${t.config.tablePrefix}checkout_payments WHERE form_id = ? ORDER BY id DESC LIMIT 1`, [formId]);
    return row as Record<string, unknown>;
  };

  it("loads the slice's driver, pays through its route, and the signed webhook completes the payment", async () => {
    const { page, errors } = await openPage();
    expect(await page.getAttribute('#provider-gateway_x', 'data-driver')).toBe('x_test_card');
    expect(await page.textContent('#pay-button')).toBe('Pay $15.00');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.fill('#mount-gateway_x input[name="x-card-number"]', '4242 4242 4242 4242');
    await page.click('#pay-button');
    await waitForExpression(page, "document.body.innerText.includes('Your payment is being processed')");

    const row = await latestPayment();
    expect(row).toMatchObject({ status: 'processing', gateway: 'gateway_x', payment_method: 'x_card', amount: 1500, currency: 'USD', email_address: 'payer@example.test' });
    const charge = fake.charges.get(String(row.provider_payment_ref))!;
    expect(charge).toMatchObject({ amount: 1500, currency: 'usd', metadata: { payment_id: String(row.id) } });
    // Exactly the slice's route, with the token the provider's library made in the browser.
    expect(fake.exchanges.filter((exchange) => exchange.path === '/v1/charges').map((exchange) => (exchange.body as { token: string }).token)).toEqual([expect.stringMatching(/^xtok_ok[a-f0-9]{12}$/)]);

    const delivery = fake.signedEvent('charge.succeeded', charge.id, SIGNING_SECRET);
    const req = request(t.http).post(`${t.base}/webhook/gateway-x-callback/test`).set('Content-Type', 'application/json');
    for (const [name, value] of Object.entries(delivery.headers)) req.set(name, value);
    expect((await req.send(delivery.rawBody.toString('utf8')).expect(200)).body.outcome).toBe('processed');
    expect(await latestPayment()).toMatchObject({ id: row.id, status: 'completed', amount_received: 1500 });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows the failure when the card is declined, and the payment is failed', async () => {
    const { page, errors } = await openPage();
    await page.fill('#mount-gateway_x input[name="x-card-number"]', '4000 0000 0000 0002');
    await page.click('#pay-button');
    await waitForExpression(page, "document.body.innerText.includes('The payment did not go through')");
    expect(await latestPayment()).toMatchObject({ status: 'failed', gateway: 'gateway_x' });
    expect(errors).toEqual([]);
    await page.close();
  });
});
