import type { Page } from 'playwright-core';
import { AccountService, IdentityService } from '../../src/modules/identity/index.js';
import { base32Decode, hotp, totpStep } from '../../src/modules/identity/accounts/totp.js';
import { openConsole, openMenu, overflowsHorizontally, seriousA11yViolations, useConsoleSuite } from './support/console.js';

/**
 * Accounts in the console (issue 30): the forced choice of an account password after signing in
 * with an application password, the two-factor step, a set-password link and the account screen,
 * at 1280 and 375 px, with axe-core and no console error (the strict CSP holds).
 */
describe('admin console: accounts', () => {
  const suite = useConsoleSuite();
  const accounts = () => suite.app.t.app.get(AccountService);

  async function fillSignIn(page: Page, login: string, password: string): Promise<void> {
    await page.getByLabel('Login').fill(login);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  async function expectAccessible(page: Page, width: number): Promise<void> {
    expect(await seriousA11yViolations(page)).toEqual([]);
    if (width < 500) expect(await overflowsHorizontally(page)).toBe(false);
  }

  const dashboard = (page: Page) => page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();

  for (const width of [1280, 375]) {
    it(`asks a user who signed in with an application password to choose an account password first (${width} px)`, async () => {
      const user = await suite.app.t.createUser('administrator');
      const { page, context, errors } = await openConsole(suite.browser, suite.app, width);
      await page.getByRole('heading', { name: 'Sign in to Checkout' }).waitFor();
      await expectAccessible(page, width);
      await fillSignIn(page, user.login, user.password);
      await page.getByRole('heading', { name: 'Choose your password' }).waitFor();
      await expectAccessible(page, width);
      // Too short: said plainly, nothing sent.
      await page.getByLabel('Password', { exact: true }).fill('short');
      await page.getByLabel('Repeat the password').fill('short');
      await page.getByRole('button', { name: 'Save and continue' }).click();
      await page.getByRole('alert').filter({ hasText: 'at least 12 characters' }).waitFor();
      await page.getByLabel('Password', { exact: true }).fill('my new console password');
      await page.getByLabel('Repeat the password').fill('my new console password');
      await page.getByRole('button', { name: 'Save and continue' }).click();
      await dashboard(page);
      await openMenu(page);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await fillSignIn(page, user.login, 'my new console password');
      await dashboard(page);
      expect(errors).toEqual([]);
      await context.close();
    });

    it(`asks for the authenticator code when two-factor sign-in is on (${width} px)`, async () => {
      const user = await suite.app.t.createUser('administrator');
      await accounts().setPassword(user.id, 'a two factor password');
      const { secret } = await accounts().startTwoFactor((await accounts().findUser(user.id))!);
      const step = totpStep(Date.now());
      await accounts().confirmTwoFactor((await accounts().findUser(user.id))!, hotp(base32Decode(secret), step));
      const { page, context, errors } = await openConsole(suite.browser, suite.app, width);
      await fillSignIn(page, user.login, 'a two factor password');
      await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
      await expectAccessible(page, width);
      await page.getByLabel('Code').fill(hotp(base32Decode(secret), step + 1));
      await page.getByRole('button', { name: 'Sign in' }).click();
      await dashboard(page);
      // The first sign-in step's 401 (the challenge) is the one console error this flow may show.
      expect(errors.filter((e) => !e.includes('401'))).toEqual([]);
      await context.close();
    });

    it(`sets a password from an invitation link and signs in with it (${width} px)`, async () => {
      const user = await suite.app.t.createUser('administrator');
      const { token } = await accounts().issueToken(user.id, 'invite');
      const { page, context, errors } = await openConsole(suite.browser, suite.app, width);
      await page.goto(`${suite.app.origin}/admin/set-password#token=${token}`);
      await page.getByRole('heading', { name: 'Welcome to Checkout' }).waitFor();
      await expectAccessible(page, width);
      await page.getByLabel('Your name').fill('Grace Hopper');
      await page.getByLabel('Password', { exact: true }).fill('an invited password');
      await page.getByLabel('Repeat the password').fill('an invited password');
      await page.getByRole('button', { name: 'Create my account' }).click();
      await dashboard(page);
      expect(new URL(page.url()).hash).toBe('');
      // The link worked once.
      await page.goto(`${suite.app.origin}/admin/set-password#token=${token}`);
      await page.getByRole('heading', { name: 'This link does not work' }).waitFor();
      expect(errors.filter((e) => !e.includes('400'))).toEqual([]);
      await context.close();
    });
  }

  it('changes the password and turns two-factor sign-in on and off on the account screen', async () => {
    const user = await suite.app.t.createUser('administrator');
    await accounts().setPassword(user.id, 'the first password here');
    const { page, context, errors } = await openConsole(suite.browser, suite.app);
    await fillSignIn(page, user.login, 'the first password here');
    await dashboard(page);
    await page.getByRole('link', { name: 'Your account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Your account' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByLabel('Current password').fill('the first password here');
    await page.getByLabel('New password').fill('the second password here');
    await page.getByLabel('Repeat the password').fill('the second password here');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('status').filter({ hasText: 'Your password is changed' }).waitFor();

    await page.locator('input[name="enrol-password"]').fill('the second password here');
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    // The key as a QR code, drawn under the strict CSP (an <img> of a data: URL that loaded).
    const qr = page.getByRole('img', { name: /QR code of the authenticator key/ });
    await qr.waitFor();
    await qr.evaluate((image) => (image as unknown as { decode: () => Promise<void> }).decode());
    expect(await qr.evaluate((image) => (image as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    const shown = (await page.locator('code.secret').textContent())!.replace(/\s+/g, '');
    await page.getByLabel('Code from your app').fill(hotp(base32Decode(shown), totpStep(Date.now())));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByText('Two-factor sign-in is on.').waitFor();
    expect(await page.locator('.recovery-codes li').count()).toBe(10);
    const first = (await page.locator('.recovery-codes li').first().textContent())!.trim();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'I have saved them' }).click();

    // New recovery codes, confirmed with the password: the old ones stop working.
    await page.locator('input[name="renew-proof"]').fill('the second password here');
    await page.getByRole('button', { name: 'Make new recovery codes' }).click();
    await page.getByText('New recovery codes: the old ones no longer work.').waitFor();
    const recovery = (await page.locator('.recovery-codes li').first().textContent())!.trim();
    expect(recovery).not.toBe(first);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'I have saved them' }).click();

    await page.locator('input[name="disable-password"]').fill('the second password here');
    await page.locator('input[name="disable-code"]').fill(recovery);
    await page.getByRole('button', { name: 'Turn off two-factor sign-in' }).click();
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  for (const width of [1280, 375]) {
    it(`a viewer lists and revokes their own application passwords on the account screen (${width} px)`, async () => {
      const user = await suite.app.t.createUser('viewer');
      await accounts().setPassword(user.id, 'a viewer password here');
      const identity = suite.app.t.app.get(IdentityService);
      await identity.createApplicationPassword(user.id, 'Spreadsheet export');
      const { page, context, errors } = await openConsole(suite.browser, suite.app, width);
      await fillSignIn(page, user.login, 'a viewer password here');
      await page.getByRole('heading', { name: 'Sign in to Checkout' }).waitFor({ state: 'detached' });
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      // The account screen by its address (at 375 px the top bar's account link sits in the menu).
      await page.goto(`${suite.app.origin}/admin/account`);
      await page.getByRole('heading', { level: 1, name: 'Your account' }).waitFor();
      const section = page.getByRole('region', { name: 'Your application passwords' });
      await section.getByRole('rowheader', { name: 'Spreadsheet export' }).waitFor();
      await expectAccessible(page, width);
      await section.getByRole('button', { name: 'Revoke “Spreadsheet export”' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
      await section.getByRole('status').filter({ hasText: 'revoked' }).waitFor();
      await section.getByRole('rowheader', { name: 'Spreadsheet export' }).waitFor({ state: 'detached' });
      expect((await identity.listApplicationPasswords(user.id)).map((password) => password.name)).toEqual(['test']);
      await expectAccessible(page, width);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
