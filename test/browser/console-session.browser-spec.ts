import request from 'supertest';
import { openConsole, openMenu, overflowsHorizontally, seriousA11yViolations, signIn, useConsoleSuite } from './support/console.js';

/**
 * The admin console in chromium (issue 22): signing in and out, the cookie + nonce defence as a
 * browser exercises it, and the screens every account sees first, at desktop and 375 px width,
 * with axe-core and no console error (the strict CSP holds).
 */
describe('admin console: session', () => {
  const suite = useConsoleSuite();

  it('signs in with an application password, keeps no credential in the page, survives a reload and signs out for good', async () => {
    const { page, context, errors } = await openConsole(suite.browser, suite.app);
    await page.getByRole('heading', { name: 'Sign in to Checkout' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await signIn(page);
    expect(await page.evaluate('({ local: localStorage.length, session: sessionStorage.length, cookie: document.cookie })')).toEqual({ local: 0, session: 0, cookie: '' });
    const [cookie] = (await context.cookies()).filter((c) => c.name === 'checkout_console_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });

    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Checkout' }).waitFor();
    expect((await context.cookies()).filter((c) => c.name === 'checkout_console_session')).toEqual([]);
    // The cookie's old value is worth nothing on the server either.
    const reused = await request(suite.app.t.http).get(`${suite.app.t.base}/auth/session`).set('Cookie', `checkout_console_session=${cookie.value}`);
    expect(reused.status).toBe(204);
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in to Checkout' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('says what went wrong on a bad password, with focus on the message', async () => {
    const { page, context, errors } = await openConsole(suite.browser, suite.app);
    await page.getByLabel('Login').fill('admin');
    await page.getByLabel('Password', { exact: true }).fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    // The failed sign-in's 401 is the one console error this flow may show.
    expect(errors.filter((e) => !e.includes('401'))).toEqual([]);
    await context.close();
  });

  it('changes nothing for a same-origin request that carries the session cookie without its nonce, or with a wrong one', async () => {
    const { page, context } = await openConsole(suite.browser, suite.app);
    await signIn(page);
    const before = (await request(suite.app.t.http).get(`${suite.app.t.base}/settings`).set('Authorization', suite.app.t.admin.auth)).body;
    // The page's own origin, with the session cookie the suite.browser holds: only the nonce is missing or wrong.
    const attempts = await page.evaluate(`(async () => {
      const send = (headers) => fetch('${suite.app.t.base}/settings', { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify({ currency: 'EUR' }), credentials: 'same-origin' }).then((r) => r.status);
      return { none: await send({}), wrong: await send({ 'X-WP-Nonce': 'not-the-nonce' }) };
    })()`);
    expect(attempts).toEqual({ none: 401, wrong: 403 });
    const after = (await request(suite.app.t.http).get(`${suite.app.t.base}/settings`).set('Authorization', suite.app.t.admin.auth)).body;
    expect(after).toEqual(before);
    await context.close();
  });

  it('refuses a cross-site page that tries to use the admin session', async () => {
    const { page, context } = await openConsole(suite.browser, suite.app);
    await signIn(page);
    // Another site (another origin: localhost instead of 127.0.0.1) posts to the API in the admin's suite.browser.
    const other = await context.newPage();
    await other.goto(`${suite.app.origin.replace('127.0.0.1', 'localhost')}/healthz`);
    const status = await other.evaluate(`fetch('${suite.app.origin}${suite.app.t.base}/settings', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '{"currency":"EUR"}', credentials: 'include', mode: 'no-cors' }).then((res) => res.type, (error) => String(error))`);
    expect(status).toBe('opaque');
    const settings = (await request(suite.app.t.http).get(`${suite.app.t.base}/settings`).set('Authorization', suite.app.t.admin.auth)).body;
    expect(settings.currency).not.toBe('EUR');
    await context.close();
  });

  it.each([1280, 375])('shows the dashboard and the payments list at %i px: usable, axe-clean, no sideways scroll', async (width) => {
    const { page, context, errors } = await openConsole(suite.browser, suite.app, width);
    await signIn(page);
    expect(await overflowsHorizontally(page)).toBe(false);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await openMenu(page);
    await page.getByRole('link', { name: 'Payments' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Payments' }).waitFor();
    await page.getByText('No payments yet').waitFor();
    expect(await overflowsHorizontally(page)).toBe(false);
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('works by keyboard alone: focus on the new screen, skip link, navigation', async () => {
    const { page, context } = await openConsole(suite.browser, suite.app);
    await signIn(page);
    const focused = () => page.evaluate('({ text: document.activeElement?.textContent, id: document.activeElement?.id })') as Promise<{ text?: string; id?: string }>;
    // The new screen's heading takes focus, so a screen reader announces where the admin is.
    expect((await focused()).id).toBe('page-title');
    // Backwards from the heading: the header's controls, then the skip link first of all.
    const seen: string[] = [];
    for (let i = 0; i < 12 && (await focused()).text !== 'Skip to content'; i++) {
      await page.keyboard.press('Shift+Tab');
      seen.push((await focused()).text ?? '');
    }
    expect(seen).toEqual(expect.arrayContaining(['Sign out', 'Payments', 'Dashboard', 'Skip to content']));
    await page.keyboard.press('Enter');
    expect((await focused()).id).toBe('main');
    // Forwards to the payments link, Enter, and the payments screen has focus on its heading.
    for (let i = 0; i < 12 && (await focused()).text !== 'Payments'; i++) await page.keyboard.press('Shift+Tab');
    expect((await focused()).text).toBe('Payments');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Payments' }).waitFor();
    expect((await focused()).id).toBe('page-title');
    await context.close();
  });
});
