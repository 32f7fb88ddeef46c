import type { Browser, Locator, Page } from 'playwright-core';
import request from 'supertest';
import { type FakeGatewayA, startFakeGatewayA } from '../fakes/gateway-a/index.js';
import { type FakeGatewayB, startFakeGatewayB } from '../fakes/gateway-b/index.js';
import { launchChromium, waitForExpression } from './support/chromium.js';
import { type ConsoleApp, freePort, openConsole, openMenu, overflowsHorizontally, seriousA11yViolations, signIn, startConsoleApp } from './support/console.js';

const OWN_SECRET_KEY = 'sk_test_consoleBrowserOwnKey1234567890';
const OWN_PUBLISHABLE_KEY = 'pk_test_consoleBrowserOwnKey1234567890';

/** Where screenshots go when CONSOLE_SCREENSHOTS names a folder (for a person to look at). */
async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.CONSOLE_SCREENSHOTS) await page.screenshot({ path: `${process.env.CONSOLE_SCREENSHOTS}/${name}.png`, fullPage: true });
}

async function openGateways(page: Page): Promise<void> {
  await openMenu(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Gateways', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Gateways' }).waitFor();
  // The heading shows at once; the gateways once the catalog and the dashboard are read.
  await page.locator('details > summary').first().waitFor();
}

const card = (page: Page, label: string) => page.getByRole('region', { name: label, exact: true });
const modePanel = (gateway: Locator, mode: 'Test' | 'Live') => gateway.getByRole('region', { name: new RegExp(`^${mode} mode`) });

/** Opens every disclosure of the screen, so checks see every form. */
async function openAllDisclosures(page: Page): Promise<void> {
  const closed = page.locator('details:not([open]) > summary');
  while ((await closed.count()) > 0) await closed.first().click();
}

/** The app's own state as an API client reads it (HTTP Basic), to check what the screen did. */
async function dashboardOf(app: ConsoleApp) {
  const res = await request(app.t.http).get(`${app.t.base}/administration/dashboard`).set('Authorization', app.t.admin.auth);
  expect(res.status).toBe(200);
  return res.body;
}
async function catalogOf(app: ConsoleApp) {
  const res = await request(app.t.http).get(`${app.t.base}/payment-gateway/catalog`).set('Authorization', app.t.admin.auth);
  expect(res.status).toBe(200);
  return res.body;
}

/** A failed request the test provokes shows in the browser's console as a failed resource: the one error allowed. */
const besides400 = (errors: string[]) => errors.filter((error) => !error.includes('status of 400'));

/**
 * The admin console's gateways screen in chromium (issue 22), against the local gateway fakes: the
 * OAuth connect round trip (fake gateway A as the proxy, its authorize page approving), own keys on
 * the Pro plan, payment methods and device-wallet settings, gateway B's credentials and Webhook ID,
 * disconnect; axe-clean, usable at 375 px and by keyboard, no console error.
 */
describe('admin console: gateways', () => {
  let browser: Browser;
  let fakeA: FakeGatewayA;
  let fakeB: FakeGatewayB;

  beforeAll(async () => {
    browser = await launchChromium();
    fakeA = await startFakeGatewayA();
    fakeB = await startFakeGatewayB({ environment: 'sandbox' });
  });
  afterAll(async () => {
    await browser?.close();
    await fakeA?.stop();
    await fakeB?.stop();
  });

  /** The service on a port known in advance: the provider is given its callback and webhook URLs (PUBLIC_BASE_URL). */
  async function startApp(plan: 'free' | 'pro'): Promise<ConsoleApp> {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    // ADMIN_URL unset: the default, the console, where the connect round trip lands.
    return startConsoleApp(
      { CHECKOUT_PLAN: plan, CHECKOUT_PROXY_URL: fakeA.url, GATEWAY_A_API_BASE: fakeA.url, GATEWAY_B_API_BASE_TEST: fakeB.url, PUBLIC_BASE_URL: origin },
      { port },
    );
  }

  describe('on the free plan', () => {
    let app: ConsoleApp;
    beforeAll(async () => {
      app = await startApp('free');
    });
    afterAll(async () => {
      await app?.close();
      fakeA.oauthDecision = 'approve';
    });

    it('connects gateway A in test mode through its page: the browser leaves and comes back, sees it connected with the webhook verified', async () => {
      const { page, context, errors } = await openConsole(browser, app);
      await signIn(page);
      await openGateways(page);
      const gatewayA = card(page, 'Stripe');
      const testMode = modePanel(gatewayA, 'Test');
      await testMode.getByText('Not connected').waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);

      const navigations: string[] = [];
      page.on('request', (req) => {
        if (req.isNavigationRequest() && req.frame() === page.mainFrame()) navigations.push(req.url());
      });
      fakeA.clearRequests();
      await testMode.getByRole('button', { name: 'Connect test mode with Stripe' }).click();
      // Back in the console, on this screen, with the outcome shown and gone from the address.
      await page.waitForURL((url) => url.pathname === '/admin/gateways' && url.search === '');
      await page.getByRole('status').filter({ hasText: 'Stripe is connected in test mode. Its webhook endpoint is verified' }).waitFor();
      await testMode.getByText('Connected (test keys)').waitFor();
      await testMode.getByText('Verified', { exact: true }).waitFor();

      // The round trip: the provider's authorize page, the service's callback, the console.
      const hosts = navigations.map((url) => new URL(url));
      expect(hosts.map((url) => `${url.origin}${url.pathname}`)).toEqual([
        `${fakeA.url}/oauth/authorize`,
        `${app.origin}${app.t.base}/payment-gateway/connect-callback`,
        `${app.origin}/admin/`,
      ]);
      expect(hosts[2].searchParams.get('gateway_a_connected')).toBe('test');
      // The session's nonce never travels in an address (the connect route was asked for JSON through the client).
      expect(navigations.some((url) => url.includes('nonce'))).toBe(false);
      expect(fakeA.requestsTo('POST', '/oauth/token')).toHaveLength(1);

      const gateway = (await dashboardOf(app)).payment_gateways.gateway_a;
      expect(gateway.modes.test).toMatchObject({ is_connected: 1, test_keys: true, webhook_contract: { state: 'verified', status: 'verified', management: 'automatic' } });
      expect(gateway.modes.live.is_connected).toBe(0);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await screenshot(page, 'console-gateways-connected');
      expect(errors).toEqual([]);
      await context.close();
    });

    it('says why when the merchant declines on the gateway’s page, and stores nothing', async () => {
      const { page, context, errors } = await openConsole(browser, app);
      await signIn(page);
      await openGateways(page);
      fakeA.oauthDecision = 'deny';
      const liveMode = modePanel(card(page, 'Stripe'), 'Live');
      await liveMode.getByRole('button', { name: 'Connect live mode with Stripe' }).click();
      await page.waitForURL((url) => url.pathname === '/admin/gateways' && url.search === '');
      await page.getByRole('alert').filter({ hasText: 'Stripe was not connected: the connection was declined on the gateway’s page.' }).waitFor();
      await liveMode.getByText('Not connected').waitFor();
      expect((await dashboardOf(app)).payment_gateways.gateway_a.modes.live.is_connected).toBe(0);
      expect(errors).toEqual([]);
      await context.close();
    });

    it('explains the free plan: own keys are meant for Pro, Pro-only methods cannot be switched on; at 375 px, axe-clean, no sideways scroll', async () => {
      const { page, context, errors } = await openConsole(browser, app, 375);
      await signIn(page);
      await openGateways(page);
      await openAllDisclosures(page);
      const gatewayA = card(page, 'Stripe');
      await modePanel(gatewayA, 'Test').getByText('your own keys are meant for the Pro plan').waitFor();
      const sepa = gatewayA.getByRole('checkbox', { name: /Bank debit \(SEPA or ACH\)/ });
      expect(await sepa.isDisabled()).toBe(true);
      expect(await gatewayA.getByText('needs the Pro plan').count()).toBe(1);
      expect(await overflowsHorizontally(page)).toBe(false);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await screenshot(page, 'console-gateways-375-free');
      expect(errors).toEqual([]);
      await context.close();
    });
  });

  describe('on the Pro plan', () => {
    let app: ConsoleApp;
    beforeAll(async () => {
      app = await startApp('pro');
    });
    afterAll(() => app?.close());

    it('connects gateway A with the merchant’s own keys: secrets in password inputs, never shown back; a bad key marks its field', async () => {
      const { page, context, errors } = await openConsole(browser, app);
      await signIn(page);
      await openGateways(page);
      const testMode = modePanel(card(page, 'Stripe'), 'Test');
      await testMode.getByText('Connect test mode with your own keys').click();
      const publishable = testMode.getByLabel('Publishable key');
      const secret = testMode.getByLabel('Secret key');
      expect(await secret.getAttribute('type')).toBe('password');

      // A key of the wrong shape: the API's message next to the field, which takes focus.
      await publishable.fill('not-a-key');
      await secret.fill(OWN_SECRET_KEY);
      await testMode.getByRole('button', { name: 'Connect test mode', exact: true }).click();
      await testMode.getByText('the publishable key must look like pk_test_… or pk_live_…').first().waitFor();
      expect(await publishable.getAttribute('aria-invalid')).toBe('true');
      expect(await publishable.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
      expect((await dashboardOf(app)).payment_gateways.gateway_a.modes.test.is_connected).toBe(0);

      await publishable.fill(OWN_PUBLISHABLE_KEY);
      await secret.fill(OWN_SECRET_KEY);
      await testMode.getByRole('button', { name: 'Connect test mode', exact: true }).click();
      const saved = testMode.getByRole('status').filter({ hasText: 'Connected in test mode.' });
      await saved.waitFor();
      expect(await saved.textContent()).toContain(fakeA.accountFor(OWN_SECRET_KEY).id);
      await testMode.getByText('Connected (test keys)').waitFor();
      await testMode.getByText('Verified', { exact: true }).waitFor();
      // The secret left the inputs and is nowhere on the page.
      expect(await secret.inputValue()).toBe('');
      expect(await page.content()).not.toContain(OWN_SECRET_KEY);

      expect((await dashboardOf(app)).payment_gateways.gateway_a.modes.test).toMatchObject({ is_connected: 1, webhook_contract: { state: 'verified' } });
      expect(besides400(errors)).toEqual([]);
      await context.close();
    });

    it('switches a payment method on and saves a device wallet’s settings', async () => {
      const { page, context, errors } = await openConsole(browser, app);
      await signIn(page);
      await openGateways(page);
      const gatewayA = card(page, 'Stripe');
      const sepa = gatewayA.getByRole('checkbox', { name: /Bank debit \(SEPA or ACH\)/ });
      expect(await sepa.isDisabled()).toBe(false);
      await sepa.check();
      await gatewayA.getByRole('button', { name: 'Save payment methods' }).click();
      await gatewayA.getByRole('status').filter({ hasText: 'Payment methods saved.' }).waitFor();
      const methods = (await catalogOf(app)).gateways[0].methods as Array<{ id: string; active: boolean; settings?: unknown }>;
      expect(methods.filter((method) => method.active).map((method) => method.id)).toEqual(['ccard', 'sepa']);

      await gatewayA.getByText('Settings of Apple Pay', { exact: true }).click();
      const wallet = gatewayA.locator('details', { has: page.getByText('Settings of Apple Pay', { exact: true }) });
      const domains = wallet.getByLabel('Domains', { exact: true });
      await wallet.getByLabel('Domain verification is set up for these domains').check();
      await domains.fill('not a domain');
      await wallet.getByRole('button', { name: 'Save settings of Apple Pay' }).click();
      await wallet.getByText('each domain must be a host name').waitFor();
      expect(await domains.getAttribute('aria-invalid')).toBe('true');
      await domains.fill('Shop.Example.com\npay.example.com');
      await wallet.getByRole('button', { name: 'Save settings of Apple Pay' }).click();
      await wallet.getByRole('status').filter({ hasText: 'Settings of Apple Pay saved.' }).waitFor();
      const after = (await catalogOf(app)).gateways[0].methods as Array<{ id: string; settings?: unknown }>;
      expect(after.find((method) => method.id === 'device_wallet_1')?.settings).toEqual({ domain_verification: true, domains: ['shop.example.com', 'pay.example.com'] });
      // The form starts from what is stored.
      expect(await domains.inputValue()).toBe('shop.example.com\npay.example.com');
      expect(besides400(errors)).toEqual([]);
      await context.close();
    });

    it('saves gateway B’s credentials and its Webhook ID, answered only as masks', async () => {
      const { page, context, errors } = await openConsole(browser, app);
      await signIn(page);
      await openGateways(page);
      const gatewayB = card(page, 'PayPal');
      const credentials = gatewayB.getByRole('region', { name: /^Credentials for test mode/ });
      const secret = credentials.getByLabel('Secret', { exact: true });
      expect(await secret.getAttribute('type')).toBe('password');
      await credentials.getByLabel('Email').fill('merchant@example.test');
      await credentials.getByLabel('Client ID').fill(fakeB.clientId);
      await secret.fill(fakeB.clientSecret);
      await credentials.getByRole('button', { name: 'Save credentials' }).click();
      await credentials.getByRole('status').filter({ hasText: 'Saved for test mode.' }).waitFor();
      expect(await page.content()).not.toContain(fakeB.clientSecret);
      const testMode = modePanel(gatewayB, 'Test');
      await testMode.getByText('Connected', { exact: true }).waitFor();

      await testMode.getByText('Webhook settings for test mode', { exact: true }).click();
      const webhookId = testMode.getByLabel('Webhook ID');
      expect(await webhookId.getAttribute('type')).toBe('password');
      await webhookId.fill('not an id!');
      await testMode.getByRole('button', { name: 'Save webhook settings' }).click();
      await testMode.getByText('webhook_id must be the Webhook ID shown by the gateway').first().waitFor();
      expect(await webhookId.getAttribute('aria-invalid')).toBe('true');
      await webhookId.fill(fakeB.webhookId);
      await testMode.getByRole('button', { name: 'Save webhook settings' }).click();
      await testMode.getByRole('status').filter({ hasText: 'Webhook settings saved for test mode.' }).waitFor();
      await testMode.getByText('Webhook settings saved', { exact: true }).waitFor();
      expect(await page.content()).not.toContain(fakeB.webhookId);
      expect(await webhookId.getAttribute('aria-invalid')).toBeNull();

      expect((await dashboardOf(app)).payment_gateways.gateway_b.modes.test).toMatchObject({ is_connected: 1, webhook_configured: true });
      expect(besides400(errors)).toEqual([]);
      await context.close();
    });

    it('disconnects a mode by keyboard alone, after an accessible confirmation', async () => {
      // Connected as an API client would (the own-keys route), whatever the tests before did.
      await request(app.t.http)
        .post(`${app.t.base}/payment-gateway/connect-keys`)
        .set('Authorization', app.t.admin.auth)
        .send({ mode: 'test', publishable_key: OWN_PUBLISHABLE_KEY, secret_key: OWN_SECRET_KEY })
        .expect(200);
      const { page, context, errors } = await openConsole(browser, app);
      await signIn(page);
      await openGateways(page);
      const testMode = modePanel(card(page, 'Stripe'), 'Test');
      const focused = () => page.evaluate('document.activeElement?.textContent') as Promise<string | undefined>;
      const disconnect = testMode.getByRole('button', { name: 'Disconnect test mode' });
      await disconnect.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Disconnect Stripe in test mode?' });
      await dialog.waitFor();
      expect(await focused()).toBe('Cancel');
      expect(await seriousA11yViolations(page)).toEqual([]);
      // Escape cancels and gives focus back to the button.
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      expect(await focused()).toBe('Disconnect test mode');
      expect((await dashboardOf(app)).payment_gateways.gateway_a.modes.test.is_connected).toBe(1);

      await page.keyboard.press('Enter');
      await dialog.waitFor();
      await page.keyboard.press('Tab');
      expect(await focused()).toBe('Disconnect test mode');
      await page.keyboard.press('Enter');
      await testMode.getByRole('status').filter({ hasText: 'Stripe is disconnected in test mode.' }).waitFor();
      await testMode.getByText('Not connected').waitFor();
      // The button is gone: the mode's heading has focus.
      await waitForExpression(page, "document.activeElement?.id === 'gateway_a-test-title'", 5000);
      expect((await dashboardOf(app)).payment_gateways.gateway_a.modes.test.is_connected).toBe(0);
      expect(errors).toEqual([]);
      await context.close();
    });

    it.each([1280, 375])('at %i px: every form open, axe-clean, no sideways scroll', async (width) => {
      const { page, context, errors } = await openConsole(browser, app, width);
      await signIn(page);
      await openGateways(page);
      await page.getByRole('table').waitFor();
      await openAllDisclosures(page);
      expect(await page.locator('details:not([open])').count()).toBe(0);
      expect(await overflowsHorizontally(page)).toBe(false);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await screenshot(page, `console-gateways-${width}-pro`);
      expect(errors).toEqual([]);
      await context.close();
    });
  });
});
