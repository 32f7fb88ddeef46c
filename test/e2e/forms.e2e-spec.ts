import request from 'supertest';
import { expectWpError } from '../support/http.js';
import { createFormManager, createUserWithCapabilities, validSettings } from '../support/form-fixtures.js';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app.js';

describe('payment forms CRUD (/administration/payment-forms)', () => {
  let t: TestApp;
  let author: TestUser;
  let otherManager: TestUser;
  let editor: TestUser;
  let settingsOnly: TestUser;
  const path = () => `${t.base}/administration/payment-forms`;

  beforeAll(async () => {
    t = await startTestApp();
    author = await createFormManager(t);
    otherManager = await createFormManager(t);
    // No checkout_settings: an `editor` now holds it (and may edit every form), a subscriber does not.
    editor = await t.createUser('subscriber');
    settingsOnly = await createUserWithCapabilities(t, 'settings_only', ['checkout_settings']);
  });
  afterAll(() => t.close());

  const create = (user: TestUser, body: object = { title: 'Form', settings: validSettings() }) =>
    request(t.http).post(path()).set('Authorization', user.auth).send(body);

  it('creates a draft form owned by the caller and stores it', async () => {
    const res = await create(author, { title: '  Spring sale  ', settings: validSettings() });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      title: 'Spring sale',
      status: 'draft',
      author_id: author.id,
      settings: validSettings(),
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updated_at: expect.any(String),
    });
    const rows: Array<{ title: string; settings: string }> = await t.dataSource.query(`SELECT title, settings FROM ${t.config.tablePrefix}checkout_forms WHERE id = ?`, [
      res.body.id,
    ]);
    expect(rows[0].title).toBe('Spring sale');
    expect(JSON.parse(rows[0].settings)).toEqual(validSettings());
  });

  const invalid: Array<[string, (s: ReturnType<typeof validSettings>) => unknown, string]> = [
    ['an unknown currency', (s) => ((s.plans[0].prices[0].currency = 'XYZ'), s), 'settings.plans.0.prices.0.currency'],
    ['a lower-case currency', (s) => ((s.plans[0].prices[0].currency = 'usd'), s), 'settings.plans.0.prices.0.currency'],
    ['a KWD amount the gateway cannot charge (last digit not 0)', (s) => ((s.plans[0].prices[0].currency = 'KWD'), (s.plans[0].prices[0].amount = 1505), s), 'settings.plans.0.prices.0.amount'],
    ['an ISK amount with a fraction of a króna', (s) => ((s.plans[0].prices[0].currency = 'ISK'), (s.plans[0].prices[0].amount = 150), s), 'settings.plans.0.prices.0.amount'],
    ['an unknown frequency', (s) => ((s.plans[1].prices[0].frequency = 'weekly' as never), s), 'settings.plans.1.prices.0.frequency'],
    ['a fractional amount', (s) => ((s.plans[0].prices[0].amount = 19.99), s), 'settings.plans.0.prices.0.amount'],
    ['an amount given as a string', (s) => ((s.plans[0].prices[0].amount = '1000' as never), s), 'settings.plans.0.prices.0.amount'],
    ['a zero amount', (s) => ((s.plans[0].prices[0].amount = 0), s), 'settings.plans.0.prices.0.amount'],
    ['an amount above the limit', (s) => ((s.plans[0].prices[0].amount = 100_000_000), s), 'settings.plans.0.prices.0.amount'],
    ['custom_amount min above max', (s) => ((s.plans[2].prices[0].custom_amount = { min: 5000, max: 100 }), s), 'settings.plans.2.prices.0.custom_amount.max'],
    ['a suggested amount outside the custom bounds', (s) => ((s.plans[2].prices[0].amount = 50), s), 'settings.plans.2.prices.0.amount'],
    ['a setup fee on a one-time price', (s) => ((s.plans[0].prices[0].setup_amount = 100), s), 'settings.plans.0.prices.0.setup_amount'],
    ['no plans', (s) => ((s.plans = []), s), 'settings.plans'],
    ['a plan without prices', (s) => ((s.plans[0].prices = []), s), 'settings.plans.0.prices'],
    ['a plan title of 101 characters', (s) => ((s.plans[0].title = 'x'.repeat(101)), s), 'settings.plans.0.title'],
    ['a method the gateway does not have', (s) => ((s.payment_methods.gateway_a = ['ccard', 'bitcoin']), s), 'settings.payment_methods.gateway_a'],
    ['a method of the other gateway', (s) => ((s.payment_methods.gateway_b = ['ccard']), s), 'settings.payment_methods.gateway_b'],
    ['an unknown gateway', (s) => (((s.payment_methods as Record<string, string[]>).gateway_c = ['ach']), s), 'settings.payment_methods.gateway_c'],
    ['no method at all', (s) => ((s.payment_methods = { gateway_a: [] }), s), 'settings.payment_methods'],
    ['a field map without email_address', (s) => ((s.fields = s.fields.filter((f) => f.name !== 'email_address')), s), 'settings.fields'],
    ['a repeated field name', (s) => (s.fields.push({ name: 'size', type: 'text', label: 'Again', required: false }), s), 'settings.fields'],
    ['email_address typed as text', (s) => ((s.fields[0].type = 'text'), s), 'settings.fields.0.type'],
    ['a select without options', (s) => (delete s.fields[3].options, s), 'settings.fields.3.options'],
    ['a field name with capitals', (s) => ((s.fields[3].name = 'Size'), s), 'settings.fields.3.name'],
    ['an unknown submit action', (s) => ((s.submit_actions = ['email', 'sms' as never]), s), 'settings.submit_actions'],
    ['the redirect action without a URL', (s) => ((s.submit_actions = ['redirect']), s), 'settings.redirect_url'],
    ['a javascript: redirect URL', (s) => ((s.submit_actions = ['redirect']), (s.redirect_url = 'javascript:alert(1)'), s), 'settings.redirect_url'],
    ['an invalid email_to', (s) => ((s.email.email_to = 'not-an-address'), s), 'settings.email.email_to'],
    ['a renewal_failure_emails that is no boolean', (s) => (((s.email as { renewal_failure_emails?: unknown }).renewal_failure_emails = 'no'), s), 'settings.email.renewal_failure_emails'],
    ['a subject with a line break', (s) => ((s.email.admin_subject = 'Hi\r\nBcc: x@example.test'), s), 'settings.email.admin_subject'],
    ['a bad colour', (s) => ((s.display.primary_color = 'red;}'), s), 'settings.display.primary_color'],
    ['an unknown display key', (s) => ((s.display.font = 'Comic'), s), 'settings.display.font'],
    ['an unknown settings key', (s) => ({ ...(s as object), surprise: true }), 'settings.surprise'],
  ];

  // Only a missing value is reported as a missing parameter.
  const missing = new Set(['settings.fields.3.options', 'settings.redirect_url']);

  it.each(invalid)('refuses %s and names the field', async (_case, mutate, field) => {
    const res = await create(author, { title: 'Bad', settings: mutate(validSettings()) });
    expect(res.status).toBe(400);
    const body = expectWpError(res.body, missing.has(field) && _case !== 'a javascript: redirect URL' ? 'rest_missing_callback_param' : 'rest_invalid_param', 400);
    expect(body.data.params).toHaveProperty([field]);
    expect(body.message).toContain(field);
  });

  it('refuses a missing title and missing settings as missing parameters', async () => {
    const res = await create(author, {});
    expect(res.status).toBe(400);
    const body = expectWpError(res.body, 'rest_missing_callback_param', 400);
    expect(Object.keys(body.data.params as object).sort()).toEqual(['settings', 'title']);
  });

  it('reads a form, and 404s an unknown one, 400s a bad id', async () => {
    const created = await create(author);
    // Any holder of edit_checkout_forms reads every form; checkout_settings alone reads none.
    const read = await request(t.http).get(`${path()}/${created.body.id}`).set('Authorization', otherManager.auth);
    expect(read.status).toBe(200);
    expectWpError((await request(t.http).get(`${path()}/${created.body.id}`).set('Authorization', settingsOnly.auth)).body, 'rest_forbidden', 403);
    expect(read.body).toEqual(created.body);
    const missing = await request(t.http).get(`${path()}/999999`).set('Authorization', t.admin.auth);
    expect(missing.status).toBe(404);
    expectWpError(missing.body, 'checkout_not_found', 404);
    const bad = await request(t.http).get(`${path()}/abc`).set('Authorization', t.admin.auth);
    expect(bad.status).toBe(400);
    expect(expectWpError(bad.body, 'rest_invalid_param', 400).data.params).toHaveProperty('id');
  });

  it('updates title and status alone, keeping the settings; settings replace as a whole', async () => {
    const created = await create(author);
    const renamed = await request(t.http).put(`${path()}/${created.body.id}`).set('Authorization', author.auth).send({ title: 'Renamed', status: 'publish' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ title: 'Renamed', status: 'publish', settings: validSettings() });

    const next = validSettings({ plans: [{ title: 'Only', prices: [{ amount: 5000, currency: 'JPY', frequency: 'one-time' }] }] });
    const replaced = await request(t.http).put(`${path()}/${created.body.id}`).set('Authorization', author.auth).send({ settings: next });
    expect(replaced.status).toBe(200);
    expect(replaced.body.settings).toEqual(next);
    expect(replaced.body.title).toBe('Renamed');

    const refused = await request(t.http)
      .put(`${path()}/${created.body.id}`)
      .set('Authorization', author.auth)
      .send({ settings: { ...next, plans: [{ title: 'X', prices: [{ amount: 1, currency: 'EURO', frequency: 'one-time' }] }] } });
    expect(refused.status).toBe(400);
    expect(refused.body.data.params).toHaveProperty(['settings.plans.0.prices.0.currency']);
    const after = await request(t.http).get(`${path()}/${created.body.id}`).set('Authorization', author.auth);
    expect(after.body.settings).toEqual(next);
  });

  it('lists forms newest first with paging headers and a status filter', async () => {
    const ids: number[] = [];
    for (const status of ['draft', 'publish', 'publish']) {
      ids.push((await create(author, { title: `F-${status}`, status, settings: validSettings() })).body.id);
    }
    const count = async (where = '') =>
      Number(((await t.dataSource.query(`SELECT COUNT(*) AS n FROM ${t.config.tablePrefix}checkout_forms ${where}`)) as Array<{ n: string | number }>)[0].n);
    const total = await count();
    const page = await request(t.http).get(`${path()}?per_page=2&page=1`).set('Authorization', t.admin.auth);
    expect(page.status).toBe(200);
    expect(page.headers['x-wp-total']).toBe(String(total));
    expect(page.headers['x-wp-totalpages']).toBe(String(Math.ceil(total / 2)));
    expect(page.body.map((form: { id: number }) => form.id)).toEqual([ids[2], ids[1]]);
    const published = await request(t.http).get(`${path()}?status=publish&per_page=100`).set('Authorization', t.admin.auth);
    expect(published.body).toHaveLength(await count("WHERE status = 'publish'"));
    expect(published.body.every((form: { status: string }) => form.status === 'publish')).toBe(true);
    const tooMany = await request(t.http).get(`${path()}?per_page=101`).set('Authorization', t.admin.auth);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.data.params).toHaveProperty('per_page');
  });

  describe('edit access matrix', () => {
    let formId: number;
    beforeEach(async () => {
      formId = (await create(author)).body.id;
    });

    const put = (auth?: string) => {
      const req = request(t.http).put(`${path()}/${formId}`);
      if (auth) req.set('Authorization', auth);
      return req.send({ title: 'Changed' });
    };
    const del = (auth?: string) => {
      const req = request(t.http).delete(`${path()}/${formId}`);
      if (auth) req.set('Authorization', auth);
      return req;
    };
    const storedTitle = async () =>
      ((await t.dataSource.query(`SELECT title FROM ${t.config.tablePrefix}checkout_forms WHERE id = ?`, [formId])) as Array<{ title: string }>)[0]?.title;

    it('lets the author update and delete their own form', async () => {
      expect((await put(author.auth)).status).toBe(200);
      expect(await storedTitle()).toBe('Changed');
      const removed = await del(author.auth);
      expect(removed.status).toBe(200);
      expect(removed.body).toMatchObject({ deleted: true, previous: { id: formId, title: 'Changed' } });
      expect(await storedTitle()).toBeUndefined();
      const again = await request(t.http).get(`${path()}/${formId}`).set('Authorization', author.auth);
      expect(again.status).toBe(404);
    });

    it('refuses another editor of forms (403) and changes nothing', async () => {
      const update = await put(otherManager.auth);
      expect(update.status).toBe(403);
      expectWpError(update.body, 'rest_forbidden', 403);
      expect((await del(otherManager.auth)).status).toBe(403);
      expect(await storedTitle()).toBe('Form');
    });

    it('lets an editor (edit_others_checkout_forms) update, and the administrator update and delete', async () => {
      const teamEditor = await t.createUser('editor');
      expect((await put(teamEditor.auth)).status).toBe(200);
      expect((await put(t.admin.auth)).status).toBe(200);
      expect((await del(t.admin.auth)).status).toBe(200);
      expect(await storedTitle()).toBeUndefined();
    });

    it('refuses anonymous callers (401) and users without checkout_settings (403)', async () => {
      expect((await put()).status).toBe(401);
      expect((await del()).status).toBe(401);
      expectWpError((await put(editor.auth)).body, 'rest_forbidden', 403);
      expect((await del(editor.auth)).status).toBe(403);
      expect(await storedTitle()).toBe('Form');
    });

    it('refuses creation to a user who may not write forms', async () => {
      const res = await create(settingsOnly);
      expect(res.status).toBe(403);
      expectWpError(res.body, 'rest_forbidden', 403);
      const anonymous = await request(t.http).post(path()).send({ title: 'x', settings: validSettings() });
      expect(anonymous.status).toBe(401);
    });

    it('answers 404 before 403 for a missing form', async () => {
      const res = await request(t.http).put(`${path()}/987654`).set('Authorization', otherManager.auth).send({ title: 'x' });
      expect(res.status).toBe(404);
    });
  });
});

describe('payment forms: null in an optional field is refused, never stored or crashed on', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('PUT of a form with a null title or status answers 400, not 500', async () => {
    const created = await request(t.http).post(`${t.base}/administration/payment-forms`).set('Authorization', t.admin.auth).send({ title: 'Form', settings: validSettings() });
    expect(created.status).toBe(201);
    for (const body of [{ title: null }, { status: null }, { settings: null }]) {
      const res = await request(t.http).put(`${t.base}/administration/payment-forms/${created.body.id}`).set('Authorization', t.admin.auth).send(body);
      expect(res.status).toBe(400);
      expect(res.body.data.params).toHaveProperty(Object.keys(body)[0]);
    }
    const read = await request(t.http).get(`${t.base}/administration/payment-forms/${created.body.id}`).set('Authorization', t.admin.auth);
    expect(read.body).toEqual(expect.objectContaining({ title: 'Form', status: 'draft', settings: validSettings() }));
  });

  it('refuses null optional settings (setup_amount, display keys) instead of storing them', async () => {
    const settings = validSettings() as unknown as { plans: Array<{ prices: Array<Record<string, unknown>> }>; display: Record<string, unknown> };
    settings.plans[1].prices[0].setup_amount = null;
    settings.display.button_label = null;
    const res = await request(t.http).post(`${t.base}/administration/payment-forms`).set('Authorization', t.admin.auth).send({ title: 'Nulls', settings });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.data.params).sort()).toEqual(['settings.display.button_label', 'settings.plans.1.prices.0.setup_amount']);
  });
});
