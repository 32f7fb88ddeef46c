import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { UserEntity } from '../../src/modules/identity/user.entity.js';
import { PaymentRepository } from '../../src/modules/payments/payment.repository.js';
import { TEST_ADMIN_PASSWORD } from '../support/test-app.js';
import { openConsole, openMenu, overflowsHorizontally, seriousA11yViolations, useConsoleSuite } from './support/console.js';

/**
 * The console in German (issue 32): a browser whose language is German gets the German console
 * with German money and dates; the user switches to English (stored on the account, so a reload in
 * the same German browser stays English) and back to the browser's language; a payment's detail
 * and its Refund dialog in German; the form gallery and builder in German (the template's own
 * name stays as the service gives it); axe-clean at 1280 and 375 px.
 */
describe('admin console: German', () => {
  const suite = useConsoleSuite();
  const GERMAN = { locale: 'de-DE', timezoneId: 'Europe/Berlin' };
  let paymentId: number;

  beforeAll(async () => {
    const { t } = suite.app;
    ({ id: paymentId } = await t.dataSource.transaction((manager) =>
      t.app.get(PaymentRepository).insert(manager, {
        gateway: 'gateway_a',
        paymentMethod: 'ccard',
        frequency: 'one-time',
        secretNonce: randomBytes(32).toString('base64url'),
        mode: 'live',
        status: 'completed',
        amount: 123450,
        amountReceived: 123450,
        currency: 'EUR',
        emailAddress: 'erika@example.com',
        firstName: 'Erika',
        lastName: 'Mustermann',
        createdAt: new Date('2026-03-05T10:15:00Z'),
        updatedAt: new Date('2026-03-05T10:15:00Z'),
      }),
    ));
  });

  const storedLocale = async () => (await suite.app.t.dataSource.getRepository(UserEntity).findOneByOrFail({ login: 'admin' })).consoleLocale;

  async function signInGerman(page: Page): Promise<void> {
    await page.getByRole('heading', { name: 'Bei Checkout anmelden' }).waitFor();
    await page.getByLabel('Benutzername').fill('admin');
    await page.getByLabel('Passwort', { exact: true }).fill(TEST_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.getByRole('heading', { level: 1, name: 'Übersicht' }).waitFor();
  }

  async function paymentsScreen(page: Page, heading: string): Promise<void> {
    await openMenu(page);
    await page.getByRole('link', { name: heading, exact: true }).first().click();
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  }

  it('speaks German to a German browser, with German money and dates; switching to English is stored on the account, and back', async () => {
    const { page, context, errors } = await openConsole(suite.browser, suite.app, 1280, GERMAN);
    await signInGerman(page);
    expect(await page.evaluate('document.documentElement.lang')).toBe('de');
    expect(await page.title()).toBe('Übersicht · Checkout-Verwaltung');
    // The dashboard's quick setup speaks German too, its count an ICU plural.
    await page.getByRole('region', { name: 'Schnelleinrichtung: Ihre erste Testzahlung' }).getByText(/^\d von 4 Schritten erledigt$/).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    await paymentsScreen(page, 'Zahlungen');
    const row = page.getByRole('row', { name: /Erika Mustermann/ });
    await row.getByText('1.234,50 €').waitFor();
    await row.getByText('5. März 2026, 11:15 MEZ').waitFor();
    await row.getByText('abgeschlossen').waitFor();
    await page.getByRole('columnheader', { name: 'Betrag' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    // English, chosen in the top bar: saved on the account, so the German browser keeps it after a reload.
    await page.getByLabel('Sprache').selectOption('en');
    await page.getByRole('heading', { level: 1, name: 'Payments' }).waitFor();
    await row.getByText('€1,234.50').waitFor();
    await row.getByText('5 Mar 2026, 11:15 CET').waitFor();
    expect(await storedLocale()).toBe('en');
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Payments' }).waitFor();
    expect(await page.evaluate('document.documentElement.lang')).toBe('en');

    // Back to the browser's language: German again, and nothing stored.
    await page.getByLabel('Language').selectOption('browser');
    await page.getByRole('heading', { level: 1, name: 'Zahlungen' }).waitFor();
    await row.getByText('1.234,50 €').waitFor();
    expect(await storedLocale()).toBeNull();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('is usable and axe-clean in German at 375 px, with no sideways scroll', async () => {
    await suite.app.t.dataSource.getRepository(UserEntity).update({ login: 'admin' }, { consoleLocale: null });
    const { page, context, errors } = await openConsole(suite.browser, suite.app, 375, GERMAN);
    await page.getByRole('heading', { name: 'Bei Checkout anmelden' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await signInGerman(page);
    expect(await overflowsHorizontally(page)).toBe(false);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Menü' }).click();
    await page.getByRole('link', { name: 'Zahlungen', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Zahlungen' }).waitFor();
    await page.getByRole('button', { name: 'Filter', exact: true }).waitFor();
    await page.getByRole('cell', { name: 'Betrag 1.234,50 €' }).waitFor();
    expect(await overflowsHorizontally(page)).toBe(false);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The payment's detail and its Refund dialog: German words, German money, a German refusal.
    await page.goto(`${suite.app.origin}/admin/payments/${paymentId}`);
    await page.getByRole('heading', { level: 1, name: `Zahlung #${paymentId}` }).waitFor();
    const summary = page.getByRole('region', { name: 'Zusammenfassung' });
    await summary.locator('dt', { hasText: /^Erstattbar$/ }).locator('xpath=following-sibling::dd[1]').filter({ hasText: '1.234,50 €' }).waitFor();
    await summary.getByText('abgeschlossen', { exact: true }).waitFor();
    await page.getByRole('link', { name: 'Alle Zahlungen' }).waitFor();
    expect(await overflowsHorizontally(page)).toBe(false);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('group', { name: 'Aktionen für diese Zahlung' }).getByRole('button', { name: 'Erstatten' }).click();
    const dialog = page.getByRole('dialog', { name: `Zahlung #${paymentId} erstatten` });
    await dialog.getByText('1.234,50 € können erstattet werden.').waitFor();
    const amount = dialog.getByLabel('Zu erstattender Betrag (EUR)');
    await amount.fill('0');
    await dialog.getByRole('button', { name: 'Weiter' }).click();
    await dialog.getByText('Geben Sie einen Betrag über null ein.').waitFor();
    await amount.fill('12.50');
    await dialog.getByLabel('Grund').selectOption({ label: 'Auf Wunsch des Kunden' });
    await dialog.getByRole('button', { name: 'Weiter' }).click();
    await dialog.getByText('12,50 € an den Zahler erstatten?').waitFor();
    await dialog.getByRole('button', { name: '12,50 € erstatten' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Zurück' }).click();
    await dialog.getByRole('button', { name: 'Abbrechen' }).click();
    expect(await dialog.isVisible()).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('builds a form in German: the gallery, the builder’s choices named by their values, German amounts in the error summary', async () => {
    await suite.app.t.dataSource.getRepository(UserEntity).update({ login: 'admin' }, { consoleLocale: null });
    const { page, context, errors } = await openConsole(suite.browser, suite.app, 1280, GERMAN);
    await signInGerman(page);
    await page.goto(`${suite.app.origin}/admin/forms/new`);
    await page.getByRole('heading', { level: 1, name: 'Neues Formular' }).waitFor();
    await page.getByRole('img', { name: 'Vorschau des Formulars „Simple payment“' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('button', { name: '„Simple payment“ verwenden' }).click();
    await page.getByRole('heading', { level: 1, name: /^Formular #\d+ bearbeiten$/ }).waitFor();
    await page.getByText('Aus der Vorlage als Entwurf erstellt.').waitFor();
    // The server labels its choices in English; the console names them by their values.
    const billing = page.getByLabel('Abrechnung');
    expect(await billing.locator('option[value="one-time"]').textContent()).toBe('Einmalig');
    expect(await billing.locator('option[value="m_3"]').textContent()).toBe('Alle 3 Monate');
    expect(await page.getByLabel('Währung').locator('option[value="USD"]').textContent()).toBe('USD (US-Dollar)');
    await page.getByText('Eingebautes Feld: E-Mail-Adresse.', { exact: false }).waitFor();

    await page.getByLabel('Betrag (USD)').fill('0');
    await page.getByRole('button', { name: 'Änderungen speichern' }).click();
    await page.getByRole('heading', { name: 'Das Formular wurde nicht gespeichert: eine Angabe ist zu korrigieren' }).waitFor();
    await page.getByRole('link', { name: 'Tarif 1, Preis 1: Betrag' }).waitFor();
    await page.getByText('Geben Sie mindestens 0,01 $ ein.').first().waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
