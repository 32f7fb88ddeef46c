import request from 'supertest';
import { FormsService } from '../../src/modules/forms/index.js';
import { GatewayStateService } from '../../src/modules/gateways/index.js';
import { OptionsService, SettingsService } from '../../src/modules/settings/index.js';
import { connectGateway, createPaymentForm, formSettings } from '../support/payment-fixtures.js';
import { connectThroughProxy, type GatewayATestBed, startGatewayATestBed } from '../support/gateway-a.js';
import { expectWpError } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** Every `<script …>` tag of a page, and whether each one is an inline script (no src). */
function scriptTags(html: string): Array<{ tag: string; inline: boolean }> {
  return [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi)].map((match) => ({ tag: match[0], inline: !/\bsrc=/.test(match[0].split('>')[0]) || match[1].trim() !== '' }));
}

function nonceOf(csp: string): string {
  const match = /'nonce-([^']+)'/.exec(csp);
  if (!match) throw new Error(`no nonce in ${csp}`);
  return match[1];
}

/**
 * The hosted payment page `GET /pay/{form_id}` (issue 15): published forms only, server-rendered
 * and escaped, a strict CSP with a per-response nonce and no inline script, only public gateway
 * values, outside the REST namespace and outside the OpenAPI document.
 */
describe('hosted payment page (GET /pay/{form_id})', () => {
  let bed: GatewayATestBed;
  let t: TestApp;

  beforeAll(async () => {
    bed = await startGatewayATestBed({ GATEWAY_A_JS_URL: 'https://js.example-a.test/v3/', GATEWAY_B_JS_URL: 'https://sdk.example-b.test/sdk/js' });
    t = bed.t;
  });
  afterAll(() => bed.close());

  it('answers 404 (an HTML page with the same CSP) for an unknown, draft or malformed form id', async () => {
    const draft = await createPaymentForm(t, {}, 'draft');
    for (const path of ['/pay/999999', `/pay/${draft.id}`, '/pay/abc', '/pay/0', '/pay/1e3', '/pay/99999999999']) {
      const res = await request(t.http).get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['content-security-policy']).toContain("default-src 'none'");
      expect(res.headers['content-security-policy']).toContain("style-src 'self'; style-src-attr 'none'");
      expect(res.text).not.toMatch(/<style|\sstyle=/i);
      expect(res.text).toContain('not found');
    }
  });

  it('is outside the REST namespace and absent from the OpenAPI document', async () => {
    const form = await createPaymentForm(t);
    expect((await request(t.http).get(`${t.base}/pay/${form.id}`)).status).toBe(404);
    const doc = await request(t.http).get('/docs-json');
    expect(Object.keys(doc.body.paths).filter((path) => path.includes('/pay/'))).toEqual([]);
  });

  describe('a published form', () => {
    beforeAll(async () => {
      await connectThroughProxy(bed, 'test');
      await connectGateway(t, 'gateway_b', 'test');
    });

    it('renders the title (escaped), plans, prices, custom-amount bounds, payer fields and the enabled methods', async () => {
      const form = await t.app.get(FormsService).create({
        title: 'Tip <script>alert(1)</script> & "co"',
        status: 'publish',
        authorId: t.admin.id,
        settings: formSettings({ payment_methods: { gateway_a: ['ccard', 'sepa'], gateway_b: ['standard_checkout'] }, success_message: 'Thanks <b>a lot</b>' }),
      });
      const res = await request(t.http).get(`/pay/${form.id}`);
      expect(res.status).toBe(200);
      expect(res.text).toContain('<h1 id="form-title">Tip &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;co&quot;</h1>');
      expect(res.text).not.toContain('<script>alert(1)');
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.text).toContain('$10.00');
      expect(res.text).toContain('Any amount from $1.00 to $10,000.00');
      expect(res.text).toContain('€9.99 / month');
      expect(res.text).toMatch(/min="1.00" max="10000.00"/);
      for (const name of ['email_address', 'first_name', 'last_name', 'company', 'size']) expect(res.text).toContain(`name="${name}"`);
      expect(res.text).toContain('data-gateway="gateway_a" data-method="ccard"');
      expect(res.text).toContain('data-gateway="gateway_b" data-method="standard_checkout"');
      // The page drives only what it can: gateway A's payment element methods (no bank debit), the wallet of gateway B.
      expect(res.text).not.toContain('data-method="sepa"');
      expect(res.text).toContain('Thanks &lt;b&gt;a lot&lt;/b&gt;');
      // One container per gateway the page pays through: its library and driver come from the adapter port.
      expect(res.text).toMatch(/<div class="provider" id="provider-gateway_a" data-gateway="gateway_a" data-driver="payment_element" data-library-url="https:\/\/js\.example-a\.test\/v3\/"/);
      expect(res.text).toMatch(/<div class="provider" id="provider-gateway_b" data-gateway="gateway_b" data-driver="wallet_buttons" data-library-url="https:\/\/sdk\.example-b\.test\/sdk\/js"/);
      expect(res.text).toContain('data-driver="wallet_buttons" data-mode="test" data-one-time-only="true" value="gateway_b:standard_checkout">');
    });

    it("gives each payment element method the driver options of its intent, marks test mode and names the first price's amount on the button", async () => {
      const state = t.app.get(GatewayStateService);
      await state.setActiveMethods('gateway_a', ['ccard', 'device_wallet_1', 'regional_wallet_1']);
      try {
        const form = await createPaymentForm(t, { payment_methods: { gateway_a: ['ccard', 'device_wallet_1', 'regional_wallet_1', 'sepa'] } });
        const res = await request(t.http).get(`/pay/${form.id}`);
        const options = (method: string) => {
          const match = new RegExp(`data-method="${method}" data-driver="payment_element" data-driver-options="([^"]*)" data-mode="test"`).exec(res.text);
          return match ? JSON.parse(match[1].replace(/&quot;/g, '"')) : null;
        };
        expect(options('ccard')).toEqual({
          elements: { paymentMethodTypes: ['card', 'link'] },
          modes: { payment: { captureMethod: 'automatic' }, setup: { setupFutureUsage: 'off_session' } },
          element: { wallets: { applePay: 'never', googlePay: 'never' } },
          leaves_page: false,
        });
        expect(options('device_wallet_1')).toMatchObject({ elements: { paymentMethodTypes: ['card'] }, element: { wallets: { applePay: 'auto', googlePay: 'never' } } });
        expect(options('regional_wallet_1')).toMatchObject({ elements: { excludedPaymentMethodTypes: ['card', 'sepa_debit', 'us_bank_account'] }, leaves_page: true });
        expect(res.text).not.toContain('data-method="sepa"');
        expect(res.text).toContain('<p class="test-mode-banner" id="test-mode" role="note"><strong>Test mode</strong> No real payment is made on this page: use a test card.</p>');
        expect(res.text).toContain('class="pay-button">Pay $10.00</button>');
        // The markup the page script relies on (docs/hosted-page.md, "The markup contract").
        for (const part of ['id="error-summary"', 'id="error-email_address"', 'id="success-amount"', 'id="success-reference"', 'data-pay-verb="Subscribe" data-pay-suffix=" / month"']) expect(res.text).toContain(part);
      } finally {
        await state.setActiveMethods('gateway_a', ['ccard']);
      }
    });

    it("speaks the payer's language: Accept-Language, then the site's default; a form's fixed language wins (issue 32)", async () => {
      const form = await createPaymentForm(t);
      const german = await request(t.http).get(`/pay/${form.id}`).set('Accept-Language', 'de-DE,de;q=0.9,en;q=0.5');
      expect(german.status).toBe(200);
      expect(german.headers.vary).toMatch(/Accept-Language/);
      expect(german.text).toContain('<html lang="de">');
      expect(german.text).toContain('class="pay-button">10,00 $ bezahlen</button>');
      expect(german.text).toContain('<strong>Testmodus</strong> Auf dieser Seite wird keine echte Zahlung ausgeführt');
      expect(german.text).toContain('<legend>Ihre Angaben</legend>');
      expect(german.text).toMatch(/name="method"[^>]*> Karte<\/label>/);
      expect(german.text).toContain('data-locale="de"');
      expect(german.text).toContain('Bitte prüfen Sie die unten markierten Angaben.');
      // The merchant's own texts stay as written.
      expect(german.text).toContain('<h1 id="form-title">Checkout test form</h1>');
      // The page script's texts and the provider library's language come with the page, not inline script.
      expect(german.text).not.toMatch(/<script(?![^>]*\bsrc=)/);

      const japanese = await request(t.http).get(`/pay/${form.id}`).set('Accept-Language', 'ja-JP');
      expect(japanese.text).toContain('<html lang="ja">');
      expect(japanese.text).toContain('class="pay-button">$10.00 を支払う</button>');
      expect(japanese.text).toContain('<strong>テストモード</strong>');

      const english = await request(t.http).get(`/pay/${form.id}`);
      expect(english.text).toContain('<html lang="en">');
      expect(english.text).toContain('class="pay-button">Pay $10.00</button>');

      const settings = t.app.get(SettingsService);
      await settings.update({ language: 'es' });
      try {
        const fallback = await request(t.http).get(`/pay/${form.id}`).set('Accept-Language', 'zh-CN');
        expect(fallback.text).toContain('<html lang="es">');
        expect(fallback.text).toContain('Pagar 10,00 US$');
        const missing = await request(t.http).get('/pay/999999').set('Accept-Language', 'de');
        expect(missing.status).toBe(404);
        expect(missing.text).toContain('<html lang="de">');
        expect(missing.text).toContain('Zahlungsseite nicht gefunden');
        expect(missing.headers.vary).toMatch(/Accept-Language/);
      } finally {
        await settings.update({ language: 'en' });
      }

      const fixed = await createPaymentForm(t, { display: { locale: 'fr' } });
      const french = await request(t.http).get(`/pay/${fixed.id}`).set('Accept-Language', 'de');
      expect(french.text).toContain('<html lang="fr">');
      expect(french.text).toContain('Payer 10,00 $US');

      // The merchant's own texts in the payer's language, where the form has them.
      const translated = await createPaymentForm(t, { translations: [{ locale: 'de', title: 'Kurs auf Deutsch', button_label: 'Jetzt zahlen' }] });
      const translatedGerman = await request(t.http).get(`/pay/${translated.id}`).set('Accept-Language', 'de');
      expect(translatedGerman.text).toContain('<h1 id="form-title">Kurs auf Deutsch</h1>');
      expect(translatedGerman.text).toContain('class="pay-button">Jetzt zahlen 10,00\u00a0$</button>');
      const translatedEnglish = await request(t.http).get(`/pay/${translated.id}`).set('Accept-Language', 'en');
      expect(translatedEnglish.text).toContain('<h1 id="form-title">Checkout test form</h1>');
    });

    it('shows the form’s German field labels and plan titles to a German payer: the page, the embed and the public form', async () => {
      const translations = [{ locale: 'de' as const, fields: [{ name: 'company', label: 'Firma' }], plans: [{ plan_index: 1, title: 'Spende' }] }];
      const created = await request(t.http)
        .post(`${t.base}/administration/payment-forms`)
        .set('Authorization', t.admin.auth)
        .send({ title: 'Overrides', status: 'publish', settings: formSettings({ success_message: 'Thanks', translations }) });
      expect(created.status).toBe(201);
      expect(created.body.settings.translations).toEqual(translations);
      const id: number = created.body.id;

      for (const path of [`/pay/${id}`, `/pay/${id}?embed=1`]) {
        const german = await request(t.http).get(path).set('Accept-Language', 'de-DE');
        expect(german.status).toBe(200);
        expect(german.text).toContain('<label for="field-company">Firma</label>');
        expect(german.text).toContain('<span class="plan-title">Spende</span>');
        // What the form has no version of is shown as written.
        expect(german.text).toContain('<span class="plan-title">Payment</span>');
        expect(german.text).toContain('<label for="field-size">Size</label>');
        expect(german.text).not.toContain('<span class="plan-title">Donation</span>');
      }
      const english = await request(t.http).get(`/pay/${id}`).set('Accept-Language', 'en');
      expect(english.text).toContain('<label for="field-company">Company</label>');
      expect(english.text).toContain('<span class="plan-title">Donation</span>');

      const read = await request(t.http).get(`${t.base}/payment/form/${id}`).set('Accept-Language', 'de');
      expect(read.status).toBe(200);
      expect(read.headers.vary).toMatch(/Accept-Language/i);
      expect(read.body.locale).toBe('de');
      expect(read.body.plans.map((plan: { title: string }) => plan.title)).toEqual(['Payment', 'Spende', 'Yen']);
      expect(read.body.fields.find((field: { name: string }) => field.name === 'company').label).toBe('Firma');
      const readEnglish = await request(t.http).get(`${t.base}/payment/form/${id}`).set('Accept-Language', 'en');
      expect(readEnglish.body.locale).toBe('en');
      expect(readEnglish.body.plans[1].title).toBe('Donation');
      expect(readEnglish.headers.etag).not.toBe(read.headers.etag);
    });

    it('refuses versions of fields and plans the form does not have, and over-long ones, naming them; nothing is written', async () => {
      const post = (translations: unknown) =>
        request(t.http).post(`${t.base}/administration/payment-forms`).set('Authorization', t.admin.auth).send({ title: 'Refused', settings: { ...formSettings({ success_message: 'Thanks' }), translations } });
      // As for the texts themselves: an emptied one is a missing parameter, anything else an invalid one.
      const cases: Array<[unknown, string, RegExp, string]> = [
        [[{ locale: 'de', fields: [{ name: 'nickname', label: 'Spitzname' }] }], 'settings.translations', /translations\.0\.fields\.0\.name must name a field of this form/, 'rest_invalid_param'],
        [[{ locale: 'de', plans: [{ plan_index: 3, title: 'Vierter' }] }], 'settings.translations', /translations\.0\.plans\.0\.plan_index must name a plan of this form/, 'rest_invalid_param'],
        [[{ locale: 'de', fields: [{ name: 'company', label: 'x'.repeat(101) }] }], 'settings.translations.0.fields.0.label', /label must be shorter than or equal to 100 characters/, 'rest_invalid_param'],
        [[{ locale: 'de', plans: [{ plan_index: 0, title: 'a' }, { plan_index: 0, title: 'b' }] }], 'settings.translations.0.plans', /must not repeat a plan_index/, 'rest_invalid_param'],
        [[{ locale: 'de', plans: [{ plan_index: 0, title: ' ' }] }], 'settings.translations.0.plans.0.title', /title should not be empty/, 'rest_missing_callback_param'],
      ];
      for (const [translations, param, message, code] of cases) {
        const res = await post(translations);
        expect({ param, status: res.status }).toEqual({ param, status: 400 });
        const body = expectWpError(res.body, code, 400);
        expect(body.data.params).toEqual({ [param]: expect.stringMatching(message) });
      }
      const rows: Array<{ n: number }> = await t.dataSource.query(`SELECT COUNT(*) AS n FROM ${t.config.tablePrefix}checkout_forms WHERE title = 'Refused'`);
      expect(Number(rows[0].n)).toBe(0);
    });

    it('shows a German payer the German choices of a select field (page, embed, public form) while the value submitted and stored stays the choice as written', async () => {
      const translations = [{ locale: 'de' as const, payer_subject: 'Danke für {form_title}', fields: [{ name: 'size', options: ['Klein', 'Mittel & groß', 'Groß'] }] }];
      const created = await request(t.http)
        .post(`${t.base}/administration/payment-forms`)
        .set('Authorization', t.admin.auth)
        .send({ title: 'Choices', status: 'publish', settings: formSettings({ success_message: 'Thanks', translations }) });
      expect(created.status).toBe(201);
      expect(created.body.settings.translations).toEqual(translations);
      const id: number = created.body.id;

      for (const path of [`/pay/${id}`, `/pay/${id}?embed=1`]) {
        const german = await request(t.http).get(path).set('Accept-Language', 'de-DE');
        expect(german.text).toContain('<option value="S">Klein</option><option value="M">Mittel &amp; groß</option><option value="L">Groß</option>');
        // The label was not translated: shown as written.
        expect(german.text).toContain('<label for="field-size">Size</label>');
      }
      const english = await request(t.http).get(`/pay/${id}`).set('Accept-Language', 'en');
      expect(english.text).toContain('<option value="S">S</option><option value="M">M</option><option value="L">L</option>');

      const read = await request(t.http).get(`${t.base}/payment/form/${id}`).set('Accept-Language', 'de');
      const size = read.body.fields.find((field: { name: string }) => field.name === 'size');
      expect(size).toMatchObject({ options: ['S', 'M', 'L'], option_labels: ['Klein', 'Mittel & groß', 'Groß'] });
      const readEnglish = await request(t.http).get(`${t.base}/payment/form/${id}`).set('Accept-Language', 'en');
      expect(readEnglish.body.fields.find((field: { name: string }) => field.name === 'size')).toMatchObject({ options: ['S', 'M', 'L'], option_labels: ['S', 'M', 'L'] });

      // The payer submits the choice's value; its German label is no choice of the field.
      const sync = (size: string) =>
        request(t.http).post(`${t.base}/payment/sync-details`).send({ form_id: id, payment_gateway: 'gateway_a', payment_method: 'ccard', locale: 'de', custom_fields: { size } });
      const refused = await sync('Klein');
      expect(refused.status).toBe(400);
      expect(expectWpError(refused.body, 'rest_invalid_param', 400).data.params).toHaveProperty(['custom_fields.size']);
      const paid = await sync('M');
      expect(paid.status).toBe(201);
      const [stored] = await t.dataSource.query(`SELECT custom_fields FROM ${t.config.tablePrefix}checkout_payments WHERE id = ?`, [paid.body.payment_id]);
      expect(JSON.parse(String(stored.custom_fields))).toEqual({ size: 'M' });
    });

    it('refuses choices of a field that is no select or not one per choice, and a multi-line payer subject, naming them; nothing is written', async () => {
      const post = (translations: unknown) =>
        request(t.http).post(`${t.base}/administration/payment-forms`).set('Authorization', t.admin.auth).send({ title: 'Refused choices', settings: { ...formSettings({ success_message: 'Thanks' }), translations } });
      const cases: Array<[unknown, string, RegExp, string]> = [
        [[{ locale: 'de', fields: [{ name: 'size', options: ['Klein'] }] }], 'settings.translations', /translations\.0\.fields\.0\.options must give one label per choice of size \(it has 3\)/, 'rest_invalid_param'],
        [[{ locale: 'de', fields: [{ name: 'company', options: ['a'] }] }], 'settings.translations', /translations\.0\.fields\.0\.options are for a select field/, 'rest_invalid_param'],
        [[{ locale: 'de', fields: [{ name: 'size', options: ['a', 'b', 'x'.repeat(101)] }] }], 'settings.translations.0.fields.0.options', /shorter than or equal to 100 characters/, 'rest_invalid_param'],
        [[{ locale: 'de', fields: [{ name: 'size' }] }], 'settings.translations.0.fields.0.label', /label/, 'rest_missing_callback_param'],
        [[{ locale: 'de', payer_subject: 'Danke\nBcc: x@evil.example' }], 'settings.translations.0.payer_subject', /payer_subject must be a single line/, 'rest_invalid_param'],
        [[{ locale: 'de', payer_subject: 'x'.repeat(201) }], 'settings.translations.0.payer_subject', /shorter than or equal to 200 characters/, 'rest_invalid_param'],
      ];
      for (const [translations, param, message, code] of cases) {
        const res = await post(translations);
        expect({ param, status: res.status }).toEqual({ param, status: 400 });
        const body = expectWpError(res.body, code, 400);
        expect(body.data.params).toEqual({ [param]: expect.stringMatching(message) });
      }
      const rows: Array<{ n: number }> = await t.dataSource.query(`SELECT COUNT(*) AS n FROM ${t.config.tablePrefix}checkout_forms WHERE title = 'Refused choices'`);
      expect(Number(rows[0].n)).toBe(0);
    });

    it('escapes merchant text', async () => {
      const form = await createPaymentForm(t, { plans: [{ title: '<img src=x onerror=alert(1)>', prices: [{ amount: 500, currency: 'USD', frequency: 'one-time' }] }] });
      const res = await request(t.http).get(`/pay/${form.id}`);
      expect(res.text).not.toContain('<img src=x');
      expect(res.text).toContain('&lt;img src&#61;x onerror&#61;alert(1)&gt;');
    });

    it('sends a strict CSP with a fresh nonce, carries no inline script and no merchant secret', async () => {
      const form = await createPaymentForm(t);
      const first = await request(t.http).get(`/pay/${form.id}`);
      const second = await request(t.http).get(`/pay/${form.id}`);
      const csp = first.headers['content-security-policy'];
      const nonce = nonceOf(csp);
      expect(nonceOf(second.headers['content-security-policy'])).not.toBe(nonce);
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain(`script-src 'nonce-${nonce}' 'strict-dynamic' 'self' https://js.example-a.test https://sdk.example-b.test`);
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      expect(csp).toContain("frame-ancestors 'none'");
      // No EMBED_ORIGINS: no page may frame it, in the words of old browsers too.
      expect(first.headers['x-frame-options']).toBe('DENY');
      expect(first.text).not.toContain('data-embed-origins');
      expect(csp).toMatch(/connect-src 'self' https:\/\/js\.example-a\.test https:\/\/sdk\.example-b\.test/);
      // The page's own markup needs no inline style: libraries other than the providers' real ones add no style allowance.
      expect(csp).toContain("style-src 'self'; style-src-attr 'none'");
      expect(first.text).not.toMatch(/<style|\sstyle=/i);
      expect(first.text).toContain('<link rel="stylesheet" href="/pay/assets/form.css">');

      const scripts = scriptTags(first.text);
      expect(scripts).toEqual([{ tag: expect.stringMatching(new RegExp(`^<script src="/pay/assets/hosted-page-[A-Za-z0-9]{12}\\.js" nonce="${nonce.replace(/[+/]/g, (c) => `\\${c}`)}" defer></script>$`)), inline: false }]);
      expect(first.text).not.toMatch(/\son[a-z]+=/i);

      const secrets: string[] = [];
      const rows: Array<{ name: string }> = await t.dataSource.query(`SELECT option_name AS name FROM ${t.config.tablePrefix}options`);
      const options = t.app.get(OptionsService);
      for (const { name } of rows) {
        const secret = await options.getSecret(name).catch(() => null);
        if (typeof secret === 'string' && secret.length >= 8) secrets.push(secret);
      }
      expect(secrets.length).toBeGreaterThanOrEqual(3);
      for (const secret of secrets) expect(first.text).not.toContain(secret);
      expect(first.text).not.toMatch(/sk_(test|live)_/);
      // The public values the providers' libraries need are there.
      expect(first.text).toMatch(/data-browser-config="\{&quot;publishable_key&quot;:&quot;pk_test_[A-Za-z0-9]+&quot;\}"/);
      expect(first.text).toContain('data-browser-config="{&quot;client_id&quot;:&quot;client-test&quot;}"');
    });

    it('offers no method whose gateway is paused, inactive or not connected', async () => {
      const form = await createPaymentForm(t);
      await t.app.get(GatewayStateService).setActiveMethods('gateway_b', []);
      await t.app.get(GatewayStateService).setMode('gateway_a', 'live');
      try {
        const res = await request(t.http).get(`/pay/${form.id}`);
        expect(res.status).toBe(200);
        expect(res.text).not.toContain('data-method=');
        expect(res.text).toContain('cannot take payments right now');
        expect(res.headers['content-security-policy']).not.toContain('example-a.test');
      } finally {
        await t.app.get(GatewayStateService).setActiveMethods('gateway_b', ['standard_checkout']);
        await t.app.get(GatewayStateService).setMode('gateway_a', 'test');
      }
    });

    it("serves its script and each gateway's driver as built bundles named by their content hash, cached as immutable", async () => {
      const form = await createPaymentForm(t);
      const page = await request(t.http).get(`/pay/${form.id}`);
      const scriptPath = /<script src="(\/pay\/assets\/hosted-page-[A-Za-z0-9]{12}\.js)"/.exec(page.text)![1];
      const res = await request(t.http).get(scriptPath);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/javascript/);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.text).toContain('/payment/sync-details');
      expect(res.headers.etag).toBeDefined();
      // The script knows gateways only by the page's data attributes: no gateway id, slice route or provider library.
      expect(res.text).not.toMatch(/['"]gateway_[a-z]['"]|\/gateway-[a-z]\/|Stripe|paypal/);

      // Each gateway container names its driver's bundle and its slice's routes (data from the adapter).
      const drivers = [...page.text.matchAll(/data-driver="([a-z_]+)"[^>]*data-driver-src="([^"]+)" data-routes="([^"]+)"/g)].map((match) => ({
        driver: match[1],
        src: match[2],
        routes: JSON.parse(match[3].replace(/&quot;/g, '"')) as Record<string, string>,
      }));
      expect(drivers).toEqual([
        { driver: 'payment_element', src: expect.stringMatching(/^\/pay\/assets\/driver-payment_element-[A-Za-z0-9]{12}\.js$/), routes: { intent: '/gateway-a/payment-intent-or-setup', checkout: '/gateway-a/checkout' } },
        { driver: 'wallet_buttons', src: expect.stringMatching(/^\/pay\/assets\/driver-wallet_buttons-[A-Za-z0-9]{12}\.js$/), routes: { order: '/gateway-b/order', capture: '/gateway-b/order/capture' } },
      ]);
      for (const { driver, src } of drivers) {
        const bundle = await request(t.http).get(src);
        expect(bundle.status).toBe(200);
        expect(bundle.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(bundle.text).toContain(`defineCheckoutDriver("${driver}"`);
      }
      // Only the built files are served: the old unhashed name and anything else are not found.
      for (const path of ['/pay/assets/hosted-page.js', '/pay/assets/manifest.json', '/pay/assets/embed.js', '/pay/assets/..%2Fmanifest.json']) {
        expect({ path, status: (await request(t.http).get(path)).status }).toEqual({ path, status: 404 });
      }
    });

    it('serves the form stylesheet and one accent stylesheet per colour, revalidated by ETag', async () => {
      const css = await request(t.http).get('/pay/assets/form.css');
      expect(css.status).toBe(200);
      expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
      expect(css.headers['x-content-type-options']).toBe('nosniff');
      expect(css.text).toContain('.choice{');
      expect((await request(t.http).get('/pay/assets/form.css').set('If-None-Match', css.headers.etag)).status).toBe(304);

      const accent = await request(t.http).get('/pay/assets/accent/1e73be.css');
      expect(accent.status).toBe(200);
      expect(accent.headers['content-type']).toBe('text/css; charset=utf-8');
      expect(accent.text).toBe(':root{--accent:#1e73be;--on-accent:#ffffff}\n');
      // A light accent gets dark text: white on it would not read (WCAG AA 4.5:1).
      expect((await request(t.http).get('/pay/assets/accent/16a34a.css')).text).toBe(':root{--accent:#16a34a;--on-accent:#111827}\n');
      expect(accent.headers['cache-control']).toBe('public, max-age=31536000');
      for (const bad of ['1E73BE.css', '1e73b.css', 'red.css', '1e73be.js', '1e73be.css.map']) {
        expect({ bad, status: (await request(t.http).get(`/pay/assets/accent/${bad}`)).status }).toEqual({ bad, status: 404 });
      }
    });

    it("draws the form's accent colour and layout through stylesheets, and hides a title the form does not show", async () => {
      const form = await createPaymentForm(t, { display: { primary_color: '#1E73BE', layout: 'compact', show_title: false, button_label: 'Give' } });
      const res = await request(t.http).get(`/pay/${form.id}`);
      expect(res.text).toContain('<link rel="stylesheet" href="/pay/assets/accent/1e73be.css">');
      expect(res.text).toContain('class="checkout-form layout-compact"');
      expect(res.text).toContain('<h1 id="form-title" class="visually-hidden">Checkout test form</h1>');
      expect(res.text).toContain('>Give $10.00</button>');
    });
  });

  it('serves the embed script for merchant pages: the same file for every form, origin-checked height messages', async () => {
    const res = await request(t.http).get('/pay/embed.js');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers.etag).toBeDefined();
    expect((await request(t.http).get('/pay/embed.js').set('If-None-Match', res.headers.etag)).status).toBe(304);
    expect(res.text).toContain('"/pay/" + formId + "?embed=1"');
    expect(res.text).toContain('event.origin !== origin || event.source !== frame.contentWindow');
    expect(res.text).not.toMatch(/['"]gateway_[a-z]['"]/);
  });
});

/** EMBED_ORIGINS: the hosted page may be framed by exactly the listed origins (issue 23 item 4). */
describe('hosted payment page with EMBED_ORIGINS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ EMBED_ORIGINS: 'https://shop.example, http://127.0.0.1:8080' });
  });
  afterAll(() => t.close());

  it('lists exactly those origins in frame-ancestors, drops X-Frame-Options, and tells the page where its height goes', async () => {
    const form = await createPaymentForm(t);
    for (const path of [`/pay/${form.id}`, `/pay/${form.id}?embed=1`, '/pay/999999']) {
      const res = await request(t.http).get(path);
      const csp = res.headers['content-security-policy'];
      expect({ path, frameAncestors: /frame-ancestors ([^;]*)/.exec(csp)?.[1] }).toEqual({ path, frameAncestors: 'https://shop.example http://127.0.0.1:8080' });
      expect(res.headers['x-frame-options']).toBeUndefined();
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    }
    const page = await request(t.http).get(`/pay/${form.id}`);
    expect(page.text).toContain('data-embed-origins="https://shop.example http://127.0.0.1:8080"');
    expect(page.text).toContain('<body class="form-page">');
    // ?embed=1 changes the layout only.
    const embedded = await request(t.http).get(`/pay/${form.id}?embed=1`);
    expect(embedded.status).toBe(200);
    expect(embedded.text).toContain('<body class="form-page embedded">');
  });
});
