import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import request from 'supertest';
import { AccountService } from '../../src/modules/identity/index.js';
import { OutboxWorker } from '../../src/modules/outbox/index.js';
import { openConsole, openMenu, overflowsHorizontally, seriousA11yViolations, signIn, useConsoleSuite } from './support/console.js';

/**
 * The team in the console (issue 30): the Team screen (members, roles, last sign-in, invitations;
 * invite, application passwords created and revoked) at 1280 and 375 px with axe, and one screen
 * per role: each role lands on a screen it may use, its navigation shows only its sections, and a
 * link to another section shows the no-access screen.
 */
describe('admin console: team and roles', () => {
  const suite = useConsoleSuite();

  const navigation = async (page: Page): Promise<string[]> => {
    await openMenu(page);
    return page.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents();
  };

  it.each([1280, 375])('lists the team, invites a teammate and makes and revokes an application password (%i px)', async (width) => {
    const { page, context, errors } = await openConsole(suite.browser, suite.app, width);
    await signIn(page);
    await openMenu(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Team' }).click();
    await page.getByRole('heading', { level: 1, name: 'Team' }).waitFor();
    const members = page.getByRole('table', { name: 'Team members' });
    await members.getByRole('rowheader', { name: /Administrator/ }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(await overflowsHorizontally(page)).toBe(false);

    const login = `sam${width}`;
    await page.getByLabel('Login').fill(login);
    await page.getByLabel('Email').fill(`${login}@shop.example`);
    await page.getByLabel('Name (optional)').fill(`Sam ${width}`);
    await page.getByLabel('Role').selectOption('support');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByRole('status').filter({ hasText: `Invited Sam ${width}` }).waitFor();
    const row = members.getByRole('row').filter({ hasText: `Sam ${width}` });
    await row.waitFor();
    expect(await row.textContent()).toContain('support');
    expect(await row.textContent()).toMatch(/Queued|Sent/);
    expect(await row.textContent()).toContain('Never');

    // The invitation email's link opens the console's set-password screen, as an invitation.
    await suite.app.t.app.get(OutboxWorker).drain();
    const outbox = join(suite.app.t.config.dataDir, 'outbox');
    const email = readdirSync(outbox).map((file) => readFileSync(join(outbox, file), 'utf8')).find((text) => text.includes(`To: ${login}@shop.example`));
    const link = /set-password#token=([A-Za-z0-9_-]{43})/.exec((email ?? '').replace(/=\r?\n/g, '').replace(/=3D/g, '='));
    expect(link).not.toBeNull();
    const invitee = await openConsole(suite.browser, suite.app, width);
    await invitee.page.goto(`${suite.app.origin}/admin/set-password#token=${link![1]}`);
    await invitee.page.getByRole('heading', { name: 'Welcome to Checkout' }).waitFor();
    expect(invitee.errors).toEqual([]);
    await invitee.context.close();

    await row.getByRole('link', { name: `Sam ${width}` }).click();
    await page.getByRole('heading', { level: 1, name: `Sam ${width}` }).waitFor();
    await page.getByLabel('What it is for').fill('Accounting export');
    await page.getByRole('button', { name: 'Create password' }).click();
    const shown = page.locator('code.secret');
    await shown.waitFor();
    const password = (await shown.textContent())!;
    expect(password).toMatch(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(await overflowsHorizontally(page)).toBe(false);
    // It works, for this user's role.
    const basic = `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
    expect((await request(suite.app.t.http).get(`${suite.app.t.base}/administration/payments`).set('Authorization', basic)).status).toBe(200);

    await page.getByRole('button', { name: 'Revoke “Accounting export”' }).click();
    await page.getByRole('dialog', { name: 'Revoke “Accounting export”?' }).getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('status').filter({ hasText: 'revoked' }).waitFor();
    expect((await request(suite.app.t.http).get(`${suite.app.t.base}/administration/payments`).set('Authorization', basic)).status).toBe(401);
    expect(errors).toEqual([]);
    await context.close();
  });

  const ROLES = [
    { role: 'editor', home: 'Forms', sections: ['Forms'], refused: '/admin/payments' },
    { role: 'support', home: 'Dashboard', sections: ['Dashboard', 'Payments', 'Provider events'], refused: '/admin/settings' },
    { role: 'viewer', home: 'Dashboard', sections: ['Dashboard', 'Payments', 'Provider events'], refused: '/admin/team' },
  ];

  for (const width of [1280, 375]) {
    it.each(ROLES)(`shows a $role their own sections and a no-access screen elsewhere (${width} px)`, async ({ role, home, sections, refused }) => {
      const user = await suite.app.t.createUser(role);
      // With an account password: one without is asked to choose one first (console-accounts.browser-spec.ts).
      await suite.app.t.app.get(AccountService).setPassword(user.id, `the ${role} account password`);
      const { page, context, errors } = await openConsole(suite.browser, suite.app, width);
      await page.getByLabel('Login').fill(user.login);
      await page.getByLabel('Password', { exact: true }).fill(`the ${role} account password`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { level: 1, name: home }).waitFor();
      expect(await navigation(page)).toEqual(sections);
      expect(await seriousA11yViolations(page)).toEqual([]);
      expect(await overflowsHorizontally(page)).toBe(false);

      await page.goto(`${suite.app.origin}${refused}`);
      await page.getByRole('heading', { level: 1, name: 'No access to this page' }).waitFor();
      expect(await page.textContent('main')).toContain(role);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await page.getByRole('link', { name: 'Go to a page you can use' }).click();
      await page.getByRole('heading', { level: 1, name: home }).waitFor();
      // No request of these screens was refused: the console asked only for what the role may read.
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
