import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import request from 'supertest';
import { waitForExpression } from './support/chromium.js';
import { openConsole, overflowsHorizontally, seriousA11yViolations, signIn, useConsoleSuite } from './support/console.js';

const PREVIEW_FRAME = 'iframe[title="Live preview of the payment form"]';

/**
 * The admin console's Forms area in chromium (issue 22 item 4): create a form from a bundled
 * template in the gallery, change its price in the builder and watch the live preview follow,
 * publish it and find the new price on its hosted page, send a test email, see a validation
 * error at its field with focus on the summary, delete a form through the confirm dialog; axe,
 * 375 px and the keyboard on each screen, and no console error (the strict CSP holds).
 */
describe('admin console: forms', () => {
  const suite = useConsoleSuite();

  async function formRow(id: number): Promise<{ title: string; status: string; settings: string } | undefined> {
    const [row] = await suite.app.t.dataSource.query(`SELECT title, status, settings FROM ${suite.app.t.config.tablePrefix}checkout_forms WHERE id = ?`, [id]);
    return row as { title: string; status: string; settings: string } | undefined;
  }

  async function importTemplate(slug: string): Promise<number> {
    const answer = await request(suite.app.t.http).post(`${suite.app.t.base}/administration/import-template`).set('Authorization', suite.app.t.admin.auth).send({ type: 'form_template', slug }).expect(201);
    return answer.body.form_id as number;
  }

  const focusedId = (page: Page) => page.evaluate('document.activeElement?.id') as Promise<string | undefined>;
  const previewPrice = (page: Page) => page.frameLocator(PREVIEW_FRAME).locator('.price-label').first();

  it('creates a form from the simple-payment template, changes its price with the live preview following, publishes it, opens its page and sends a test email', async () => {
    const { page, context, errors } = await openConsole(suite.browser, suite.app);
    await signIn(page);
    await page.getByRole('link', { name: 'Forms' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Forms' }).waitFor();
    await page.getByRole('link', { name: 'New form from a template' }).click();
    await page.getByRole('heading', { level: 1, name: 'New form' }).waitFor();
    // Every template has its picture, served by the public preview route on this origin.
    const picture = page.getByRole('img', { name: 'Preview of the Simple payment form' });
    await picture.waitFor();
    await waitForExpression(page, `((images) => images.length > 0 && images.every((img) => img.complete && img.naturalWidth > 0))([...document.querySelectorAll('.gallery img')])`);
    expect(await picture.getAttribute('src')).toBe(`${suite.app.t.base}/bundled-templates/simple-payment/preview.svg`);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Use Simple payment' }).click();
    await page.getByRole('heading', { level: 1, name: /^Edit form #\d+$/ }).waitFor();
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    expect(await formRow(id)).toMatchObject({ title: 'Simple payment', status: 'draft' });
    await page.getByText('Created from the template as a draft').waitFor();
    await waitForText(previewPrice(page), '$10.00');

    // The new price as decimal money; the preview shows it before anything is saved.
    const amount = page.getByLabel('Amount (USD)');
    expect(await amount.inputValue()).toBe('10.00');
    await amount.fill('12.50');
    await waitForText(previewPrice(page), '$12.50');
    expect(JSON.parse((await formRow(id))!.settings).plans[0].prices[0].amount).toBe(1000);
    expect(await page.locator(PREVIEW_FRAME).getAttribute('sandbox')).toBe('');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.', { exact: true }).waitFor();
    expect(JSON.parse((await formRow(id))!.settings).plans[0].prices[0]).toEqual({ amount: 1250, currency: 'USD', frequency: 'one-time' });
    await page.getByText('All changes are saved.').waitFor();

    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByText(/^Published: payers can pay at/).waitFor();
    expect((await formRow(id))!.status).toBe('publish');

    // The hosted page, opened from the builder in a new tab, charges the new price.
    // The snippet that embeds it on a merchant's page (the client's embedSnippet, on this origin).
    expect(await page.getByLabel('Embed on your site').inputValue()).toBe(`<script src="${suite.app.origin}/pay/embed.js" data-form-id="${id}" async></script>`);
    const [payPage] = await Promise.all([context.waitForEvent('page'), page.getByRole('link', { name: /Open the payment page/ }).first().click()]);
    await payPage.waitForLoadState();
    expect(new URL(payPage.url()).pathname).toBe(`/pay/${id}`);
    expect(await payPage.textContent('.price-label')).toBe('$12.50');
    await payPage.close();

    const outbox = join(suite.app.t.config.dataDir, 'outbox');
    const before = existsSync(outbox) ? readdirSync(outbox).length : 0;
    await page.getByLabel('Send the payer confirmation to').fill('payer@example.test');
    await page.getByRole('button', { name: 'Send a test email' }).click();
    await page.getByText('Not sent: this service has no mail server yet, so the test emails were kept on the server.').waitFor();
    await page.getByText('to payer@example.test', { exact: false }).waitFor();
    expect(readdirSync(outbox).length).toBe(before + 2);

    // Unpublishing takes the page down again.
    await page.getByRole('button', { name: 'Unpublish' }).click();
    await page.getByText(/^Unpublished/).waitFor();
    expect((await formRow(id))!.status).toBe('draft');
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows the API's validation error at its field, with focus on the summary that links to it, and saves nothing", async () => {
    const id = await importTemplate('donation');
    const saved = await formRow(id);
    const { page, context, errors } = await openConsole(suite.browser, suite.app);
    await signIn(page);
    await page.goto(`${suite.app.origin}/admin/forms/${id}`);
    await page.getByRole('heading', { level: 1, name: `Edit form #${id}` }).waitFor();
    await previewPrice(page).waitFor();

    // The API refuses an empty success message while the message action is on (settings.success_message).
    await page.getByRole('textbox', { name: 'Success message' }).fill('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    const summary = page.locator('.error-summary');
    await summary.waitFor();
    expect(await summary.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    const field = page.getByRole('textbox', { name: 'Success message' });
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await field.getAttribute('aria-describedby'))!.split(' ');
    const message = await page.locator(`[id="${describedBy[describedBy.length - 1]}"]`).textContent();
    expect(message).toMatch(/success_message/);
    await summary.getByRole('link', { name: 'Success message' }).click();
    expect(await focusedId(page)).toBe('f-settings-success_message');
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(await formRow(id)).toEqual(saved);
    // The preview refused the invalid draft and keeps showing the last one it drew.
    await page.getByText('The preview shows the last version the service accepted').waitFor();
    expect(await previewPrice(page).isVisible()).toBe(true);

    // An amount that is not one in the price's currency is caught before anything is sent.
    await page.getByRole('textbox', { name: 'Success message' }).fill('Thank you!');
    await page.getByLabel('Suggested amount (USD)').fill('12.505');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await summary.getByRole('link', { name: 'Plan 1, price 1: amount' }).waitFor();
    expect(await summary.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    expect(await page.getByLabel('Suggested amount (USD)').getAttribute('aria-invalid')).toBe('true');
    await page.getByText('The preview waits for a valid amount').waitFor();
    expect(await formRow(id)).toEqual(saved);
    // The refused save and the preview of the invalid draft answered 400: the only console errors.
    expect(errors.filter((error) => !error.includes('status of 400'))).toEqual([]);
    await context.close();
  });

  it("keeps the form's own texts in another payer language, and takes them away again (issue 32)", async () => {
    const id = await importTemplate('donation');
    // A select field, whose choices get versions of their own.
    const api = suite.app.t;
    const form = await request(api.http).get(`${api.base}/administration/payment-forms/${id}`).set('Authorization', api.admin.auth).expect(200);
    const fields = [...form.body.settings.fields, { name: 'fund', type: 'select', label: 'Fund', required: false, options: ['General', 'Youth'] }];
    await request(api.http).put(`${api.base}/administration/payment-forms/${id}`).set('Authorization', api.admin.auth).send({ settings: { ...form.body.settings, fields } }).expect(200);
    const { page, context, errors } = await openConsole(suite.browser, suite.app);
    await signIn(page);
    await page.goto(`${suite.app.origin}/admin/forms/${id}`);
    await page.getByRole('heading', { level: 1, name: `Edit form #${id}` }).waitFor();
    const section = page.getByRole('region', { name: 'Translations' });
    await section.getByLabel('Language').selectOption('de');
    await section.getByRole('button', { name: 'Add texts in this language' }).click();
    const german = section.getByRole('group', { name: 'Deutsch' });
    await german.getByRole('textbox', { name: 'Title', exact: true }).fill('Spende für den Verein');
    await german.getByRole('textbox', { name: 'Pay button label' }).fill('Jetzt spenden');
    await german.getByText('Original: Thank you for your donation to {form_title}').waitFor();
    await german.getByRole('textbox', { name: "Subject of the payer's confirmation email" }).fill('Danke für Ihre Spende an {form_title}');
    // A text filled, then emptied, is left out: the payer sees the form's own.
    await german.getByRole('textbox', { name: 'Message after payment' }).fill('Danke');
    await german.getByRole('textbox', { name: 'Message after payment' }).fill('');
    // Each field's label and each plan's title, with the form's own beside it.
    const labels = german.getByRole('group', { name: 'Field labels' });
    const dedication = labels.getByRole('textbox', { name: 'Label of the field dedication' });
    await labels.getByText('Original: Dedicate this gift (optional)').waitFor();
    await dedication.fill('Widmung (optional)');
    await labels.getByRole('textbox', { name: 'Label of the field first_name' }).fill('Vorname');
    await labels.getByRole('textbox', { name: 'Label of the field first_name' }).fill('');
    // A choice not written is sent as written: one per choice, the values unchanged.
    await labels.getByText('Original: Youth').waitFor();
    await labels.getByRole('textbox', { name: 'Choice 2 of the field fund' }).fill('Jugend');
    const titles = german.getByRole('group', { name: 'Plan titles' });
    await titles.getByText('Original: Donation').waitFor();
    await titles.getByRole('textbox', { name: 'Title of plan 1' }).fill('Spende');
    // German is taken: the next language offered is another.
    expect(await section.getByLabel('Language').inputValue()).not.toBe('de');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.', { exact: true }).waitFor();
    expect(JSON.parse((await formRow(id))!.settings).translations).toEqual([
      {
        locale: 'de',
        title: 'Spende für den Verein',
        button_label: 'Jetzt spenden',
        payer_subject: 'Danke für Ihre Spende an {form_title}',
        fields: [
          { name: 'dedication', label: 'Widmung (optional)' },
          { name: 'fund', options: ['General', 'Jugend'] },
        ],
        plans: [{ plan_index: 0, title: 'Spende' }],
      },
    ]);

    await page.setViewportSize({ width: 375, height: 800 });
    expect(await overflowsHorizontally(page)).toBe(false);
    await german.getByRole('button', { name: 'Remove the texts in Deutsch' }).click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.', { exact: true }).waitFor();
    expect(JSON.parse((await formRow(id))!.settings).translations).toBeUndefined();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('deletes another form after an accessible confirmation, by keyboard', async () => {
    const keep = await importTemplate('tip-jar');
    const doomed = await importTemplate('invoice');
    await request(suite.app.t.http).put(`${suite.app.t.base}/administration/payment-forms/${doomed}`).set('Authorization', suite.app.t.admin.auth).send({ title: 'Old invoice' }).expect(200);
    const { page, context, errors } = await openConsole(suite.browser, suite.app);
    await signIn(page);
    await page.goto(`${suite.app.origin}/admin/forms`);
    await page.getByRole('heading', { level: 1, name: 'Forms' }).waitFor();
    const deleteButton = page.getByRole('button', { name: 'Delete Old invoice' });
    await deleteButton.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Delete “Old invoice”?' });
    await dialog.waitFor();
    // Focus starts on Cancel; Escape closes and gives focus back to the button that opened it.
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Cancel');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await deleteButton.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    expect(await formRow(doomed)).toBeDefined();

    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Delete form');
    await page.keyboard.press('Enter');
    await page.getByText(`Deleted “Old invoice” (#${doomed}). Its payments are kept.`).waitFor();
    await page.getByRole('link', { name: 'Old invoice', exact: true }).waitFor({ state: 'detached' });
    expect(await formRow(doomed)).toBeUndefined();
    expect(await formRow(keep)).toBeDefined();
    expect(await page.getByRole('link', { name: 'Tip jar', exact: true }).count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('edits and saves a price by keyboard alone', async () => {
    const id = await importTemplate('subscription');
    const { page, context, errors } = await openConsole(suite.browser, suite.app);
    await signIn(page);
    await page.goto(`${suite.app.origin}/admin/forms/${id}`);
    await page.getByRole('heading', { level: 1, name: `Edit form #${id}` }).waitFor();
    expect(await focusedId(page)).toBe('page-title');
    for (let i = 0; i < 40 && (await focusedId(page)) !== 'f-settings-plans-0-prices-0-amount'; i++) await page.keyboard.press('Tab');
    expect(await focusedId(page)).toBe('f-settings-plans-0-prices-0-amount');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('11.00');
    // Tab on to the setup fee of this monthly price and give it one.
    for (let i = 0; i < 5 && (await focusedId(page)) !== 'f-settings-plans-0-prices-0-setup_amount'; i++) await page.keyboard.press('Tab');
    expect(await focusedId(page)).toBe('f-settings-plans-0-prices-0-setup_amount');
    await page.keyboard.type('2.5');
    // Enter in a text field submits the form: a save.
    await page.keyboard.press('Enter');
    await page.getByText('Saved.', { exact: true }).waitFor();
    expect(JSON.parse((await formRow(id))!.settings).plans[0].prices[0]).toMatchObject({ amount: 1100, frequency: 'm_1', setup_amount: 250 });

    // Leaving with unsaved changes asks first; Escape stays, confirming leaves and saves nothing.
    await page.keyboard.type('0');
    await page.getByText('You have unsaved changes.').waitFor();
    await page.getByRole('link', { name: 'All forms' }).click();
    const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
    await leave.waitFor();
    await page.keyboard.press('Escape');
    await leave.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).pathname).toBe(`/admin/forms/${id}`);
    await page.getByRole('link', { name: 'All forms' }).click();
    await leave.getByRole('button', { name: 'Leave without saving' }).click();
    await page.getByRole('heading', { level: 1, name: 'Forms' }).waitFor();
    expect(JSON.parse((await formRow(id))!.settings).plans[0].prices[0]).toMatchObject({ setup_amount: 250 });
    expect(errors).toEqual([]);
    await context.close();
  });

  it.each([375, 1280])('lays the list, the gallery and the builder out at %i px without sideways scrolling, axe-clean', async (width) => {
    const id = await importTemplate('membership');
    const { page, context, errors } = await openConsole(suite.browser, suite.app, width);
    await signIn(page);
    for (const [path, heading] of [
      ['/admin/forms', 'Forms'],
      ['/admin/forms/new', 'New form'],
      [`/admin/forms/${id}`, `Edit form #${id}`],
    ] as const) {
      await page.goto(`${suite.app.origin}${path}`);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      if (path.endsWith(String(id))) {
        // Below 60rem the builder shows the form or its preview: the preview is a tap away.
        if (width < 960) await page.getByRole('button', { name: 'Preview', exact: true }).click();
        await previewPrice(page).waitFor();
      }
      else await page.locator('.loading').first().waitFor({ state: 'detached' }); // first(): a screen may show several at once
      expect({ path, overflows: await overflowsHorizontally(page) }).toEqual({ path, overflows: false });
      expect(await seriousA11yViolations(page)).toEqual([]);
      if (process.env.CONSOLE_FORMS_SCREENSHOTS) await page.screenshot({ path: join(process.env.CONSOLE_FORMS_SCREENSHOTS, `forms-${heading.replace(/\W+/g, '-').toLowerCase()}-${width}.png`), fullPage: true });
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows an empty list with the way to the gallery', async () => {
    await suite.app.t.dataSource.query(`DELETE FROM ${suite.app.t.config.tablePrefix}checkout_forms`);
    const { page, context, errors } = await openConsole(suite.browser, suite.app);
    await signIn(page);
    await page.goto(`${suite.app.origin}/admin/forms`);
    await page.getByText('No forms yet.').waitFor();
    await page.getByRole('link', { name: 'Start from a template in the gallery' }).click();
    await page.getByRole('heading', { level: 1, name: 'New form' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});

/** Waits until the locator's text is `text` (the preview redraws after a pause in typing). */
async function waitForText(locator: ReturnType<Page['locator']>, text: string): Promise<void> {
  await locator.filter({ hasText: text }).waitFor({ timeout: 10_000 });
  expect(await locator.textContent()).toBe(text);
}
