import request from 'supertest';
import { FormsService } from '../../src/modules/forms/index.js';
import { GatewayStateService } from '../../src/modules/gateways/index.js';
import { OptionsService } from '../../src/modules/settings/index.js';
import { connectGateway, createPaymentForm, formSettings } from '../support/payment-fixtures.js';
import { connectThroughProxy, type GatewayATestBed, startGatewayATestBed } from '../support/gateway-a.js';
import type { TestApp } from '../support/test-app.js';

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
      // The page drives only what it can: the card method of gateway A, the wallet of gateway B.
      expect(res.text).not.toContain('data-method="sepa"');
      expect(res.text).toContain('Thanks &lt;b&gt;a lot&lt;/b&gt;');
      // One container per gateway the page pays through: its library and driver come from the adapter port.
      expect(res.text).toMatch(/<div class="provider" id="provider-gateway_a" data-gateway="gateway_a" data-driver="card_element" data-library-url="https:\/\/js\.example-a\.test\/v3\/"/);
      expect(res.text).toMatch(/<div class="provider" id="provider-gateway_b" data-gateway="gateway_b" data-driver="wallet_buttons" data-library-url="https:\/\/sdk\.example-b\.test\/sdk\/js"/);
      expect(res.text).toContain('data-driver="wallet_buttons" data-one-time-only="true" value="gateway_b:standard_checkout">');
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
      expect(csp).toMatch(/connect-src 'self' https:\/\/js\.example-a\.test https:\/\/sdk\.example-b\.test/);
      // The page's own markup needs no inline style: libraries other than the providers' real ones add no style allowance.
      expect(csp).toContain("style-src 'self'; style-src-attr 'none'");
      expect(first.text).not.toMatch(/<style|\sstyle=/i);
      expect(first.text).toContain('<link rel="stylesheet" href="/pay/assets/form.css">');

      const scripts = scriptTags(first.text);
      expect(scripts).toEqual([{ tag: `<script src="/pay/assets/hosted-page.js" nonce="${nonce}" defer></script>`, inline: false }]);
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

    it('serves its script as a static file', async () => {
      const res = await request(t.http).get('/pay/assets/hosted-page.js');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/javascript/);
      expect(res.text).toContain('/payment/sync-details');
      expect(res.headers.etag).toBeDefined();
      // The script knows gateways only by the page's data attributes, not by name.
      expect(res.text).not.toMatch(/['"]gateway_[a-z]['"]/);
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
      expect(accent.text).toBe(':root{--accent:#1e73be}\n');
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
      expect(res.text).toContain('>Give</button>');
    });
  });
});
