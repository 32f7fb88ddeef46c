import type { PaymentFormSettings } from '../forms/index.js';
import { payerTranslator } from '../../common/payer-language/index.js';
import { type RenderMethod, renderFormPage } from './form.renderer.js';
import { frequencyInterval, localizePayerForm, toPayerForm } from './payer-form.js';

const settings = (overrides: Partial<PaymentFormSettings> = {}): PaymentFormSettings => ({
  plans: [{ title: 'Plan', prices: [{ amount: 1000, currency: 'USD', frequency: 'one-time' }] }],
  payment_methods: { gateway_a: ['ccard'] },
  fields: [{ name: 'email_address', type: 'email', label: 'Email', required: true }],
  submit_actions: ['message'],
  email: { email_to: 'a@example.test', admin_subject: 'a', payer_subject: 'b', from_name: 'c' },
  display: {},
  ...overrides,
});

const card: RenderMethod[] = [{ gateway: 'gateway_a', method: 'ccard', label: 'Card', available: true, oneTimeOnly: false }];
const preview = (title: string, formSettings: PaymentFormSettings, methods: RenderMethod[] = card) =>
  renderFormPage(toPayerForm(7, title, formSettings), { purpose: 'preview', methods });

describe('renderFormPage', () => {
  it('escapes every merchant string in text and attributes', () => {
    const html = preview(
      '<script>alert(1)</script>',
      settings({
        plans: [{ title: '<b onmouseover=x>', prices: [{ amount: 1000, currency: 'USD', frequency: 'one-time' }] }],
        fields: [
          { name: 'email_address', type: 'email', label: '"><svg onload=alert(1)>', required: true },
          { name: 'pick', type: 'select', label: 'Pick', required: false, options: ['"><script>x</script>', "it's"] },
        ],
        display: { description: '<iframe src=x>', button_label: '</button><script>', primary_color: 'red;}</style><script>' },
      }),
      [{ gateway: 'gateway_a', method: 'ccard', label: '<i>Card</i>', available: true, oneTimeOnly: false }],
    );
    expect(html).not.toMatch(/<script|<svg|<iframe|<b |<i>/);
    expect(html).toContain('<h1 id="form-title">&lt;script&gt;alert(1)&lt;/script&gt;</h1>');
    expect(html).toContain('<option value="&quot;&gt;&lt;script&gt;x&lt;/script&gt;">');
    expect(html).toContain('it&#39;s');
    // An invalid colour never reaches a stylesheet URL: the default accent is used.
    expect(html).toContain('<link rel="stylesheet" href="/pay/assets/accent/2563eb.css">');
  });

  it('has no inline style, no style attribute and no script: both pages can forbid them', () => {
    const html = preview('Styled', settings({ display: { primary_color: '#1E73BE', layout: 'compact', description: 'x' } }));
    expect(html).not.toMatch(/<style|\sstyle=|<script|\son[a-z]+=/i);
    expect(html).toContain('<link rel="stylesheet" href="/pay/assets/form.css">');
    expect(html).toContain('<link rel="stylesheet" href="/pay/assets/accent/1e73be.css">');
    expect(html).toContain('class="checkout-form layout-compact"');
  });

  it('formats prices in each currency’s own decimals and renders custom-amount bounds in major units', () => {
    const html = preview(
      'Prices',
      settings({
        plans: [
          { title: 'Yen', prices: [{ amount: 1000, currency: 'JPY', frequency: 'one-time', custom_amount: { min: 100, max: 50000 } }] },
          { title: 'Dinar', prices: [{ amount: 1500, currency: 'KWD', frequency: 'm_1' }] },
          { title: 'Euro', prices: [{ amount: 999, currency: 'EUR', frequency: 'y_1', setup_amount: 250 }] },
        ],
      }),
    );
    expect(html).toContain('Any amount from ¥100 to ¥50,000');
    expect(html).toContain('min="100" max="50000" step="1" value="1000"');
    expect(html).toMatch(/KWD\s1\.500 \/ month/);
    expect(html).toContain('€9.99 / year + €2.50 setup fee');
    expect(html).toContain('data-currency="KWD" data-exponent="3" data-frequency="m_1"');
  });

  it('shows only the chosen price’s amount input; the others wait hidden for the page script', () => {
    const html = preview(
      'Two',
      settings({
        plans: [
          {
            title: 'Gift',
            prices: [
              { amount: 500, currency: 'USD', frequency: 'one-time', custom_amount: { min: 100, max: 10000 } },
              { amount: 700, currency: 'USD', frequency: 'one-time', custom_amount: { min: 100, max: 10000 } },
            ],
          },
        ],
      }),
    );
    expect(html).toContain('<label class="custom-amount" data-for="price-0-0">');
    expect(html).toContain('<label class="custom-amount" data-for="price-0-1" hidden>');
  });

  it('marks the preview, disables its button, and keeps a hidden title for screen readers', () => {
    const hidden = preview('Secret title', settings({ display: { show_title: false } }), []);
    expect(hidden).toContain('<p class="preview-banner" role="note">Preview: payments are disabled.</p>');
    expect(hidden).toContain('<h1 id="form-title" class="visually-hidden">Secret title</h1>');
    expect(hidden).toContain('No payment method is enabled for this form.');
    expect(hidden).toContain('<button type="button" id="pay-button" class="pay-button" disabled>Pay $10.00</button>');
    expect(hidden).not.toContain('id="success"');
    const inactive = preview('x', settings(), [{ gateway: 'gateway_b', method: 'standard_checkout', label: 'Wallet', available: false, note: 'not active on this site', oneTimeOnly: true }]);
    expect(inactive).toContain('data-one-time-only="true" value="gateway_b:standard_checkout" disabled> Wallet <small>(not active on this site)</small>');
  });

  it('draws the payment page with its form data, gateway containers, status boxes and success message', () => {
    const form = toPayerForm(7, 'Pay', settings({ submit_actions: ['message', 'redirect'], success_message: 'Thanks <b>!</b>', redirect_url: 'https://shop.example/thanks' }));
    const html = renderFormPage(form, {
      purpose: 'payment',
      methods: [{ ...card[0], driver: 'payment_element', driverOptions: { elements: { paymentMethodTypes: ['card'] }, leaves_page: false }, testMode: false }],
      head: ['<script src="/pay/assets/hosted-page-abc123.js" nonce="n" defer></script>'],
      formData: { 'form-id': 7, 'rest-base': '/wp-json/checkout/v1', 'redirect-url': form.redirectUrl! },
      gatewayContainers: '<div class="provider" data-gateway="gateway_a" hidden></div>',
    });
    expect(html).toContain('<form id="checkout-form" class="checkout-form layout-stacked" novalidate aria-labelledby="form-title" data-form-id="7" data-rest-base="/wp-json/checkout/v1" data-redirect-url="https://shop.example/thanks">');
    expect(html).toContain(
      'data-gateway="gateway_a" data-method="ccard" data-driver="payment_element" data-driver-options="{&quot;elements&quot;:{&quot;paymentMethodTypes&quot;:[&quot;card&quot;]},&quot;leaves_page&quot;:false}" data-mode="live" value="gateway_a:ccard" checked> Card</label>',
    );
    expect(html).toContain('<div class="provider" data-gateway="gateway_a" hidden></div>\n<button type="submit" id="pay-button" class="pay-button">Pay $10.00</button>');
    expect(html).toContain('<p id="success-message">Thanks &lt;b&gt;!&lt;/b&gt;</p><p id="success-amount"></p><p id="success-reference"></p></div>');
    // The flow's boxes take focus (tabindex -1): the summary of field errors, a failure, the confirmation.
    expect(html).toContain('<div id="error-summary" class="error-summary" tabindex="-1" role="group" aria-labelledby="error-summary-title" hidden>');
    expect(html).toContain('<div id="failure" class="failure" tabindex="-1" role="alert" hidden>');
    expect(html).toContain('<div id="success" class="success" tabindex="-1" hidden>');
    // Each payer field has its own message box for the page script, before the control.
    expect(html).toContain('<label for="field-email_address">Email <span class="required" aria-hidden="true">*</span></label><p class="field-error" id="error-email_address" hidden></p><input type="email"');
    expect(html).not.toContain('test-mode');
    expect(html).not.toContain('preview-banner');
    const none = renderFormPage(form, { purpose: 'payment', methods: [] });
    expect(none).toContain('This form cannot take payments right now.');
    expect(none).not.toContain('id="pay-button"');
  });
});

describe('the Pay button and the test-mode marker', () => {
  const page = (formSettings: PaymentFormSettings, methods: RenderMethod[]) => renderFormPage(toPayerForm(7, 'T', formSettings), { purpose: 'payment', methods });

  it('names what will be charged: the amount, the interval and a setup fee; recurring prices subscribe; a label of the form’s own is kept', () => {
    const html = page(
      settings({
        plans: [
          {
            title: 'Plan',
            prices: [
              { amount: 900, currency: 'USD', frequency: 'm_1' },
              { amount: 1000, currency: 'EUR', frequency: 'one-time' },
              { amount: 2500, currency: 'USD', frequency: 'y_1', setup_amount: 500 },
              { amount: 1500, currency: 'JPY', frequency: 'one-time', custom_amount: { min: 100, max: 50000 } },
            ],
          },
        ],
      }),
      card,
    );
    expect(html).toContain('class="pay-button">Subscribe $9.00 / month</button>');
    expect(html).toContain('data-amount="900" data-display-digits="2" data-pay-verb="Subscribe" data-pay-suffix=" / month" checked>');
    expect(html).toContain('data-amount="1000" data-display-digits="2" data-pay-verb="Pay" data-pay-suffix="">');
    expect(html).toContain('data-pay-verb="Subscribe" data-pay-suffix=" / year + $5.00 setup fee">');
    expect(html).toContain('data-custom-min="100" data-custom-max="50000" data-default-amount="1500" data-amount="1500" data-display-digits="0" data-pay-verb="Pay" data-pay-suffix="">');
    const donate = page(settings({ display: { button_label: 'Donate' }, plans: [{ title: 'P', prices: [{ amount: 500, currency: 'USD', frequency: 'm_1' }] }] }), card);
    expect(donate).toContain('class="pay-button">Donate $5.00 / month</button>');
  });

  it('marks test mode: a banner for the page, and a badge on each method in test mode when not all are', () => {
    const all = page(settings(), [{ ...card[0], testMode: true }]);
    expect(all).toContain('<p class="test-mode-banner" id="test-mode" role="note"><strong>Test mode</strong> No real payment is made on this page: use a test card.</p>');
    expect(all).toContain('data-mode="test" value="gateway_a:ccard" checked> Card</label>');
    const some = page(settings(), [{ ...card[0], testMode: true }, { gateway: 'gateway_b', method: 'standard_checkout', label: 'Wallet', available: true, oneTimeOnly: true, testMode: false }]);
    expect(some).toContain('The methods marked “test” make no real payment.');
    expect(some).toContain('data-mode="test" value="gateway_a:ccard" checked> Card <span class="test-badge">test</span></label>');
    expect(some).toContain('data-mode="live" data-one-time-only="true" value="gateway_b:standard_checkout"> Wallet</label>');
    expect(page(settings(), [{ ...card[0], testMode: false }])).not.toContain('test-mode-banner');
    // The preview never claims a mode: it takes no payment at all.
    expect(renderFormPage(toPayerForm(7, 'T', settings()), { purpose: 'preview', methods: [{ ...card[0], testMode: true }] })).not.toContain('test-mode-banner');
  });

  it('drops the page margins inside a merchant’s page', () => {
    expect(renderFormPage(toPayerForm(7, 'T', settings()), { purpose: 'payment', methods: card, embedded: true })).toContain('<body class="form-page embedded">');
    expect(renderFormPage(toPayerForm(7, 'T', settings()), { purpose: 'payment', methods: card })).toContain('<body class="form-page">');
  });
});

describe('toPayerForm', () => {
  it('always asks for the email, required, and resolves the display settings once', () => {
    const form = toPayerForm(3, 'T', settings({ fields: [{ name: 'first_name', type: 'text', label: 'First', required: false }], submit_actions: ['email'], success_message: 'unused' }));
    expect(form.fields.map((field) => [field.name, field.required])).toEqual([['email_address', true], ['first_name', false]]);
    expect(form).toMatchObject({ showTitle: true, description: null, buttonLabel: 'Pay', accent: '2563eb', layout: 'stacked', redirectUrl: null, successMessage: 'Thank you: your payment is complete.' });
    const optionalEmail = toPayerForm(3, 'T', settings({ fields: [{ name: 'email_address', type: 'email', label: 'Mail', required: false }] }));
    expect(optionalEmail.fields).toEqual([{ name: 'email_address', type: 'email', label: 'Mail', required: true }]);
  });

  it('names the interval of a recurring frequency', () => {
    expect(frequencyInterval('one-time')).toBeNull();
    expect(frequencyInterval('m_3')).toEqual({ unit: 'month', count: 3 });
    expect(frequencyInterval('y_1')).toEqual({ unit: 'year', count: 1 });
    expect(frequencyInterval('d_1')).toEqual({ unit: 'day', count: 1 });
    expect(frequencyInterval('w_1')).toEqual({ unit: 'week', count: 1 });
  });
});

describe('renderFormPage in the payer’s language (issue 32)', () => {
  const page = (locale: 'de' | 'ja' | 'pl', formSettings: PaymentFormSettings) =>
    renderFormPage(toPayerForm(7, 'Kurs', formSettings), { purpose: 'payment', methods: [{ ...card[0], testMode: true }], translator: payerTranslator(locale) });

  it('writes the service’s texts, amounts and intervals in the language; the merchant’s own texts stay as written', () => {
    const html = page(
      'de',
      settings({
        plans: [{ title: 'Mein Plan', prices: [{ amount: 999, currency: 'EUR', frequency: 'm_1', setup_amount: 500 }, { amount: 1000, currency: 'EUR', frequency: 'one-time', custom_amount: { min: 100, max: 100000 } }] }],
        fields: [{ name: 'email_address', type: 'email', label: 'E-Mail', required: true }, { name: 'note', type: 'text', label: 'My note', required: false }],
      }),
    );
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('<strong>Testmodus</strong>');
    expect(html).toContain('<legend>Ihre Angaben</legend>');
    expect(html).toContain('<span class="price-label">9,99\u00a0€ / Monat + 5,00\u00a0€ Einrichtungsgebühr</span>');
    expect(html).toContain('<span class="price-label">Beliebiger Betrag von 1,00\u00a0€ bis 1.000,00\u00a0€</span>');
    expect(html).toContain('class="pay-button">9,99\u00a0€ / Monat + 5,00\u00a0€ Einrichtungsgebühr abonnieren</button>');
    expect(html).toContain('data-pay-template="{amount} abonnieren"');
    expect(html).toContain('> Karte</label>');
    expect(html).toContain('<span class="plan-title">Mein Plan</span>');
    expect(html).toContain('My note');
    expect(html).toContain('Vielen Dank: Ihre Zahlung ist abgeschlossen.');
    expect(html).toContain('<div id="page-messages" hidden data-locale="de" data-messages="{&quot;successAmount&quot;:&quot;Betrag: {amount}&quot;');
  });

  it('keeps a pay button label of the merchant’s own before the amount, and its own success message', () => {
    const html = page('ja', settings({ display: { button_label: 'Donate' }, submit_actions: ['message'], success_message: 'Thanks!' }));
    expect(html).toContain('<html lang="ja">');
    expect(html).toContain('class="pay-button">Donate $10.00</button>');
    expect(html).toContain('>Thanks!</p>');
  });
});

describe('localizePayerForm', () => {
  it('puts the merchant’s texts of the payer’s language in place of the written ones; other languages keep them', () => {
    const form = toPayerForm(
      7,
      'Course',
      settings({ success_message: 'Thanks', display: { button_label: 'Pay now' }, translations: [{ locale: 'de', title: 'Kurs', button_label: 'Jetzt zahlen', success_message: 'Danke' }] }),
    );
    expect(localizePayerForm(form, 'de')).toMatchObject({ title: 'Kurs', buttonLabel: 'Jetzt zahlen', successMessage: 'Danke', description: null });
    expect(localizePayerForm(form, 'fr')).toEqual(form);
    const html = renderFormPage(localizePayerForm(form, 'de'), { purpose: 'payment', methods: card, translator: payerTranslator('de') });
    expect(html).toContain('<h1 id="form-title">Kurs</h1>');
    expect(html).toContain('class="pay-button">Jetzt zahlen 10,00\u00a0$</button>');
  });

  it('puts field labels (by name) and plan titles (by plan_index) of the payer’s language in the page; the rest as written', () => {
    const plans = [
      { title: 'Basic', prices: [{ amount: 1000, currency: 'USD', frequency: 'one-time' as const }] },
      { title: 'Gold', prices: [{ amount: 2000, currency: 'USD', frequency: 'one-time' as const }] },
    ];
    const fields = [
      { name: 'email_address', type: 'email' as const, label: 'Email', required: true },
      { name: 'company', type: 'text' as const, label: 'Company', required: false },
      { name: 'size', type: 'select' as const, label: 'Size', required: false, options: ['S', 'M'] },
    ];
    const form = toPayerForm(
      7,
      'Course',
      settings({
        plans,
        fields,
        submit_actions: [],
        translations: [{ locale: 'de', fields: [{ name: 'company', label: 'Firma' }], plans: [{ plan_index: 1, title: 'Gold (DE)' }], success_message: 'Danke' }],
      }),
    );
    const german = localizePayerForm(form, 'de');
    expect(german.fields.map((field) => field.label)).toEqual(['Email', 'Firma', 'Size']);
    expect(german.plans.map((plan) => plan.title)).toEqual(['Basic', 'Gold (DE)']);
    // Prices and the fields' other properties are the form's own.
    expect(german.plans[1].prices).toBe(plans[1].prices);
    expect(german.fields[2]).toEqual({ ...fields[2], label: 'Size', optionLabels: ['S', 'M'] });
    // No message of the merchant's own (the message action is off): the service's default stays, in the payer's language.
    expect(german.successMessage).toBe(form.successMessage);
    const html = renderFormPage(german, { purpose: 'payment', methods: card, translator: payerTranslator('de') });
    expect(html).toContain('<span class="plan-title">Gold (DE)</span>');
    expect(html).toContain('<span class="plan-title">Basic</span>');
    expect(html).toContain('<label for="field-company">Firma</label>');
    expect(html).not.toContain('>Danke<');
    expect(localizePayerForm(form, 'fr').plans.map((plan) => plan.title)).toEqual(['Basic', 'Gold']);
  });

  it('shows a select field’s choices in the payer’s language, each keeping its value as written', () => {
    const fields = [
      { name: 'email_address', type: 'email' as const, label: 'Email', required: true },
      { name: 'size', type: 'select' as const, label: 'Size', required: false, options: ['S', 'M & L'] },
    ];
    const form = toPayerForm(7, 'Course', settings({ fields, translations: [{ locale: 'de', fields: [{ name: 'size', options: ['Klein', 'Mittel & groß'] }] }] }));
    const german = localizePayerForm(form, 'de');
    expect(german.fields[1]).toEqual({ ...fields[1], optionLabels: ['Klein', 'Mittel & groß'] });
    const html = renderFormPage(german, { purpose: 'payment', methods: card, translator: payerTranslator('de') });
    expect(html).toContain('<label for="field-size">Size</label>');
    expect(html).toContain('<option value="S">Klein</option><option value="M &amp; L">Mittel &amp; groß</option>');
    const english = renderFormPage(localizePayerForm(form, 'en'), { purpose: 'payment', methods: card });
    expect(english).toContain('<option value="S">S</option><option value="M &amp; L">M &amp; L</option>');
  });
});
