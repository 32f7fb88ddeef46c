import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { connectGatewayA } from '../../src/modules/gateway-a/index.js';
import { GatewayStateService, type ConnectIo } from '../../src/modules/gateways/index.js';
import { PayerLinks } from '../../src/modules/payer-links/index.js';
import { type FakeGatewayA, startFakeGatewayA } from '../fakes/gateway-a/index.js';
import { type FakeGatewayB, startFakeGatewayB } from '../fakes/gateway-b/index.js';
import { createIntent, createRecord, finishCheckout, gatewayClient } from '../support/gateway-a-checkout.js';
import { createPaymentForm } from '../support/payment-fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { collectPageErrors, launchChromium } from './support/chromium.js';
import { seriousA11yViolations } from './support/console.js';
import { GOOD_CARD, PUBLISHABLE_KEY, SECRET_KEY, startStandIns } from './support/gateway-standins.js';

function silentIo(env: NodeJS.ProcessEnv): ConnectIo {
  return { env, prompt: async () => null, out: () => undefined, err: () => undefined };
}

/**
 * The payer's manage page in chromium (issue 31): from the link, a past-due subscription's card is
 * changed in the Payment Element stand-in (its open invoice paid with it) and the subscription is
 * cancelled at the period's end, axe-clean at 1280 and 375 px, no console error (the strict CSP holds).
 */
describe("the payer's manage page in a browser", () => {
  let browser: Browser;
  let fakeA: FakeGatewayA;
  let fakeB: FakeGatewayB;
  let standIns: Awaited<ReturnType<typeof startStandIns>>;
  let t: TestApp;
  let appUrl: string;
  let formId: number;

  beforeAll(async () => {
    browser = await launchChromium();
    fakeA = await startFakeGatewayA();
    fakeB = await startFakeGatewayB({ environment: 'sandbox' });
    standIns = await startStandIns(fakeA, fakeB);
    t = await startTestApp({ GATEWAY_A_API_BASE: fakeA.url, CHECKOUT_PROXY_URL: fakeA.url, GATEWAY_A_JS_URL: `${standIns.url}/v3/`, RECONCILE_INTERVAL_SECONDS: '0' });
    await t.app.listen(0, '127.0.0.1');
    appUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    expect(await connectGatewayA(t.app, 'test', silentIo({ GATEWAY_A_SECRET_KEY: SECRET_KEY, GATEWAY_A_PUBLISHABLE_KEY: PUBLISHABLE_KEY }))).toBe(0);
    await t.app.get(GatewayStateService).setActiveMethods('gateway_a', ['ccard']);
    formId = (await createPaymentForm(t, { plans: [{ title: 'Monthly', prices: [{ amount: 1500, currency: 'USD', frequency: 'm_1' }] }] })).id;
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await new Promise((resolve) => standIns?.server.close(resolve));
    await fakeA?.stop();
    await fakeB?.stop();
  });

  /** A subscription of `email`, its latest renewal declined: past due with an open invoice. */
  async function pastDue(email: string): Promise<{ id: number; subscription: Record<string, unknown>; invoice: string }> {
    const form = { id: formId } as Parameters<typeof createRecord>[1];
    const record = await createRecord(t, form, { plan_index: 0, price_index: 0, email_address: email });
    const intent = await createIntent(t, record);
    await (await gatewayClient(t)).setupIntents.confirm(intent.body.intent_id, { payment_method: 'pm_card_mastercard' });
    expect((await finishCheckout(t, record, { intent_id: intent.body.intent_id })).body.status).toBe('completed');
    const [row] = await t.dataSource.query(`SELECT provider_subscription_ref FROM ${t.config.tablePrefix}checkout_payments WHERE id = ?`, [record.sync.payment_id]);
    const subscription = fakeA.resources.get(row.provider_subscription_ref as string)!;
    subscription.default_payment_method = 'pm_card_chargeDeclined';
    const invoice = fakeA.resources.renewSubscription(subscription.id as string);
    return { id: record.sync.payment_id, subscription, invoice: invoice.id as string };
  }

  async function expectAccessible(page: Page): Promise<void> {
    expect(await seriousA11yViolations(page)).toEqual([]);
  }

  for (const width of [1280, 375]) {
    it(`changes the card of a past-due subscription, then cancels it at the period's end (${width} px)`, async () => {
      const email = `browser-${width}@example.test`;
      const { id, subscription, invoice } = await pastDue(email);
      expect(subscription.status).toBe('past_due');
      const token = await t.app.get(PayerLinks).issue(email);
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      const errors = collectPageErrors(page);
      expect((await page.goto(`${appUrl}/pay/manage/${token}`))?.status()).toBe(200);
      await page.getByRole('heading', { level: 1, name: 'Your payments' }).waitFor();
      await expectAccessible(page);

      // The card: the Payment Element stand-in in setup mode, a good card, the page's form posts the confirmed setup.
      await page.getByRole('link', { name: `Change card of payment ${id}` }).click();
      await page.getByRole('heading', { level: 1, name: 'Change the card' }).waitFor();
      await page.waitForSelector('#standin-card-number');
      await expectAccessible(page);
      // The element speaks the page's language (the stand-in keeps the options it was made with).
      expect(await page.evaluate('window.__standinElements[0].options')).toMatchObject({ mode: 'setup', paymentMethodTypes: ['card'], locale: 'en' });
      await page.fill('#standin-card-number', GOOD_CARD);
      await page.getByRole('button', { name: 'Save this card' }).click();
      await page.getByText('the payment that was due has been made').waitFor();
      expect(subscription.default_payment_method).toBe('pm_card_visa');
      expect(fakeA.resources.get(invoice)).toMatchObject({ status: 'paid' });
      expect(subscription.status).toBe('active');
      await expectAccessible(page);

      // Cancel: the confirmation step, then the provider schedules the end.
      await page.getByRole('link', { name: `Cancel subscription of payment ${id}` }).click();
      await page.getByRole('heading', { level: 1, name: 'Cancel this subscription?' }).waitFor();
      await expectAccessible(page);
      await page.getByRole('button', { name: 'Cancel at the end of the period' }).click();
      await page.getByText('Your subscription will end at the end of the period already paid.').waitFor();
      expect(subscription.cancel_at_period_end).toBe(true);
      expect(await page.getByRole('link', { name: `Cancel subscription of payment ${id}` }).count()).toBe(0);
      await expectAccessible(page);

      // The receipt prints.
      await page.getByRole('link', { name: `Receipt of payment ${id}` }).click();
      await page.getByRole('heading', { level: 1, name: 'Receipt' }).waitFor();
      await expectAccessible(page);
      expect(errors).toEqual([]);
      await page.close();
    });
  }
});
