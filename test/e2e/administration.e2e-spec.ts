import { AddressInfo } from 'node:net';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import request from 'supertest';
import { RouteInventory } from '../../src/common/auth/index.js';
import { GatewayStateService } from '../../src/modules/gateways/index.js';
import { expectWpError } from '../support/http.js';
import { createFormManager, validSettings } from '../support/form-fixtures.js';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app.js';

interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server on a free local port that keeps what it receives. */
async function startSmtpServer(): Promise<{ url: string; received: ReceivedMail[]; close(): Promise<void> }> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Header value of a raw message, unfolded. */
function header(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
  return new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1];
}

describe('form builder: builder data, live preview, OpenAPI', () => {
  let t: TestApp;
  let formId: number;
  const forms = () => `${t.base}/administration/payment-forms`;

  beforeAll(async () => {
    t = await startTestApp();
    const created = await request(t.http)
      .post(forms())
      .set('Authorization', t.admin.auth)
      .send({ title: '<script>alert("title")</script>', settings: validSettings() });
    formId = created.body.id;
  });
  afterAll(() => t.close());

  describe('GET builder-data', () => {
    it('answers the field map with sections, groups, types, options, defaults and values', async () => {
      const res = await request(t.http).get(`${forms()}/${formId}/builder-data`).set('Authorization', t.admin.auth);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        form_id: formId,
        title: '<script>alert("title")</script>',
        status: 'draft',
        namespace: 'checkout_form',
        live_preview: { url: `http://checkout.test/wp-json/checkout/v1/administration/payment-forms/${formId}/live-preview`, methods: ['GET', 'POST'] },
      });
      expect(res.body.sections.map((section: { id: string }) => section.id)).toEqual(['general', 'payment', 'fields', 'confirmation', 'emails', 'display']);

      const all = flatten(res.body.sections);
      for (const field of all) {
        expect(field).toEqual(
          expect.objectContaining({ key: expect.any(String), input_name: expect.stringMatching(/^checkout_form\[/), type: expect.any(String), label: expect.any(String), required: expect.any(Boolean) }),
        );
        expect(field).toHaveProperty('default');
      }
      const byKey = new Map(all.map((field) => [field.key, field]));
      expect(byKey.get('title')).toMatchObject({ type: 'text', value: '<script>alert("title")</script>', required: true });
      expect(byKey.get('settings.email.email_to')).toMatchObject({ type: 'email', value: 'owner@example.test', input_name: 'checkout_form[settings][email][email_to]' });
      expect(byKey.get('settings.payment_methods.gateway_a')).toMatchObject({ type: 'multiselect', value: ['ccard', 'sepa'] });
      expect((byKey.get('settings.payment_methods.gateway_a')!.options as Array<{ value: string }>).map((option) => option.value)).toEqual([
        'ccard', 'sepa', 'device_wallet_1', 'device_wallet_2', 'regional_wallet_1', 'regional_wallet_2',
      ]);
      const plans = byKey.get('settings.plans')!;
      expect(plans).toMatchObject({ type: 'repeater', min_items: 1, max_items: 20, value: validSettings().plans });
      expect(plans.default).toEqual([{ title: 'Payment', prices: [{ amount: 1000, currency: 'USD', frequency: 'one-time' }] }]);
      const prices = (plans.fields as Field[]).find((field) => field.key === 'prices')!;
      const frequency = (prices.fields as Field[]).find((field) => field.key === 'frequency')!;
      expect((frequency.options as Array<{ value: string }>).map((option) => option.value)).toEqual(['one-time', 'd_1', 'w_1', 'm_1', 'm_3', 'm_6', 'y_1', 'y_3']);
      expect(frequency.input_name).toBe('checkout_form[settings][plans][][prices][][frequency]');
      const currency = (prices.fields as Field[]).find((field) => field.key === 'currency')!;
      expect(currency.options).toEqual(expect.arrayContaining([{ value: 'JPY', label: expect.stringContaining('JPY') }]));
    });

    it('answers 404 for an unknown form and 400 for a bad id', async () => {
      const missing = await request(t.http).get(`${forms()}/424242/builder-data`).set('Authorization', t.admin.auth);
      expect(missing.status).toBe(404);
      expectWpError(missing.body, 'checkout_not_found', 404);
      expect((await request(t.http).get(`${forms()}/0/builder-data`).set('Authorization', t.admin.auth)).status).toBe(400);
      expect((await request(t.http).get(`${forms()}/${formId}/builder-data`)).status).toBe(401);
    });
  });

  describe('ALL live-preview', () => {
    const preview = (method: 'get' | 'post' | 'put' | 'patch' | 'delete', body?: object, auth = t.admin.auth) => {
      const req = request(t.http)[method](`${forms()}/${formId}/live-preview`).set('Authorization', auth);
      return body ? req.send(body) : req;
    };

    it('renders the saved form as escaped HTML on GET', async () => {
      const res = await preview('get');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      // A strict CSP with no inline style: the preview's styles are the hosted page's stylesheets.
      // The admin console frames it on the same origin only.
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'");
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.text).toMatch(/^<!doctype html>/);
      expect(res.text).not.toContain('<script');
      expect(res.text).not.toMatch(/<style|\sstyle=/i);
      expect(res.text).toContain('<link rel="stylesheet" href="/pay/assets/form.css">');
      expect(res.text).toContain('<p class="preview-banner" role="note">Preview: payments are disabled.</p>');
      expect(res.text).toContain('<h1 id="form-title">&lt;script&gt;alert(&quot;title&quot;)&lt;/script&gt;</h1>');
      expect(res.text).toContain('$15.00');
      expect(res.text).toContain('€9.99 / month + €5.00 setup fee');
      expect(res.text).toContain('Any amount from $1.00 to $1,000.00');
      expect(res.text).toContain('<option value="M">M</option>');
      expect(res.text).toContain('>Pay $15.00</button>');
    });

    it('applies unsaved overrides on POST, escapes them, and stores nothing', async () => {
      const hostile = validSettings({
        plans: [
          { title: '<img src=x onerror=alert(1)>', prices: [{ amount: 1000, currency: 'JPY', frequency: 'one-time' }] },
          { title: 'Dinars', prices: [{ amount: 1500, currency: 'KWD', frequency: 'y_1' }] },
        ],
        fields: [{ name: 'email_address', type: 'email', label: '"><script>alert(2)</script>', required: true }],
        display: { button_label: '</button><script>x()</script>', description: 'Tom & Jerry' },
      });
      const res = await preview('post', { title: 'Draft <b>title</b>', settings: hostile });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.text).not.toMatch(/<script|<img|<b>/);
      expect(res.text).toContain('Draft &lt;b&gt;title&lt;/b&gt;');
      expect(res.text).toContain('&lt;img src&#61;x onerror&#61;alert(1)&gt;');
      expect(res.text).toContain('&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;');
      expect(res.text).toContain('Tom &amp; Jerry');
      expect(res.text).toContain('¥1,000');
      expect(res.text).toMatch(/KWD\s1\.500 \/ year/);

      const saved = await request(t.http).get(`${forms()}/${formId}`).set('Authorization', t.admin.auth);
      expect(saved.body.title).toBe('<script>alert("title")</script>');
      expect(saved.body.settings).toEqual(validSettings());
    });

    it('replaces only the top-level settings keys it is given', async () => {
      const res = await preview('post', { settings: { display: { button_label: 'Give now' } } });
      expect(res.status).toBe(200);
      expect(res.text).toContain('>Give now $15.00</button>');
      expect(res.text).toContain('$15.00');
    });

    it('validates the overrides and names the bad field', async () => {
      const bad = await preview('post', { settings: { plans: [{ title: 'X', prices: [{ amount: 10, currency: 'XYZ', frequency: 'one-time' }] }] } });
      expect(bad.status).toBe(400);
      expect(expectWpError(bad.body, 'rest_invalid_param', 400).data.params).toHaveProperty(['settings.plans.0.prices.0.currency']);
      const unknown = await preview('post', { settings: { colour: 'red' } });
      expect(unknown.status).toBe(400);
      expect(unknown.body.data.params).toHaveProperty(['settings.colour']);
      // A merged whole must still be coherent: the redirect action needs a URL.
      const incoherent = await preview('post', { settings: { submit_actions: ['redirect'] } });
      expect(incoherent.status).toBe(400);
      expect(incoherent.body.data.params).toHaveProperty(['settings.redirect_url']);
    });

    it.each(['put', 'patch', 'delete'] as const)('answers %s too (any method)', async (method) => {
      const res = await preview(method);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    });

    it('marks methods the site has not activated as unavailable', async () => {
      await t.app.get(GatewayStateService).setActiveMethods('gateway_a', ['ccard']);
      const res = await preview('get');
      expect(res.text).toMatch(/value="gateway_a:ccard" checked> Card<\/label>/);
      expect(res.text).toMatch(/value="gateway_a:sepa" disabled> Bank debit \(SEPA or ACH\) <small>\(not active on this site\)<\/small>/);
    });

    it('needs the admin capability and answers 404 in JSON for an unknown form', async () => {
      const anonymous = await request(t.http).post(`${forms()}/${formId}/live-preview`);
      expect(anonymous.status).toBe(401);
      expectWpError(anonymous.body, 'rest_not_logged_in', 401);
      const subscriber = await t.createUser('subscriber');
      expect((await preview('get', undefined, subscriber.auth)).status).toBe(403);
      const viewer = await t.createUser('viewer');
      expect((await preview('get', undefined, viewer.auth)).status).toBe(403);
      const missing = await request(t.http).post(`${forms()}/777777/live-preview`).set('Authorization', t.admin.auth);
      expect(missing.status).toBe(404);
      expect(missing.headers['content-type']).toMatch(/^application\/json/);
      expectWpError(missing.body, 'checkout_not_found', 404);
    });
  });

  describe('OpenAPI and route inventory', () => {
    it('documents every route of this issue with its operation id, and live-preview as text/html for each method', async () => {
      const res = await request(t.http).get('/docs-json');
      expect(res.status).toBe(200);
      const paths = res.body.paths as Record<string, Record<string, { operationId: string; responses: Record<string, { content?: object }> }>>;
      // Paths are relative to the document's `servers` (the REST base).
      const livePath = '/administration/payment-forms/{id}/live-preview';
      // Operation ids are unique, except that the ALL route repeats its one id for each method.
      const ids = Object.entries(paths)
        .filter(([path]) => path !== livePath)
        .flatMap(([, item]) => Object.values(item).flatMap((operation) => (operation.operationId ? [operation.operationId] : [])));
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual(
        expect.arrayContaining([
          'formsList', 'formsCreate', 'formsGet', 'formsUpdate', 'formsDelete', 'administrationTemplateList', 'administrationImportTemplate',
          'administrationBuilderData', 'administrationTestEmail', 'bundledTemplatesPreview', 'pluginInstall', 'pluginActivate',
        ]),
      );
      const live = paths[livePath];
      // The OpenAPI 3.0 methods only: Express's `search` (and the like) are not methods a client can send.
      expect(Object.keys(live).sort()).toEqual(['delete', 'get', 'head', 'options', 'patch', 'post', 'put']);
      for (const [method, operation] of Object.entries(live)) {
        // One operation per HTTP method, each with a unique id (administrationLivePreviewPost, ...).
        expect(operation.operationId).toBe(`administrationLivePreview${method[0].toUpperCase()}${method.slice(1)}`);
        expect(operation.responses['200'].content).toHaveProperty(['text/html']);
      }
      expect(ids).not.toContain('administrationLivePreview');
      const svg = paths['/bundled-templates/{slug}/preview.svg'].get;
      expect(svg.responses['200'].content).toHaveProperty(['image/svg+xml']);
      expect(svg.responses).toHaveProperty('404');
      const schemas = res.body.components.schemas;
      for (const name of ['PaymentFormSettingsDto', 'PaymentFormDto', 'TemplateListDto', 'BuilderDataDto', 'TestEmailResultDto', 'PluginActionResultDto', 'LivePreviewDto']) {
        expect(schemas).toHaveProperty([name]);
      }
      expect(schemas.CreatePaymentFormDto.properties.settings).toEqual({ $ref: '#/components/schemas/PaymentFormSettingsDto' });
      expect(paths['/administration/import-template'].post.responses['201'].content).toHaveProperty(['application/json']);
    });

    it('lists live-preview as ALL with the admin declaration', () => {
      const routes = t.app.get(RouteInventory).list();
      expect(routes).toEqual(
        expect.arrayContaining([
          { method: 'ALL', path: '/administration/payment-forms/:id/live-preview', auth: 'admin(checkout_settings + edit_checkout_forms, nonce in query)' },
          { method: 'GET', path: '/bundled-templates/:slug/preview.svg', auth: 'public' },
          { method: 'POST', path: '/plugin/install', auth: 'admin(checkout_settings + manage_checkout_settings)' },
        ]),
      );
    });
  });
});

describe('test email over SMTP', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let author: TestUser;
  let otherManager: TestUser;
  let formId: number;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestApp({ SMTP_URL: smtp.url });
    author = await createFormManager(t);
    otherManager = await createFormManager(t);
    const created = await request(t.http).post(`${t.base}/administration/payment-forms`).set('Authorization', author.auth).send({ title: 'Spring fair', settings: validSettings() });
    formId = created.body.id;
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const send = (auth?: string, body: object = {}) => {
    const req = request(t.http).post(`${t.base}/administration/payment-forms/${formId}/test-email`);
    if (auth) req.set('Authorization', auth);
    return req.send(body);
  };

  it('sends the admin notification and the payer confirmation that a completed payment would send', async () => {
    smtp.received.length = 0;
    const res = await send(author.auth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, transport: 'smtp' });
    expect(res.body.emails).toEqual([
      { kind: 'admin', to: 'owner@example.test', subject: '[Test] New payment $15.00', message_id: expect.stringMatching(/^<.+>$/) },
      { kind: 'payer', to: `${author.login}@example.test`, subject: '[Test] Thanks, Sample Payer', message_id: expect.stringMatching(/^<.+>$/) },
    ]);

    expect(smtp.received).toHaveLength(2);
    const [admin, payer] = smtp.received;
    expect(admin.to).toEqual(['owner@example.test']);
    expect(admin.from).toBe('checkout@checkout.test');
    expect(header(admin.raw, 'Subject')).toBe('[Test] New payment $15.00');
    expect(header(admin.raw, 'From')).toBe('Shop <checkout@checkout.test>');
    expect(header(admin.raw, 'Reply-To')).toBe(`${author.login}@example.test`);
    expect(payer.to).toEqual([`${author.login}@example.test`]);
    expect(header(payer.raw, 'Subject')).toBe('[Test] Thanks, Sample Payer');
    expect(payer.raw).toContain('Thank you for your payment of $15.00 to "Spring fair".');
    expect(payer.raw).toContain('Thank you!');
  });

  it('sends the payer copy to a chosen address, and none when the form has no email action', async () => {
    smtp.received.length = 0;
    const chosen = await send(author.auth, { payer_email: 'buyer@example.test' });
    expect(chosen.status).toBe(200);
    expect(smtp.received.map((mail) => mail.to[0])).toEqual(['owner@example.test', 'buyer@example.test']);

    await request(t.http)
      .put(`${t.base}/administration/payment-forms/${formId}`)
      .set('Authorization', author.auth)
      .send({ settings: validSettings({ submit_actions: ['message'] }) })
      .expect(200);
    smtp.received.length = 0;
    const adminOnly = await send(author.auth);
    expect(adminOnly.body.emails.map((email: { kind: string }) => email.kind)).toEqual(['admin']);
    expect(smtp.received).toHaveLength(1);
    await request(t.http).put(`${t.base}/administration/payment-forms/${formId}`).set('Authorization', author.auth).send({ settings: validSettings() }).expect(200);
  });

  it('needs edit access to the form: other editors are refused, admins allowed, anonymous 401', async () => {
    smtp.received.length = 0;
    const other = await send(otherManager.auth);
    expect(other.status).toBe(403);
    expectWpError(other.body, 'rest_forbidden', 403);
    expect((await send()).status).toBe(401);
    expect(smtp.received).toHaveLength(0);
    expect((await send(t.admin.auth)).status).toBe(200);
    expect(smtp.received.map((mail) => mail.to[0])).toEqual(['owner@example.test', 'admin@localhost']);
    const missing = await request(t.http).post(`${t.base}/administration/payment-forms/5555/test-email`).set('Authorization', t.admin.auth).send({});
    expect(missing.status).toBe(404);
    const badAddress = await send(author.auth, { payer_email: 'nope' });
    expect(badAddress.status).toBe(400);
    expect(badAddress.body.data.params).toHaveProperty('payer_email');
  });
});

describe('test email without SMTP_URL (outbox) and with a dead SMTP server', () => {
  it('writes .eml files to <DATA_DIR>/outbox that carry the subjects and recipients', async () => {
    const t = await startTestApp();
    try {
      const created = await request(t.http).post(`${t.base}/administration/payment-forms`).set('Authorization', t.admin.auth).send({ title: 'Outbox form', settings: validSettings() });
      const res = await request(t.http).post(`${t.base}/administration/payment-forms/${created.body.id}/test-email`).set('Authorization', t.admin.auth).send({});
      expect(res.status).toBe(200);
      expect(res.body.transport).toBe('outbox');
      expect(res.body.message).toContain(join(t.config.dataDir, 'outbox').replace(/^\.\//, ''));
      const outbox = join(t.config.dataDir, 'outbox');
      const files = readdirSync(outbox).sort();
      expect(files).toHaveLength(2);
      expect(res.body.emails.map((email: { outbox_file: string }) => email.outbox_file).sort()).toEqual(files);
      const messages = files.map((file) => readFileSync(join(outbox, file), 'utf8'));
      const admin = messages.find((raw) => header(raw, 'To') === 'owner@example.test')!;
      const payer = messages.find((raw) => header(raw, 'To') === 'admin@localhost')!;
      expect(header(admin, 'Subject')).toBe('[Test] New payment $15.00');
      expect(header(payer, 'Subject')).toBe('[Test] Thanks, Sample Payer');
      expect(admin).toContain('Content-Type: text/html');
    } finally {
      await t.close();
    }
  });

  it('answers 502 checkout_mail_failed when the SMTP server cannot be reached', async () => {
    const smtp = await startSmtpServer();
    const deadUrl = smtp.url;
    await smtp.close();
    const t = await startTestApp({ SMTP_URL: deadUrl });
    try {
      const created = await request(t.http).post(`${t.base}/administration/payment-forms`).set('Authorization', t.admin.auth).send({ title: 'Dead', settings: validSettings() });
      const res = await request(t.http).post(`${t.base}/administration/payment-forms/${created.body.id}/test-email`).set('Authorization', t.admin.auth).send({});
      expect(res.status).toBe(502);
      expectWpError(res.body, 'checkout_mail_failed', 502);
      expect(JSON.stringify(res.body)).not.toContain('127.0.0.1');
    } finally {
      await t.close();
    }
  });
});

type Field = Record<string, unknown> & { key: string; fields?: Field[] };

function flatten(sections: Array<{ groups: Array<{ fields: Field[] }> }>): Field[] {
  return sections.flatMap((section) => section.groups.flatMap((group) => group.fields));
}
