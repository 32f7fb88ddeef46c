import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { gatewayBOption } from '../../src/modules/gateway-b/index.js';
import { PaymentDisputeEntity } from '../../src/modules/payments/payment-dispute.entity.js';
import type { PaymentEntity } from '../../src/modules/payments/payment.entity.js';
import { PaymentRepository } from '../../src/modules/payments/payment.repository.js';
import { RefundEntity } from '../../src/modules/payments/refunds/refund.entity.js';
import { OptionsService } from '../../src/modules/settings/index.js';
import { connectGateway } from '../support/payment-fixtures.js';
import { launchChromium } from './support/chromium.js';
import { type ConsoleApp, openConsole, overflowsHorizontally, seriousA11yViolations, signIn, startConsoleApp } from './support/console.js';

/** Where screenshots go when CONSOLE_SCREENSHOTS names a folder (for a person to look at). */
async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.CONSOLE_SCREENSHOTS) await page.screenshot({ path: `${process.env.CONSOLE_SCREENSHOTS}/${name}.png`, fullPage: true });
}

const HOUR = 3_600_000;

/**
 * Money on the dashboard and the guarded live switch (issue 30 items 3 and 4), in chromium at 1280
 * and 375 px: the last 30 days per mode and currency with a daily chart, each figure a link to the
 * payments list whose totals show the same figure; the live switch offered only once live mode is
 * connected with its webhook set up, otherwise naming what is missing with a link to it, and a
 * confirmation saying what changes for payers, both ways. axe-clean, no sideways scroll, no
 * console error (a CSP violation would be one).
 */
describe('admin console: money on the dashboard, the guarded live switch', () => {
  let browser: Browser;
  let app: ConsoleApp;
  let gatewayB: { id: string; label: string };

  beforeAll(async () => {
    browser = await launchChromium();
    app = await startConsoleApp();
    const { t } = app;
    const repository = t.app.get(PaymentRepository);
    const insert = (values: Partial<PaymentEntity> & Pick<PaymentEntity, 'mode' | 'status' | 'amount' | 'currency'>, hoursAgo: number) =>
      t.dataSource.transaction(async (manager) => {
        const at = new Date(Date.now() - hoursAgo * HOUR);
        return (await repository.insert(manager, { gateway: 'gateway_a', paymentMethod: 'ccard', frequency: 'one-time', secretNonce: randomBytes(32).toString('base64url'), createdAt: at, updatedAt: at, ...values })).id;
      });
    // Live USD: 150.00 received, 25.00 refunded, 50.00 lost in a dispute: net 75.00. Live EUR 20.00; test USD 10.00; one failed.
    const refunded = await insert({ mode: 'live', status: 'completed', amount: 10000, amountReceived: 10000, amountRefunded: 2500, currency: 'USD', emailAddress: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' }, 50);
    const disputed = await insert({ mode: 'live', status: 'completed', amount: 5000, amountReceived: 5000, currency: 'USD', emailAddress: 'grace@example.com', dispute: { status: 'lost', amount: 5000, reason: 'fraudulent', evidence_due_by: null, provider_dispute_id: 'du_console_money' } }, 100);
    await insert({ mode: 'live', status: 'completed', amount: 2000, amountReceived: 2000, currency: 'EUR', emailAddress: 'eur@example.com' }, 200);
    await insert({ mode: 'test', status: 'completed', amount: 1000, amountReceived: 1000, currency: 'USD', emailAddress: 'test@example.com' }, 3);
    await insert({ mode: 'live', status: 'failed', amount: 4000, currency: 'USD', emailAddress: 'declined@example.com', failureReason: { code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' } }, 1);
    const at = new Date();
    await t.dataSource.getRepository(RefundEntity).insert({
      paymentId: refunded, gateway: 'gateway_a', mode: 'live', currency: 'USD', amount: 2500, status: 'succeeded', reason: null, note: null, source: 'provider', providerRefundId: 're_console_money',
      applicationFeeRefunded: null, createdBy: null, failureCode: null, failureMessage: null, rowNonce: 'c'.repeat(43), createdAt: at, updatedAt: at,
    });
    await t.dataSource.getRepository(PaymentDisputeEntity).insert({
      paymentId: disputed, gateway: 'gateway_a', providerDisputeId: 'du_console_money', status: 'lost', amount: 5000, currency: 'USD', reason: 'fraudulent', evidenceDueBy: null,
      dashboardUrl: 'https://dashboard.stripe.com/disputes/du_console_money', openedAt: at, updatedAt: at,
    });

    // Gateway B (its webhook set-up is a saved Webhook ID): connected in test mode only, to start with.
    await connectGateway(t, 'gateway_b', 'test');
    const catalog = await request(t.http).get(`${t.base}/payment-gateway/catalog`).set('Authorization', t.admin.auth).expect(200);
    gatewayB = catalog.body.gateways.find((gateway: { id: string }) => gateway.id === 'gateway_b');
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  const modeOf = async (gateway: string) => {
    const res = await request(app.t.http).get(`${app.t.base}/administration/dashboard`).set('Authorization', app.t.admin.auth).expect(200);
    return res.body.payment_gateways[gateway].mode as string;
  };

  describe.each([1280, 375])('at %i px', (width) => {
    it('shows the last 30 days per mode and currency; a figure leads to the payments list, whose totals show it again', async () => {
      const { page, context, errors } = await openConsole(browser, app, width);
      await signIn(page);
      const moneyCard = page.getByRole('region', { name: 'Money in the last 30 days' });
      const liveUsd = moneyCard.getByRole('region', { name: 'Live payments in USD' });
      await liveUsd.waitFor();
      // Net 75.00 = 150.00 − 25.00 refunded − 50.00 lost in a dispute; formatted in the payment's currency.
      const net = liveUsd.getByRole('link', { name: /^\$75\.00 net, Live USD/ });
      await net.waitFor();
      await liveUsd.getByRole('link', { name: /^\$150\.00 gross/ }).waitFor();
      await liveUsd.getByRole('link', { name: /^\$25\.00 refunded/ }).waitFor();
      await liveUsd.getByRole('link', { name: /^1 failed payments/ }).waitFor();
      await liveUsd.getByRole('img', { name: 'Gross per day' }).waitFor();
      await moneyCard.getByRole('region', { name: 'Live payments in EUR' }).getByRole('link', { name: /^€20\.00 net/ }).waitFor();
      await moneyCard.getByRole('region', { name: 'Test payments in USD' }).waitFor();
      const failed = moneyCard.getByRole('region', { name: 'Failed payments' });
      await failed.getByText('Your card has insufficient funds.').waitFor();
      await moneyCard.getByRole('region', { name: 'Latest payments' }).getByRole('link', { name: /^\$10\.00 payment #/ }).waitFor();
      expect(await overflowsHorizontally(page)).toBe(false);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await screenshot(page, `console-dashboard-money-${width}`);

      await net.click();
      await page.getByRole('heading', { level: 1, name: 'Payments' }).waitFor();
      const url = new URL(page.url());
      expect(url.pathname).toBe('/admin/payments');
      expect(Object.fromEntries(url.searchParams)).toMatchObject({ status: 'completed', mode: 'live', currency: 'USD' });
      const totals = page.getByRole('region', { name: 'Totals of these payments' });
      await totals.getByText('$75.00').waitFor();
      await totals.getByText('$150.00').waitFor();
      expect(await page.getByLabel('Currency (e.g. USD)').inputValue()).toBe('USD');
      await page.getByRole('link', { name: /^#\d+/ }).nth(1).waitFor();
      expect(await overflowsHorizontally(page)).toBe(false);
      expect(await seriousA11yViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    });
  });

  it('offers live mode only once it is ready, says what is missing and links to it; both switches ask first, saying what changes for payers', async () => {
    const options = app.t.app.get(OptionsService);
    const { page, context, errors } = await openConsole(browser, app);
    await signIn(page);
    const openGateways = async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Gateways', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Gateways' }).waitFor();
    };
    await openGateways();
    const card = page.getByRole('region', { name: gatewayB.label, exact: true });
    const notReady = card.getByRole('group', { name: 'Live mode is not ready yet' });
    await notReady.waitFor();
    expect(await card.getByRole('button', { name: 'Switch to live mode…' }).count()).toBe(0);
    expect(await notReady.getByRole('link').allTextContents()).toEqual(['Connect live mode', 'Save the live webhook settings']);
    await notReady.getByRole('link', { name: 'Connect live mode' }).click();
    expect(new URL(page.url()).hash).toBe(`#${gatewayB.id}-live-title`);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Live credentials alone: the webhook is still missing.
    await options.set(gatewayBOption.credential('live', 'email'), 'merchant@example.test');
    await options.set(gatewayBOption.credential('live', 'client_id'), 'client-live');
    await options.setSecret(gatewayBOption.credential('live', 'secret'), 'secret-live-1234567890');
    await page.reload();
    await notReady.waitFor();
    expect(await notReady.getByRole('link').allTextContents()).toEqual(['Save the live webhook settings']);

    // With its Webhook ID saved, live mode is ready: the switch asks first.
    await options.setSecret(gatewayBOption.webhookId('live'), 'WH0CONSOLE0LIVE0123');
    await page.reload();
    const toLive = card.getByRole('button', { name: 'Switch to live mode…' });
    await toLive.click();
    const liveDialog = page.getByRole('dialog', { name: `Switch ${gatewayB.label} to live mode?` });
    await liveDialog.getByText('pay real money').waitFor();
    await liveDialog.getByText('Test cards and test accounts stop working').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'console-live-switch-dialog');
    await liveDialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await modeOf('gateway_b')).toBe('test');

    await toLive.click();
    await liveDialog.getByRole('button', { name: 'Switch to live mode' }).click();
    await card.getByRole('status').filter({ hasText: `${gatewayB.label} now takes payments in live mode.` }).waitFor();
    expect(await modeOf('gateway_b')).toBe('live');

    // Back to test: confirmed too.
    await card.getByRole('button', { name: 'Switch to test mode…' }).click();
    const testDialog = page.getByRole('dialog', { name: `Switch ${gatewayB.label} to test mode?` });
    await testDialog.getByText('payers cannot pay real money').waitFor();
    await testDialog.getByRole('button', { name: 'Switch to test mode' }).click();
    await card.getByRole('status').filter({ hasText: `${gatewayB.label} now takes payments in test mode.` }).waitFor();
    expect(await modeOf('gateway_b')).toBe('test');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the live-switch dialog at 375 px: axe-clean, no sideways scroll', async () => {
    const { page, context, errors } = await openConsole(browser, app, 375);
    await signIn(page);
    await page.goto(`${app.origin}/admin/gateways`);
    const card = page.getByRole('region', { name: gatewayB.label, exact: true });
    await card.getByRole('button', { name: 'Switch to live mode…' }).click();
    await page.getByRole('dialog', { name: `Switch ${gatewayB.label} to live mode?` }).waitFor();
    expect(await overflowsHorizontally(page)).toBe(false);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    expect(await modeOf('gateway_b')).toBe('test');
    expect(errors).toEqual([]);
    await context.close();
  });
});
