import type { PaymentFormSettings } from '../forms/index.js';
import { renderLivePreview } from './live-preview.renderer.js';

const settings = (overrides: Partial<PaymentFormSettings> = {}): PaymentFormSettings => ({
  plans: [{ title: 'Plan', prices: [{ amount: 1000, currency: 'USD', frequency: 'one-time' }] }],
  payment_methods: { gateway_a: ['ccard'] },
  fields: [{ name: 'email_address', type: 'email', label: 'Email', required: true }],
  submit_actions: ['message'],
  email: { email_to: 'a@example.test', admin_subject: 'a', payer_subject: 'b', from_name: 'c' },
  display: {},
  ...overrides,
});

const card = [{ gateway: 'gateway_a', method: 'ccard', label: 'Card', active: true }];

describe('renderLivePreview', () => {
  it('escapes every merchant string in text and attributes', () => {
    const html = renderLivePreview({
      title: '<script>alert(1)</script>',
      settings: settings({
        plans: [{ title: '<b onmouseover=x>', prices: [{ amount: 1000, currency: 'USD', frequency: 'one-time' }] }],
        fields: [
          { name: 'email_address', type: 'email', label: '"><svg onload=alert(1)>', required: true },
          { name: 'pick', type: 'select', label: 'Pick', required: false, options: ['"><script>x</script>', "it's"] },
        ],
        display: { description: '<iframe src=x>', button_label: '</button><script>', primary_color: 'red;}</style><script>' },
      }),
      methods: [{ gateway: 'gateway_a', method: 'ccard', label: '<i>Card</i>', active: true }],
    });
    expect(html).not.toMatch(/<script|<svg|<iframe|<b |<i>/);
    expect(html).toContain('<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>');
    expect(html).toContain('<option value="&quot;&gt;&lt;script&gt;x&lt;/script&gt;">');
    expect(html).toContain('it&#39;s');
    // An invalid colour never reaches the stylesheet.
    expect(html).toContain('background:#2563eb');
  });

  it('formats prices in each currency’s own decimals and renders custom-amount bounds in major units', () => {
    const html = renderLivePreview({
      title: 'Prices',
      settings: settings({
        plans: [
          { title: 'Yen', prices: [{ amount: 1000, currency: 'JPY', frequency: 'one-time', custom_amount: { min: 100, max: 50000 } }] },
          { title: 'Dinar', prices: [{ amount: 1500, currency: 'KWD', frequency: 'm_1' }] },
          { title: 'Euro', prices: [{ amount: 999, currency: 'EUR', frequency: 'y_1', setup_amount: 250 }] },
        ],
      }),
      methods: card,
    });
    expect(html).toContain('Any amount from ¥100 to ¥50,000');
    expect(html).toContain('min="100" max="50000" step="1" value="1000"');
    expect(html).toMatch(/KWD\s1\.500 \/ month/);
    expect(html).toContain('€9.99 / year + €2.50 setup fee');
  });

  it('hides the title when asked, shows inactive methods disabled, and warns without methods', () => {
    const hidden = renderLivePreview({ title: 'Secret title', settings: settings({ display: { show_title: false } }), methods: [] });
    expect(hidden).not.toContain('<h1>');
    expect(hidden).toContain('No payment method is enabled for this form.');
    const inactive = renderLivePreview({ title: 'x', settings: settings(), methods: [{ gateway: 'gateway_b', method: 'standard_checkout', label: 'Wallet', active: false }] });
    expect(inactive).toContain('disabled> Wallet <small>(not active on this site)</small>');
  });
});
