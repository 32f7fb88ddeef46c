import request from 'supertest';
import { FormsService } from '../../src/modules/forms/index.js';
import { type CheckoutGateway, type GatewayMode, GatewayStateService } from '../../src/modules/gateways/index.js';
import { OptionsService } from '../../src/modules/settings/index.js';
import { expectWpError } from '../support/http.js';
import { connectGateway, createPaymentForm, disconnectGateway, formSettings } from '../support/payment-fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const SHOP = 'https://shop.example';
const WEBHOOK_IDS: Record<GatewayMode, string> = { test: '8PT597110X687430LKGECATA', live: '3HX52384TB901234LIVEWHID' };
const SIGNING_SECRETS: Record<GatewayMode, string> = { test: 'whsec_testSigningSecret0123456789', live: 'whsec_liveSigningSecret0123456789' };

/** Every secret the options table holds, decrypted: none of them may appear in a public answer. */
async function storedSecrets(t: TestApp): Promise<string[]> {
  const rows: Array<{ name: string }> = await t.dataSource.query(`SELECT option_name AS name FROM ${t.config.tablePrefix}options`);
  const options = t.app.get(OptionsService);
  const secrets: string[] = [];
  for (const { name } of rows) {
    const secret = await options.getSecret(name).catch(() => null);
    if (typeof secret === 'string' && secret.length >= 8) secrets.push(secret);
  }
  return secrets;
}

function expectNoSecret(text: string, secrets: string[]): void {
  for (const secret of secrets) expect(text).not.toContain(secret);
  expect(text).not.toMatch(/\b(sk|rk)_(test|live)_|whsec_|secret/i);
  for (const id of Object.values(WEBHOOK_IDS)) expect(text).not.toContain(id);
}

/**
 * The public form read `GET /payment/form/{form_id}` (issue 23 item 1): published forms only,
 * the form as a checkout draws it, per payable gateway its mode, enabled methods and public
 * browser values (never a secret in any gateway state), short caching with an ETag, CORS as the
 * other public routes; the hosted page draws the same read model.
 */
describe('public form read (GET /payment/form/{form_id})', () => {
  let t: TestApp;
  const read = (id: number | string, origin?: string) => {
    const req = request(t.http).get(`${t.base}/payment/form/${id}`);
    return origin ? req.set('Origin', origin) : req;
  };
  const admin = (path: string, body: object) => request(t.http).post(`${t.base}${path}`).set('Authorization', t.admin.auth).send(body);

  beforeAll(async () => {
    t = await startTestApp({ CORS_ORIGINS: SHOP, RATE_LIMIT_PUBLIC_PAYMENT: '1000' });
  });
  afterAll(() => t.close());

  /** Gateway A connected in `mode` with its webhook contract verified (manual path) or paused; gateway B connected with a Webhook ID. */
  async function connectBoth(mode: GatewayMode, gatewayA: 'verified' | 'paused' = 'verified'): Promise<void> {
    await connectGateway(t, 'gateway_a', mode);
    await admin('/payment-gateway/save-webhook-settings', { gateway: 'gateway_a', mode, signing_secret: SIGNING_SECRETS[mode], manual_configuration_complete: gatewayA === 'verified' }).expect(200);
    await connectGateway(t, 'gateway_b', mode);
    await admin('/payment-gateway/save-webhook-settings', { gateway: 'gateway_b', mode, webhook_id: WEBHOOK_IDS[mode] }).expect(200);
  }

  it('answers 404 checkout_not_found for a draft or unknown form and 400 for a malformed id', async () => {
    const draft = await createPaymentForm(t, {}, 'draft');
    for (const id of [draft.id, 999999]) {
      const res = await read(id);
      expect({ id, status: res.status }).toEqual({ id, status: 404 });
      expectWpError(res.body, 'checkout_not_found', 404);
      expect(res.headers['cache-control'] ?? '').not.toMatch(/public/);
    }
    for (const id of ['abc', '0', '-1', '99999999999']) {
      const res = await read(id);
      expect({ id, status: res.status }).toEqual({ id, status: 400 });
      expectWpError(res.body, 'rest_invalid_param', 400);
    }
    // Published later, it is readable: the 404 was the draft's, not the id's.
    await request(t.http).put(`${t.base}/administration/payment-forms/${draft.id}`).set('Authorization', t.admin.auth).send({ status: 'publish' }).expect(200);
    expect((await read(draft.id)).status).toBe(200);
  });

  it('answers the form as a checkout draws it: prices in minor units with intervals and bounds, payer fields, message, and each payable gateway with its mode, methods and public values', async () => {
    await connectBoth('test');
    const form = await t.app.get(FormsService).create({
      title: 'Support <us>',
      status: 'publish',
      authorId: t.admin.id,
      settings: formSettings({
        plans: [
          { title: 'Once', prices: [{ amount: 1000, currency: 'USD', frequency: 'one-time' }] },
          {
            title: 'Gift',
            prices: [
              { amount: 2500, currency: 'USD', frequency: 'one-time', custom_amount: { min: 100, max: 1_000_000 } },
              { amount: 999, currency: 'EUR', frequency: 'm_3', setup_amount: 500 },
            ],
          },
          { title: 'Dinar', prices: [{ amount: 1500, currency: 'KWD', frequency: 'y_1' }] },
        ],
        fields: [
          { name: 'first_name', type: 'text', label: 'First name', required: true },
          { name: 'size', type: 'select', label: 'Size', required: false, options: ['S', 'M'] },
        ],
        submit_actions: ['message', 'redirect'],
        success_message: 'Thanks!',
        redirect_url: 'https://shop.example/thanks',
        display: { description: 'Every gift helps.', button_label: 'Give', show_title: false },
      }),
    });
    const res = await read(form.id);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({
      form_id: form.id,
      locale: 'en',
      title: 'Support <us>',
      show_title: false,
      description: 'Every gift helps.',
      plans: [
        {
          plan_index: 0,
          title: 'Once',
          prices: [{ price_index: 0, amount: 1000, currency: 'USD', currency_exponent: 2, frequency: 'one-time', interval: null, setup_amount: null, custom_amount: null, label: '$10.00' }],
        },
        {
          plan_index: 1,
          title: 'Gift',
          prices: [
            {
              price_index: 0,
              amount: 2500,
              currency: 'USD',
              currency_exponent: 2,
              frequency: 'one-time',
              interval: null,
              setup_amount: null,
              custom_amount: { min: 100, max: 1_000_000 },
              label: 'Any amount from $1.00 to $10,000.00',
            },
            {
              price_index: 1,
              amount: 999,
              currency: 'EUR',
              currency_exponent: 2,
              frequency: 'm_3',
              interval: { unit: 'month', count: 3 },
              setup_amount: 500,
              custom_amount: null,
              label: '€9.99 / 3 months + €5.00 setup fee',
            },
          ],
        },
        {
          plan_index: 2,
          title: 'Dinar',
          prices: [{ price_index: 0, amount: 1500, currency: 'KWD', currency_exponent: 3, frequency: 'y_1', interval: { unit: 'year', count: 1 }, setup_amount: null, custom_amount: null, label: expect.stringMatching(/^KWD\s1\.500 \/ year$/) }],
        },
      ],
      // The email is always asked for, and required.
      fields: [
        { name: 'email_address', label: 'Email', type: 'email', required: true },
        { name: 'first_name', label: 'First name', type: 'text', required: true },
        { name: 'size', label: 'Size', type: 'select', required: false, options: ['S', 'M'], option_labels: ['S', 'M'] },
      ],
      success_message: 'Thanks!',
      redirect_url: 'https://shop.example/thanks',
      button_label: 'Give',
      gateways: [
        {
          gateway: 'gateway_a',
          label: 'gateway A',
          mode: 'test',
          supports_recurring: true,
          methods: [
            { id: 'ccard', label: 'Card' },
            { id: 'sepa', label: 'Bank debit (SEPA or ACH)' },
          ],
          browser: { publishable_key: 'pk_test_1' },
        },
        { gateway: 'gateway_b', label: 'gateway B', mode: 'test', supports_recurring: false, methods: [{ id: 'standard_checkout', label: 'PayPal' }], browser: { client_id: 'client-test' } },
      ],
    });
    expectNoSecret(res.text, await storedSecrets(t));
  });

  it('lists only what can take payments now, and never a secret, in every gateway state of both modes', async () => {
    const form = await createPaymentForm(t);
    for (const mode of ['test', 'live'] as const) await connectBoth(mode);
    const secrets = await storedSecrets(t);
    expect(secrets).toEqual(expect.arrayContaining([SIGNING_SECRETS.test, SIGNING_SECRETS.live, WEBHOOK_IDS.test, WEBHOOK_IDS.live, 'sk_test_1234567890', 'sk_live_1234567890']));
    const state = t.app.get(GatewayStateService);
    const gatewaysOf = async () => {
      const res = await read(form.id);
      expect(res.status).toBe(200);
      expectNoSecret(res.text, secrets);
      return (res.body.gateways as Array<{ gateway: CheckoutGateway; mode: string; browser: object }>).map((entry) => [entry.gateway, entry.mode, entry.browser]);
    };
    try {
      for (const mode of ['test', 'live'] as const) {
        await state.setMode('gateway_a', mode);
        await state.setMode('gateway_b', mode);
        // Connected (gateway A's contract verified).
        expect(await gatewaysOf()).toEqual([
          ['gateway_a', mode, { publishable_key: `pk_${mode}_1` }],
          ['gateway_b', mode, { client_id: `client-${mode}` }],
        ]);
        // Gateway A paused (contract not verified): not payable now.
        await admin('/payment-gateway/save-webhook-settings', { gateway: 'gateway_a', mode, manual_configuration_complete: false }).expect(200);
        expect(await gatewaysOf()).toEqual([['gateway_b', mode, { client_id: `client-${mode}` }]]);
        // Both disconnected in this mode: nothing is payable; the other mode's values never show.
        await disconnectGateway(t, 'gateway_a', mode);
        await disconnectGateway(t, 'gateway_b', mode);
        expect(await gatewaysOf()).toEqual([]);
        // A method the site deactivated is not offered either.
        await connectBoth(mode);
        await state.setActiveMethods('gateway_a', ['sepa']);
        await state.setActiveMethods('gateway_b', []);
        const res = await read(form.id);
        expect(res.body.gateways.map((entry: { gateway: string; methods: Array<{ id: string }> }) => [entry.gateway, entry.methods.map((method) => method.id)])).toEqual([['gateway_a', ['sepa']]]);
        await state.setActiveMethods('gateway_a', ['ccard', 'sepa']);
        await state.setActiveMethods('gateway_b', ['standard_checkout']);
      }
    } finally {
      await state.setMode('gateway_a', 'test');
      await state.setMode('gateway_b', 'test');
    }
  });

  it('is cacheable for a short time with a strong ETag: If-None-Match answers 304 until the form or a gateway changes', async () => {
    await connectBoth('test');
    const form = await createPaymentForm(t);
    const first = await read(form.id);
    expect(first.headers['cache-control']).toBe('public, max-age=30');
    const etag = first.headers.etag;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    const again = await read(form.id).set('If-None-Match', etag);
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    // A change of the form changes the ETag.
    await request(t.http).put(`${t.base}/administration/payment-forms/${form.id}`).set('Authorization', t.admin.auth).send({ title: 'Renamed' }).expect(200);
    const renamed = await read(form.id).set('If-None-Match', etag);
    expect(renamed.status).toBe(200);
    expect(renamed.body.title).toBe('Renamed');
    expect(renamed.headers.etag).not.toBe(etag);
    // So does a gateway's: gateway B deactivated.
    await t.app.get(GatewayStateService).setActiveMethods('gateway_b', []);
    try {
      const changed = await read(form.id).set('If-None-Match', renamed.headers.etag);
      expect(changed.status).toBe(200);
      expect(changed.body.gateways.map((entry: { gateway: string }) => entry.gateway)).toEqual(['gateway_a']);
    } finally {
      await t.app.get(GatewayStateService).setActiveMethods('gateway_b', ['standard_checkout']);
    }
  });

  it('answers a listed shop origin with CORS as the other public routes (no credentials, no Authorization)', async () => {
    const form = await createPaymentForm(t);
    const res = await read(form.id, SHOP);
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(SHOP);
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(res.headers.vary).toMatch(/Origin/);
    const preflight = await request(t.http).options(`${t.base}/payment/form/${form.id}`).set('Origin', SHOP).set('Access-Control-Request-Method', 'GET');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-methods']).toBe('GET');
    expect(preflight.headers['access-control-allow-headers']).toBe('Content-Type, X-Request-Id, Idempotency-Key');
    expect((await read(form.id, 'https://attacker.example')).headers['access-control-allow-origin']).toBeUndefined();
    // The 404 of a draft is readable by the shop page too.
    const draft = await createPaymentForm(t, {}, 'draft');
    expect((await read(draft.id, SHOP)).headers['access-control-allow-origin']).toBe(SHOP);
  });

  it('is the read model the hosted page draws: the same title, prices, fields and, of the methods the page can take, the same ones with the same public values', async () => {
    await connectBoth('test');
    const form = await createPaymentForm(t, { display: { button_label: 'Go' } });
    const json = (await read(form.id)).body as { title: string; button_label: string; plans: Array<{ prices: Array<{ label: string }> }>; fields: Array<{ name: string }>; gateways: Array<{ gateway: string; methods: Array<{ id: string }>; browser: object }> };
    const page = (await request(t.http).get(`/pay/${form.id}`)).text;
    expect(page).toContain(`<h1 id="form-title">${json.title}</h1>`);
    // The button's verb is the read's label; the page adds what the first price charges.
    expect(page).toContain(`>${json.button_label} $10.00</button>`);
    const pagePrices = [...page.matchAll(/<span class="price-label">([^<]*)<\/span>/g)].map((match) => match[1].replace(/&#61;/g, '='));
    expect(pagePrices).toEqual(json.plans.flatMap((plan) => plan.prices.map((price) => price.label)));
    expect([...page.matchAll(/ name="([a-z_]+)" data-field=/g)].map((match) => match[1])).toEqual(json.fields.map((field) => field.name));
    const pageMethods = [...page.matchAll(/data-gateway="([a-z_]+)" data-method="([a-z_0-9]+)"/g)].map((match) => `${match[1]}:${match[2]}`);
    // The page takes a subset (the methods its script can drive): every one of them is in the read.
    const readMethods = json.gateways.flatMap((entry) => entry.methods.map((method) => `${entry.gateway}:${method.id}`));
    expect(pageMethods).toEqual(['gateway_a:ccard', 'gateway_b:standard_checkout']);
    expect(readMethods).toEqual(expect.arrayContaining(pageMethods));
    for (const entry of json.gateways) {
      const config = new RegExp(`data-gateway="${entry.gateway}" data-driver="[a-z_]+" data-library-url="[^"]+" data-browser-config="([^"]+)"`).exec(page);
      expect(JSON.parse(config![1].replace(/&quot;/g, '"'))).toEqual(entry.browser);
    }
  });

  it('is documented in the OpenAPI document as a public Checkout operation with typed schemas', async () => {
    const doc = (await request(t.http).get('/docs-json')).body;
    const operation = doc.paths['/payment/form/{form_id}'].get;
    expect(operation).toMatchObject({ operationId: 'paymentFormRead', tags: ['Checkout'] });
    // No credentials: the document's way of saying a route is public.
    expect(operation.security).toEqual([{}]);
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '304', '400', '404', '429']));
    expect(operation.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/PublicFormDto' });
    const text = JSON.stringify(['PublicFormDto', 'PublicPlanDto', 'PublicPriceDto', 'PublicGatewayDto', 'PublicBrowserConfigDto', 'PublicFieldDto'].map((name) => doc.components.schemas[name]));
    expect(text).not.toContain('"additionalProperties":true');
    expect(doc.components.schemas.PublicBrowserConfigDto.properties).toEqual({ publishable_key: expect.any(Object), client_id: expect.any(Object) });
  });
});

describe('public form read: rate limited like the public payment routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_PUBLIC_PAYMENT: '3' });
  });
  afterAll(() => t.close());

  it('counts against the public payment limit it shares with the hosted page; past it, 429 with Retry-After', async () => {
    const form = await createPaymentForm(t);
    expect((await request(t.http).get(`${t.base}/payment/form/${form.id}`)).status).toBe(200);
    expect((await request(t.http).get(`/pay/${form.id}`)).status).toBe(200);
    expect((await request(t.http).get(`${t.base}/payment/form/${form.id}`)).status).toBe(200);
    const refused = await request(t.http).get(`${t.base}/payment/form/${form.id}`);
    expect(refused.status).toBe(429);
    expectWpError(refused.body, 'checkout_rate_limited', 429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });
});
