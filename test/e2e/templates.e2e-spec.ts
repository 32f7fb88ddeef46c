import request from 'supertest';
import { expectWpError } from '../support/http.js';
import { createUserWithCapabilities } from '../support/form-fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const SLUGS = ['simple-payment', 'donation', 'subscription', 'membership', 'event-ticket', 'invoice', 'consultation', 'course', 'pre-order', 'tip-jar'];

describe('bundled templates and the layout catalog (free plan)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ CHECKOUT_PLAN: 'free' });
  });
  afterAll(() => t.close());

  const importTemplate = (body: object, auth = t.admin.auth) =>
    request(t.http).post(`${t.base}/administration/import-template`).set('Authorization', auth).send(body);
  const getForm = (id: number) => request(t.http).get(`${t.base}/administration/payment-forms/${id}`).set('Authorization', t.admin.auth);

  describe('POST /administration/import-template with type form_template', () => {
    it.each(SLUGS)('imports %s as a draft form whose settings pass the write rules', async (slug) => {
      const res = await importTemplate({ type: 'form_template', slug });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ form_id: expect.any(Number) });
      const form = await getForm(res.body.form_id);
      expect(form.body).toMatchObject({ status: 'draft', author_id: t.admin.id, title: expect.any(String) });
      // The importer receives the notifications, not the template's stand-in address.
      expect(form.body.settings.email.email_to).toBe('admin@localhost');
      // Saving the imported settings back unchanged is accepted: the template is valid data.
      const resave = await request(t.http)
        .put(`${t.base}/administration/payment-forms/${res.body.form_id}`)
        .set('Authorization', t.admin.auth)
        .send({ settings: form.body.settings });
      expect(resave.status).toBe(200);
    });

    it('gives the three fixed templates their exact plans', async () => {
      const plansOf = async (slug: string) => (await getForm((await importTemplate({ type: 'form_template', slug })).body.form_id)).body.settings.plans;
      expect(await plansOf('simple-payment')).toEqual([{ title: 'Payment', prices: [{ amount: 1000, currency: 'USD', frequency: 'one-time' }] }]);
      const donation = await plansOf('donation');
      expect(donation).toEqual([
        { title: 'Donation', prices: [{ amount: expect.any(Number), currency: 'USD', frequency: 'one-time', custom_amount: { min: 100, max: 1000000 } }] },
      ]);
      expect(await plansOf('subscription')).toEqual([
        { title: 'Monthly', prices: [{ amount: 999, currency: 'USD', frequency: 'm_1' }] },
        { title: 'Yearly', prices: [{ amount: 9999, currency: 'USD', frequency: 'y_1' }] },
      ]);
    });

    it('creates a new form per import', async () => {
      const first = await importTemplate({ type: 'form_template', slug: 'donation' });
      const second = await importTemplate({ type: 'form_template', slug: 'donation' });
      expect(second.body.form_id).not.toBe(first.body.form_id);
    });

    it('answers 404 for an unknown slug and 400 for a bad body, creating nothing', async () => {
      const before = await countForms(t);
      const unknown = await importTemplate({ type: 'form_template', slug: 'no-such-template' });
      expect(unknown.status).toBe(404);
      expectWpError(unknown.body, 'checkout_not_found', 404);
      const noSlug = await importTemplate({ type: 'form_template' });
      expect(noSlug.status).toBe(400);
      expect(noSlug.body.data.params).toHaveProperty('slug');
      const badType = await importTemplate({ type: 'theme', slug: 'donation' });
      expect(badType.status).toBe(400);
      expect(badType.body.data.params).toHaveProperty('type');
      const badSlug = await importTemplate({ type: 'form_template', slug: '../donation' });
      expect(badSlug.status).toBe(400);
      expect(await countForms(t)).toBe(before);
    });

    it('needs the admin capability and the right to write forms', async () => {
      const anonymous = await request(t.http).post(`${t.base}/administration/import-template`).send({ type: 'form_template', slug: 'donation' });
      expect(anonymous.status).toBe(401);
      const viewer = await t.createUser('viewer');
      expect((await importTemplate({ type: 'form_template', slug: 'donation' }, viewer.auth)).status).toBe(403);
      const editor = await t.createUser('editor');
      expect((await importTemplate({ type: 'form_template', slug: 'donation' }, editor.auth)).status).toBe(201);
      const settingsOnly = await createUserWithCapabilities(t, 'settings_only', ['checkout_settings']);
      const refused = await importTemplate({ type: 'form_template', slug: 'donation' }, settingsOnly.auth);
      expect(refused.status).toBe(403);
      expectWpError(refused.body, 'rest_forbidden', 403);
    });
  });

  describe('GET /bundled-templates/{slug}/preview.svg', () => {
    const preview = (slug: string) => request(t.http).get(`${t.base}/bundled-templates/${slug}/preview.svg`).buffer(true).parse(rawText);

    it.each(SLUGS)('serves %s publicly as a byte-identical SVG with an ETag', async (slug) => {
      const first = await preview(slug);
      expect(first.status).toBe(200);
      expect(first.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
      expect(first.headers.etag).toMatch(/^"[A-Za-z0-9_-]{20,}"$/);
      expect(first.headers['cache-control']).toContain('max-age=');
      expect(first.headers['x-content-type-options']).toBe('nosniff');
      expect(first.body).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[\s\S]*<\/svg>\n$/);
      const second = await preview(slug);
      expect(second.body).toBe(first.body);
      expect(second.headers.etag).toBe(first.headers.etag);
    });

    it('answers 304 for a matching If-None-Match', async () => {
      const first = await preview('donation');
      const cached = await request(t.http).get(`${t.base}/bundled-templates/donation/preview.svg`).set('If-None-Match', first.headers.etag);
      expect(cached.status).toBe(304);
      expect(cached.text).toBe('');
    });

    it('does not depend on merchant data: editing an imported form leaves the preview unchanged', async () => {
      const before = await preview('simple-payment');
      const { body } = await importTemplate({ type: 'form_template', slug: 'simple-payment' });
      const form = (await getForm(body.form_id)).body;
      form.settings.plans[0].title = 'Merchant Secret Plan';
      await request(t.http).put(`${t.base}/administration/payment-forms/${body.form_id}`).set('Authorization', t.admin.auth).send({ title: 'Acme Corp', settings: form.settings });
      const after = await preview('simple-payment');
      expect(after.body).toBe(before.body);
      expect(after.body).not.toMatch(/Merchant Secret|Acme|admin@localhost/);
    });

    it('answers 404 for an unknown slug, in the WP_Error shape', async () => {
      for (const slug of ['unknown', '__proto__', 'constructor']) {
        const res = await request(t.http).get(`${t.base}/bundled-templates/${slug}/preview.svg`);
        expect(res.status).toBe(404);
        expectWpError(res.body, 'checkout_not_found', 404);
      }
    });
  });

  describe('GET /administration/template-list', () => {
    it('lists only the free layouts, each with cover, plan and the page-builder dependency state', async () => {
      const res = await request(t.http).get(`${t.base}/administration/template-list`).set('Authorization', t.admin.auth);
      expect(res.status).toBe(200);
      expect(res.body.plan).toBe('free');
      expect(res.body.layouts.length).toBeGreaterThanOrEqual(6);
      for (const layout of res.body.layouts) {
        expect(layout).toEqual({
          id: expect.stringMatching(/^[a-z0-9-]+$/),
          name: expect.any(String),
          description: expect.any(String),
          category: expect.any(String),
          required_plan: 'free',
          dependencies: ['page_builder'],
          cover: expect.stringMatching(/^data:image\/svg\+xml;base64,/),
          form_template: expect.any(String),
          preview_url: expect.stringMatching(/^http:\/\/checkout\.test\/wp-json\/checkout\/v1\/bundled-templates\/[a-z-]+\/preview\.svg$/),
        });
        expect(Buffer.from(layout.cover.split(',')[1], 'base64').toString()).toContain('<svg');
      }
      expect(res.body.dependencies).toEqual({ page_builder: { slug: 'page_builder', name: 'Page builder', installed: false, active: false } });
      expect(res.body.user_can_install).toBe(true);
      expect(res.body.user_can_activate).toBe(true);
      expect(res.body.form_templates.map((item: { slug: string }) => item.slug)).toEqual(SLUGS);
    });

    it('says user_can_install false for an admin-capable user without install_plugins', async () => {
      // An editor reads the templates (edit_checkout_forms) but holds no host plugin capability.
      const user = await t.createUser('editor');
      const res = await request(t.http).get(`${t.base}/administration/template-list`).set('Authorization', user.auth);
      expect(res.status).toBe(200);
      expect(res.body.user_can_install).toBe(false);
      expect(res.body.user_can_activate).toBe(false);
    });
  });

  describe('POST /administration/import-template with type layout', () => {
    const importLayout = (id: string) => importTemplate({ type: 'layout', id });
    const plugin = (action: 'install' | 'activate') =>
      request(t.http).post(`${t.base}/plugin/${action}`).set('Authorization', t.admin.auth).send({ slug: 'page_builder' });

    it('refuses until the page builder is installed and active, then imports a draft page with its form', async () => {
      const pages = await countPages(t);
      const notInstalled = await importLayout('donation-landing');
      expect(notInstalled.status).toBe(409);
      expect(expectWpError(notInstalled.body, 'checkout_plugin_not_installed', 409).message).toMatch(/Page builder/);

      expect((await plugin('install')).status).toBe(200);
      const inactive = await importLayout('donation-landing');
      expect(inactive.status).toBe(409);
      expect(expectWpError(inactive.body, 'checkout_plugin_inactive', 409).message).toMatch(/activate/);
      expect(await countPages(t)).toBe(pages);

      expect((await plugin('activate')).status).toBe(200);
      const imported = await importLayout('donation-landing');
      expect(imported.status).toBe(201);
      expect(imported.body).toEqual({ form_id: expect.any(Number), page_id: expect.any(Number) });

      const rows: Array<{ title: string; status: string; layout_id: string; author_id: number; content: string }> = await t.dataSource.query(
        `SELECT title, status, layout_id, author_id, content FROM ${t.config.tablePrefix}pages WHERE id = ?`,
        [imported.body.page_id],
      );
      expect(rows[0]).toMatchObject({ title: 'Donation landing page', status: 'draft', layout_id: 'donation-landing', author_id: t.admin.id });
      const blocks = JSON.parse(rows[0].content).blocks as Array<{ type: string; form_id?: number }>;
      expect(blocks.find((block) => block.type === 'payment_form')).toEqual({ type: 'payment_form', form_id: imported.body.form_id });
      const form = await getForm(imported.body.form_id);
      expect(form.body.status).toBe('draft');
      expect(form.body.settings.plans[0].title).toBe('Donation');
    });

    it('refuses a Pro layout on the free plan with a clear 409 and 404s an unknown layout', async () => {
      const pro = await importLayout('online-course-sales');
      expect(pro.status).toBe(409);
      expect(expectWpError(pro.body, 'checkout_plan_required', 409).message).toMatch(/Pro plan/);
      const unknown = await importLayout('no-such-layout');
      expect(unknown.status).toBe(404);
      expectWpError(unknown.body, 'checkout_not_found', 404);
      const noId = await importTemplate({ type: 'layout' });
      expect(noId.status).toBe(400);
      expect(noId.body.data.params).toHaveProperty('id');
    });
  });
});

describe('layout catalog on the Pro plan', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ CHECKOUT_PLAN: 'pro' });
  });
  afterAll(() => t.close());

  it('lists every layout, Pro ones included, and imports a Pro layout once the page builder is active', async () => {
    const list = await request(t.http).get(`${t.base}/administration/template-list`).set('Authorization', t.admin.auth);
    expect(list.body.plan).toBe('pro');
    expect(list.body.layouts.length).toBeGreaterThanOrEqual(12);
    expect(list.body.layouts.some((layout: { required_plan: string }) => layout.required_plan === 'pro')).toBe(true);

    for (const action of ['install', 'activate']) {
      await request(t.http).post(`${t.base}/plugin/${action}`).set('Authorization', t.admin.auth).send({ slug: 'page_builder' }).expect(200);
    }
    const after = await request(t.http).get(`${t.base}/administration/template-list`).set('Authorization', t.admin.auth);
    expect(after.body.dependencies.page_builder).toMatchObject({ installed: true, active: true });
    const imported = await request(t.http)
      .post(`${t.base}/administration/import-template`)
      .set('Authorization', t.admin.auth)
      .send({ type: 'layout', id: 'online-course-sales' });
    expect(imported.status).toBe(201);
    expect(imported.body.page_id).toEqual(expect.any(Number));
  });
});

/** Keeps an SVG body as the exact text received. */
function rawText(res: unknown, callback: (error: Error | null, body: string) => void): void {
  const stream = res as NodeJS.ReadableStream;
  let text = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => (text += chunk));
  stream.on('end', () => callback(null, text));
}

async function countForms(t: TestApp): Promise<number> {
  const rows: Array<{ n: number | string }> = await t.dataSource.query(`SELECT COUNT(*) AS n FROM ${t.config.tablePrefix}checkout_forms`);
  return Number(rows[0].n);
}

async function countPages(t: TestApp): Promise<number> {
  const rows: Array<{ n: number | string }> = await t.dataSource.query(`SELECT COUNT(*) AS n FROM ${t.config.tablePrefix}pages`);
  return Number(rows[0].n);
}
