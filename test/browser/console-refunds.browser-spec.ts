import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { PaymentRepository } from '../../src/modules/payments/payment.repository.js';
import { type FakeGatewayA, startFakeGatewayA } from '../fakes/gateway-a/index.js';
import { createIntent, createRecord, finishCheckout, gatewayClient } from '../support/gateway-a-checkout.js';
import { connectThroughProxy, TEST_ADMIN_URL } from '../support/gateway-a.js';
import { createPaymentForm } from '../support/payment-fixtures.js';
import { GatewayStateService } from '../../src/modules/gateways/index.js';
import { AccountService } from '../../src/modules/identity/index.js';
import { launchChromium } from './support/chromium.js';
import { type ConsoleApp, openConsole, openFilters, overflowsHorizontally, seriousA11yViolations, signIn, startConsoleApp } from './support/console.js';

/**
 * The console's money after the payment (issue 29): a partial refund through the Refund dialog of
 * a completed gateway-A payment, at desktop and 375 px width, reaching the provider once even on a
 * double click, then shown in the payment's refunds and as a badge in the list; a user without the
 * refund capability sees no Refund action. Resend receipt: confirmed, then said in the merchant's
 * words, at both widths.
 */
describe('admin console: refunds', () => {
  let browser: Browser;
  let fake: FakeGatewayA;
  let app: ConsoleApp;
  let formId: number;
  let subscriptionForm: Awaited<ReturnType<typeof createPaymentForm>>;

  /** A EUR 20.00 PaymentIntent paid at the fake and the completed record holding it, as a webhook would have left it. */
  async function paidPayment(): Promise<{ id: number; intent: string }> {
    const client = await gatewayClient(app.t);
    const intent = await client.paymentIntents.create({ amount: 2000, currency: 'eur', confirm: true, payment_method: 'pm_card_visa' });
    expect(intent.status).toBe('succeeded');
    const payment = await app.t.app.get(PaymentRepository).insert(app.t.dataSource.manager, {
      formId,
      gateway: 'gateway_a',
      paymentMethod: 'ccard',
      mode: 'test',
      status: 'completed',
      amount: 2000,
      amountReceived: 2000,
      currency: 'EUR',
      frequency: 'one-time',
      secretNonce: randomBytes(32).toString('base64url'),
      emailAddress: 'payer@example.test',
      firstName: 'Pat',
      providerPaymentRef: intent.id,
      // The card its charge names, as checkout or the webhook store it.
      cardBrand: 'visa',
      cardLast4: '4242',
    });
    return { id: payment.id, intent: intent.id };
  }

  /** The refunds the provider's API lists for the PaymentIntent. */
  async function refundedAtProvider(intent: string): Promise<Array<{ amount: number; status: string | null }>> {
    const client = await gatewayClient(app.t);
    const { data } = await client.refunds.list({ payment_intent: intent });
    return data.map((refund) => ({ amount: refund.amount, status: refund.status }));
  }

  async function openPayment(page: Page, id: number): Promise<void> {
    await page.goto(`${app.origin}/admin/payments/${id}`);
    await page.getByRole('heading', { level: 1, name: `Payment #${id}` }).waitFor();
  }

  beforeAll(async () => {
    browser = await launchChromium();
    fake = await startFakeGatewayA();
    app = await startConsoleApp({ GATEWAY_A_API_BASE: fake.url, CHECKOUT_PROXY_URL: fake.url, ADMIN_URL: TEST_ADMIN_URL, RECONCILE_INTERVAL_SECONDS: '0' });
    // Connected as a merchant does (OAuth through the proxy, the webhook contract verified): subscriptions need it.
    expect((await connectThroughProxy({ t: app.t, fake, close: async () => {} }, 'test')).searchParams.get('gateway_a_webhook')).toBe('verified');
    await app.t.app.get(GatewayStateService).setActiveMethods('gateway_a', ['ccard']);
    formId = (await createPaymentForm(app.t)).id;
    subscriptionForm = await createPaymentForm(app.t, { plans: [{ title: 'Monthly', prices: [{ amount: 999, currency: 'EUR', frequency: 'm_1' }] }] });
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await fake?.stop();
  });

  it.each([1280, 375])('refunds part of a payment through the dialog at %i px, once on a double click, and shows it', async (width) => {
    const payment = await paidPayment();
    const { page, context, errors } = await openConsole(browser, app, width);
    await signIn(page);
    await openPayment(page, payment.id);
    await page.getByText('Refundable').waitFor();
    // The card that paid, by brand and last four digits, among the payment's facts.
    await page.locator('dt', { hasText: /^Card$/ }).locator('xpath=following-sibling::dd[1]').filter({ hasText: 'Visa ending 4242' }).waitFor();

    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Refund payment #${payment.id}` });
    await dialog.waitFor();
    const amount = dialog.getByLabel('Amount to refund (EUR)');
    // Prefilled with all that is refundable, in major units; focus starts there.
    expect(await amount.inputValue()).toBe('20.00');
    expect(await amount.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(await overflowsHorizontally(page)).toBe(false);

    // What EUR cannot hold is refused at the field, not rounded.
    await amount.fill('12.505');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.getByText('EUR amounts cannot have that many decimals.').waitFor();
    expect(await amount.getAttribute('aria-invalid')).toBe('true');

    await amount.fill('12.50');
    await dialog.getByLabel('Reason').selectOption('requested_by_customer');
    await dialog.getByLabel('Internal note (optional)').fill('Asked by phone');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.getByText('Refund €12.50 to the payer?').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    await dialog.getByRole('button', { name: 'Refund €12.50' }).dblclick();
    await page.getByRole('status').getByText('€12.50 refunded.').waitFor();
    expect(await dialog.isVisible()).toBe(false);
    // Focus is back on what opened the dialog.
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Refund');

    const refunds = page.getByRole('region', { name: 'Refunds' });
    await refunds.getByText('€12.50').waitFor();
    await refunds.getByText('Refunded', { exact: true }).waitFor();
    await refunds.getByText(/This console · by you · The customer asked for it/).waitFor();
    await refunds.getByText('Note: Asked by phone').waitFor();
    // The payment log says it in a sentence; the raw line is folded under Details.
    const log = page.getByRole('region', { name: 'Payment log' });
    await log.getByText('Refund of €12.50 by you.').waitFor();
    const raw = log.locator('details', { has: page.getByText('Details of “Refund of €12.50 by you.”') });
    expect(await raw.getByText('refund_requested', { exact: true }).isVisible()).toBe(false);
    await raw.locator('summary').click();
    await raw.getByText('refund_requested', { exact: true }).waitFor();
    await page.getByText('Partially refunded').first().waitFor();
    // The provider refunded once, the amount asked.
    expect(await refundedAtProvider(payment.intent)).toEqual([{ amount: 1250, status: 'succeeded' }]);
    expect(await overflowsHorizontally(page)).toBe(false);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // A second confirmed dialog is a second refund: it carries a fresh Idempotency-Key (the first
    // one's key with another body would be refused, with the same body it would answer the first refund).
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    await dialog.waitFor();
    expect(await amount.inputValue()).toBe('7.50');
    await amount.fill('5');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.getByRole('button', { name: 'Refund €5.00' }).click();
    await page.getByRole('status').getByText('€5.00 refunded.').waitFor();
    // Newest first, as the provider lists them.
    expect(await refundedAtProvider(payment.intent)).toEqual([
      { amount: 500, status: 'succeeded' },
      { amount: 1250, status: 'succeeded' },
    ]);

    // The list, filtered to partially refunded payments through the list kit, shows the badge.
    await page.goto(`${app.origin}/admin/payments`);
    await page.getByRole('heading', { level: 1, name: 'Payments' }).waitFor();
    await openFilters(page);
    await page.getByLabel('Refunds').selectOption('partial');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/refunded=partial/);
    const row = page.getByRole('row', { name: new RegExp(`#${payment.id}\\b`) });
    await row.getByText('Partially refunded').waitFor();
    expect(await overflowsHorizontally(page)).toBe(false);
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('cancels a subscription at the end of its period, then now, after a confirmation, at 375 px', async () => {
    const record = await createRecord(app.t, subscriptionForm, { plan_index: 0, price_index: 0 });
    const intent = await createIntent(app.t, record);
    expect(intent.body).toMatchObject({ intent_id: expect.any(String) });
    await (await gatewayClient(app.t)).setupIntents.confirm(intent.body.intent_id, { payment_method: 'pm_card_visa' });
    expect((await finishCheckout(app.t, record, { intent_id: intent.body.intent_id })).body.status).toBe('completed');
    const id = record.sync.payment_id;

    const { page, context, errors } = await openConsole(browser, app, 375);
    await signIn(page);
    await openPayment(page, id);
    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel the subscription?' });
    await dialog.waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(await overflowsHorizontally(page)).toBe(false);
    // At the end of the period already paid (the default): the detail says when it ends.
    await dialog.getByRole('button', { name: 'Cancel subscription' }).click();
    await page.getByRole('status').getByText('The subscription ends at the end of the period already paid.').waitFor();
    await page.getByText(/^Cancels on \d/).waitFor();
    // Already scheduled: only "now" is offered.
    await page.getByRole('button', { name: 'Cancel subscription now' }).click();
    await dialog.waitFor();
    expect(await dialog.getByRole('radio').count()).toBe(0);
    await dialog.getByText(/already set to end with the period paid/).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel subscription' }).click();
    await page.getByRole('status').getByText('The subscription is canceled.').waitFor();
    // Canceled: the action is gone, the provider's word is shown.
    expect(await page.getByRole('button', { name: /Cancel subscription/ }).count()).toBe(0);
    await page.getByText('canceled', { exact: true }).waitFor();
    expect(await page.getByText(/^Cancels on /).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it.each([1280, 375])('resends the receipt after a confirmation at %i px and says so in the merchant\'s words', async (width) => {
    const payment = await paidPayment();
    const { page, context, errors } = await openConsole(browser, app, width);
    await signIn(page);
    await openPayment(page, payment.id);
    await page.getByRole('button', { name: 'Resend receipt' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send the receipt again?' });
    await dialog.getByText('payer@example.test').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(await overflowsHorizontally(page)).toBe(false);
    await dialog.getByRole('button', { name: 'Send receipt' }).click();
    await page.getByRole('status').getByText('The receipt is on its way to payer@example.test.').waitFor();
    await page.getByRole('region', { name: 'Payment log' }).getByText('You had the receipt sent again.').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows no Refund action to a user without the refund capability', async () => {
    const payment = await paidPayment();
    const viewer = await app.t.createUser('viewer');
    // With an account password: one without is asked to choose one first (console-accounts.browser-spec.ts).
    await app.t.app.get(AccountService).setPassword(viewer.id, 'the viewer account password');
    const { page, context, errors } = await openConsole(browser, app, 375);
    await signIn(page, viewer.login, 'the viewer account password');
    await openPayment(page, payment.id);
    await page.getByText('Refundable').waitFor();
    expect(await page.getByRole('button', { name: 'Refund', exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Cancel subscription' }).count()).toBe(0);
    // Nor Resend receipt: viewers do not hold resend_checkout_receipts.
    expect(await page.getByRole('button', { name: 'Resend receipt' }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
