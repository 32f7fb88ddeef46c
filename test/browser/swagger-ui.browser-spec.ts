import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { collectPageErrors, launchChromium } from './support/chromium.js';

/**
 * Swagger UI at /docs, as an admin uses it: Authorize with a login and an application password,
 * Try it out, Execute. The service listens on an ephemeral port; chromium loads everything from it.
 */
describe('Swagger UI in a real browser', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let origin: string;
  let errors: string[];

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen(0, '127.0.0.1');
    origin = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });
  beforeEach(async () => {
    page = await browser.newPage();
    errors = collectPageErrors(page);
  });
  afterEach(async () => {
    await page.close();
  });

  /** Expands GET /plugin/info, presses Try it out and Execute; returns the status cell's text and the body shown. */
  async function executePluginInfo(): Promise<{ status: string; body: string }> {
    const operation = page.locator('#operations-Plugin-pluginInfo');
    await operation.locator('.opblock-summary').click();
    await operation.locator('button.try-out__btn').click();
    const answered = page.waitForResponse((response) => response.url() === `${origin}/wp-json/checkout/v1/plugin/info`);
    await operation.locator('button.execute').click();
    await answered;
    const live = operation.locator('.live-responses-table .response');
    await live.first().waitFor();
    const status = (await live.first().locator('.response-col_status').innerText()).trim();
    const body = await operation.locator('.live-responses-table .response-col_description .microlight').first().innerText();
    return { status, body };
  }

  it('authorises with an application password, executes GET /plugin/info and shows 200', async () => {
    const user = await t.createUser('administrator', 'docs-admin');
    await page.goto(`${origin}/docs`);
    await page.locator('#operations-Plugin-pluginInfo').waitFor();
    // The servers list shows the REST base the requests go to.
    expect(await page.locator('.servers select').inputValue()).toBe('/wp-json/checkout/v1');

    await page.locator('.auth-wrapper button.authorize').click();
    const modal = page.locator('.modal-ux');
    await modal.locator('input[aria-label="auth-basic-username"]').fill(user.login);
    await modal.locator('input[aria-label="auth-basic-password"]').fill(user.password);
    // The document has three schemes (Basic, and the console's cookie + nonce): authorise Basic's form.
    const basic = modal.locator('form').filter({ has: page.locator('input[aria-label="auth-basic-username"]') });
    await basic.locator('button.modal-btn.auth.authorize').click();
    await modal.locator('button.btn-done').first().click();

    const { status, body } = await executePluginInfo();
    expect(status).toBe('200');
    expect(JSON.parse(body)).toEqual(expect.objectContaining({ version: '1.5.3', license: expect.any(String) }));
    expect(errors).toEqual([]);
  });

  it('shows the documented 401 without credentials (the page itself stays error-free)', async () => {
    await page.goto(`${origin}/docs`);
    await page.locator('#operations-Plugin-pluginInfo').waitFor();
    const { status, body } = await executePluginInfo();
    expect(status).toBe('401');
    expect(JSON.parse(body)).toEqual(expect.objectContaining({ code: 'rest_not_logged_in' }));
    // The browser reports a failed resource load for the 401 itself; nothing else may go wrong.
    expect(errors.filter((error) => !/status of 401/.test(error))).toEqual([]);
  });
});
