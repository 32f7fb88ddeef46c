import { Logger } from '@nestjs/common';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { FeaturesApiForwarder } from '../../src/modules/tagging/index.js';
import { expectWpError } from '../support/http.js';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import { advanceClock } from '../support/app-state.js';

const AREAS = ['payment-gateways', 'templates', 'form-builder'];

interface Received {
  method: string;
  contentType: string | undefined;
  body: string;
  idempotencyKey: string | undefined;
  /** Rows of the assignment table when the request arrived (the answer must be committed first) */
  storedRows: number;
  closed: Promise<void>;
}

/** A local features API: records each request; `mode` decides how it answers. */
async function startFeaturesApi(rowsNow: () => Promise<number>) {
  const received: Received[] = [];
  const state = { mode: 'ok' as 'ok' | 'error' | 'busy' | 'refuse' | 'hang' };
  const statuses = { ok: 200, error: 500, busy: 503, refuse: 400 };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const entry: Received = {
        method: req.method ?? '',
        contentType: req.headers['content-type'],
        body: Buffer.concat(chunks).toString('utf8'),
        idempotencyKey: req.headers['idempotency-key'] as string | undefined,
        storedRows: await rowsNow(),
        closed: new Promise<void>((resolve) => res.on('close', () => resolve())),
      };
      received.push(entry);
      if (state.mode === 'hang') return; // never answers: the service's timeout must end it
      res.writeHead(statuses[state.mode], { 'Content-Type': 'application/json' });
      res.end(state.mode === 'ok' ? '{"ok":true}' : '{"error":"internal"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/interests?key=features-api-secret-key`,
    received,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('tagging areas', () => {
  let t: TestApp;
  let editor: TestUser;
  let secondAdmin: TestUser;

  beforeAll(async () => {
    t = await startTestApp();
    editor = await t.createUser('editor');
    secondAdmin = await t.createUser('administrator');
  });
  afterAll(() => t.close());

  const area = (slug: string, auth = t.admin.auth) => request(t.http).get(`${t.base}/tagging/area/${slug}`).set('Authorization', auth);
  const apply = (body: object, auth = t.admin.auth) => request(t.http).post(`${t.base}/tagging/apply`).set('Authorization', auth).send(body);
  const rows = (): Promise<Array<{ user_id: number; area_slug: string; tags: string; email_address: string; first_name: string; last_name: string; created_at: unknown; updated_at: unknown }>> =>
    t.dataSource.query(
      `SELECT user_id, area_slug, tags, email_address, first_name, last_name, created_at, updated_at FROM ${t.config.tablePrefix}checkout_tag_assignments ORDER BY id`,
    );

  describe.each([
    { method: 'get' as const, path: '/tagging/area/form-builder', body: undefined },
    { method: 'post' as const, path: '/tagging/apply', body: { area_slug: 'form-builder', tags: ['coupon-codes'], email_address: 'a@example.test' } },
  ])('$method $path', ({ method, path, body }) => {
    it('needs credentials (401) and the checkout_settings capability (403)', async () => {
      const anonymous = await request(t.http)[method](`${t.base}${path}`).send(body);
      expect(anonymous.status).toBe(401);
      expectWpError(anonymous.body, 'rest_not_logged_in', 401);
      const forbidden = await request(t.http)[method](`${t.base}${path}`).set('Authorization', editor.auth).send(body);
      expect(forbidden.status).toBe(403);
      expectWpError(forbidden.body, 'rest_forbidden', 403);
      expect(await rows()).toEqual([]);
    });
  });

  it.each(AREAS)('GET /tagging/area/%s answers the bundled catalog with the caller’s defaults', async (slug) => {
    const res = await area(slug);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(
      ['applied_at', 'applied_tags', 'description', 'email_address', 'features', 'first_name', 'last_name', 'name', 'slug', 'submit_text'].sort(),
    );
    expect(res.body).toMatchObject({
      slug,
      name: expect.any(String),
      description: expect.any(String),
      submit_text: expect.any(String),
      first_name: '',
      last_name: '',
      email_address: 'admin@localhost',
      applied_tags: [],
      applied_at: null,
    });
    expect(res.body.features.length).toBeGreaterThanOrEqual(3);
    for (const feature of res.body.features) expect(feature).toEqual({ tag: expect.stringMatching(/^[a-z0-9-]+$/), name: expect.any(String), image: null });
    expect(new Set(res.body.features.map((feature: { tag: string }) => feature.tag)).size).toBe(res.body.features.length);
  });

  it('answers 404 checkout_not_found for any other area', async () => {
    for (const slug of ['dashboard', 'Form-Builder', 'tags', 'form-builder.json']) {
      const res = await area(slug);
      expect(res.status).toBe(404);
      expectWpError(res.body, 'checkout_not_found', 404);
    }
  });

  it('stores an answer, shows it back in its area and uses it as the defaults everywhere', async () => {
    const res = await apply({ area_slug: 'form-builder', tags: ['coupon-codes', 'conditional-logic'], email_address: ' owner@example.test ', first_name: 'Ada', last_name: 'Lovelace' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Thanks! Your choices for Form builder are saved.' });
    const [row] = await rows();
    // catalog order, trimmed email
    expect(row).toMatchObject({ user_id: t.admin.id, area_slug: 'form-builder', tags: '["conditional-logic","coupon-codes"]', email_address: 'owner@example.test', first_name: 'Ada', last_name: 'Lovelace' });

    const here = await area('form-builder');
    expect(here.body).toMatchObject({ applied_tags: ['conditional-logic', 'coupon-codes'], applied_at: expect.any(String), first_name: 'Ada', last_name: 'Lovelace', email_address: 'owner@example.test' });
    const elsewhere = await area('templates');
    expect(elsewhere.body).toMatchObject({ applied_tags: [], applied_at: null, first_name: 'Ada', last_name: 'Lovelace', email_address: 'owner@example.test' });
    // another user has answered nothing
    const other = await area('form-builder', secondAdmin.auth);
    expect(other.body).toMatchObject({ applied_tags: [], first_name: '', email_address: `${secondAdmin.login}@example.test` });
  });

  it('replaces the answer of the same user and area (one row), keeping when it was first given', async () => {
    const [before] = await rows();
    await new Promise((resolve) => setTimeout(resolve, 15));
    const res = await apply({ area_slug: 'form-builder', tags: ['file-uploads'], email_address: 'ada@example.test' });
    expect(res.status).toBe(200);
    const after = await rows();
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ tags: '["file-uploads"]', email_address: 'ada@example.test', first_name: '', last_name: '' });
    expect(new Date(after[0].created_at as string).getTime()).toBe(new Date(before.created_at as string).getTime());
    expect(new Date(after[0].updated_at as string).getTime()).toBeGreaterThan(new Date(before.updated_at as string).getTime());
    expect((await area('form-builder')).body.applied_tags).toEqual(['file-uploads']);

    // another user's answer in the same area is a row of its own
    expect((await apply({ area_slug: 'form-builder', tags: ['tax-rates'], email_address: 'second@example.test' }, secondAdmin.auth)).status).toBe(200);
    expect((await rows()).map((row) => [row.user_id, row.area_slug, row.tags])).toEqual([
      [t.admin.id, 'form-builder', '["file-uploads"]'],
      [secondAdmin.id, 'form-builder', '["tax-rates"]'],
    ]);
    expect((await area('form-builder')).body.applied_tags).toEqual(['file-uploads']);
  });

  it('takes a form-encoded body (tags[]) and an empty tag list', async () => {
    const form = await request(t.http)
      .post(`${t.base}/tagging/apply`)
      .set('Authorization', t.admin.auth)
      .type('form')
      .send('area_slug=templates&tags[]=quote-request&tags[]=event-registration&email_address=form%40example.test&first_name=Grace');
    expect(form.status).toBe(200);
    expect((await area('templates')).body).toMatchObject({ applied_tags: ['event-registration', 'quote-request'], first_name: 'Grace', email_address: 'form@example.test' });
    expect((await apply({ area_slug: 'templates', tags: [], email_address: 'form@example.test' })).status).toBe(200);
    expect((await area('templates')).body.applied_tags).toEqual([]);
  });

  it.each([
    [{ area_slug: 'form-builder', tags: ['coupon-codes', 'teleportation'], email_address: 'a@example.test' }, 'tags', /teleportation/],
    [{ area_slug: 'form-builder', tags: ['bank-transfer'], email_address: 'a@example.test' }, 'tags', /bank-transfer/],
    [{ area_slug: 'dashboard', tags: [], email_address: 'a@example.test' }, 'area_slug', /area_slug/],
    [{ area_slug: 'form-builder', tags: 'coupon-codes', email_address: 'a@example.test' }, 'tags', /array/],
    [{ area_slug: 'form-builder', tags: ['coupon-codes', 'coupon-codes'], email_address: 'a@example.test' }, 'tags', /unique/],
    [{ area_slug: 'form-builder', tags: ['Coupon Codes'], email_address: 'a@example.test' }, 'tags', /lower-case/],
    [{ area_slug: 'form-builder', tags: [], email_address: 'not-an-email' }, 'email_address', /email address/],
    [{ area_slug: 'form-builder', tags: [], email_address: 'a@example.test', last_name: 'x'.repeat(101) }, 'last_name', /100/],
    [{ area_slug: 'form-builder', tags: [], email_address: 'a@example.test', user_id: 1 }, 'user_id', /should not exist/],
  ])('refuses %j with 400 naming the field', async (body, field, message) => {
    const before = await rows();
    const res = await apply(body);
    expect(res.status).toBe(400);
    const error = expectWpError(res.body, 'rest_invalid_param', 400);
    expect(error.data.params).toEqual({ [field]: expect.stringMatching(message) });
    expect(await rows()).toEqual(before);
  });

  it('answers rest_missing_callback_param for missing fields, and for null in an optional one', async () => {
    const res = await apply({ area_slug: 'form-builder' });
    expect(res.status).toBe(400);
    expect(Object.keys(expectWpError(res.body, 'rest_missing_callback_param', 400).data.params as object).sort()).toEqual(['email_address', 'tags']);
    const nulled = await apply({ area_slug: 'form-builder', tags: [], email_address: 'a@example.test', first_name: null });
    expect(expectWpError(nulled.body, 'rest_missing_callback_param', 400).data.params).toEqual({ first_name: 'first_name must not be null' });
  });

  it('keeps section B /tags as the site’s own vocabulary', async () => {
    const tags = await request(t.http).get(`${t.base}/tags`).set('Authorization', t.admin.auth);
    expect(tags.body).toEqual([]);
  });

  it('sends nothing anywhere without FEATURES_API_URL', () => {
    expect(t.app.get(FeaturesApiForwarder).enabled).toBe(false);
  });

  it('documents both routes with operation ids, schemas, examples and errors', async () => {
    const res = await request(t.http).get('/docs-json');
    const getArea = res.body.paths['/tagging/area/{slug}'].get;
    expect(getArea.operationId).toBe('taggingGetArea');
    expect(getArea.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'slug', in: 'path', schema: expect.objectContaining({ enum: AREAS }) })]));
    expect(getArea.responses['200'].content['application/json']).toMatchObject({ schema: { $ref: '#/components/schemas/TaggingAreaDto' }, example: expect.objectContaining({ slug: 'form-builder' }) });
    expect(Object.keys(getArea.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '404']));
    const applyOp = res.body.paths['/tagging/apply'].post;
    expect(applyOp.operationId).toBe('taggingApply');
    expect(Object.keys(applyOp.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403']));
    const schema = res.body.components.schemas.ApplyTagsDto;
    expect(schema.required).toEqual(expect.arrayContaining(['area_slug', 'tags', 'email_address']));
    expect(schema.properties.area_slug.enum).toEqual(AREAS);
    expect(schema.properties.tags).toMatchObject({ type: 'array', example: expect.any(Array) });
  });
});

describe('tagging areas with FEATURES_API_URL', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof startFeaturesApi>>;
  let forwarder: FeaturesApiForwarder;
  const countRows = async () => Number((await t.dataSource.query(`SELECT COUNT(*) AS n FROM ${t.config.tablePrefix}checkout_tag_assignments`))[0].n);

  beforeAll(async () => {
    api = await startFeaturesApi(() => countRows());
    t = await startTestApp({ FEATURES_API_URL: api.url });
    forwarder = t.app.get(FeaturesApiForwarder);
  });
  afterAll(async () => {
    await t.close();
    await api.close();
  });
  afterEach(() => jest.restoreAllMocks());

  const apply = (body: object) => request(t.http).post(`${t.base}/tagging/apply`).set('Authorization', t.admin.auth).send(body);

  it('forwards the stored answer form-encoded, after the commit', async () => {
    api.state.mode = 'ok';
    const res = await apply({ area_slug: 'payment-gateways', tags: ['refunds-from-admin', 'bank-transfer'], email_address: 'owner@example.test', first_name: 'Ada', last_name: 'Lovelace' });
    expect(res.status).toBe(200);
    await forwarder.idle();
    expect(api.received).toHaveLength(1);
    const [delivery] = api.received;
    expect(delivery.method).toBe('POST');
    // The same on every attempt at this answer, so a resend after a crash is recognisable.
    expect(delivery.idempotencyKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(delivery.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    expect(delivery.storedRows).toBe(1);
    const params = new URLSearchParams(delivery.body);
    expect([...params.entries()]).toEqual([
      ['area', 'payment-gateways'],
      ['tags[]', 'bank-transfer'],
      ['tags[]', 'refunds-from-admin'],
      ['email_address', 'owner@example.test'],
      ['first_name', 'Ada'],
      ['last_name', 'Lovelace'],
    ]);
  });

  it('forwards nothing for a refused answer', async () => {
    const before = api.received.length;
    expect((await apply({ area_slug: 'payment-gateways', tags: ['nope'], email_address: 'owner@example.test' })).status).toBe(400);
    await forwarder.idle();
    expect(api.received).toHaveLength(before);
  });

  it('still answers 200 and keeps the answer when the remote fails; logs neither the URL nor the person', async () => {
    api.state.mode = 'error';
    const warn = jest.spyOn(Logger.prototype, 'warn');
    const res = await apply({ area_slug: 'templates', tags: ['template-export'], email_address: 'secret-person@example.test', first_name: 'Secret' });
    expect(res.status).toBe(200);
    await forwarder.idle();
    expect(api.received.at(-1)!.body).toContain('area=templates');
    const logged = JSON.stringify(warn.mock.calls);
    expect(logged).toContain('features API refused the feature interest');
    expect(logged).toContain('"status":500');
    for (const secret of ['features-api-secret-key', '127.0.0.1', 'secret-person', 'Secret']) expect(logged).not.toContain(secret);
    expect(Number((await t.dataSource.query(`SELECT COUNT(*) AS n FROM ${t.config.tablePrefix}checkout_tag_assignments WHERE area_slug = 'templates'`))[0].n)).toBe(1);
  });

  const outboxItems = async () =>
    (await t.dataSource.query(`SELECT item_key, status, attempts, last_error FROM ${t.config.tablePrefix}checkout_outbox WHERE topic = 'features_api_forward' ORDER BY id`)) as Array<{
      item_key: string;
      status: string;
      attempts: number | string;
      last_error: string | null;
    }>;

  it('retries a busy remote with backoff, sending the same answer with the same Idempotency-Key', async () => {
    api.state.mode = 'busy';
    expect((await apply({ area_slug: 'payment-gateways', tags: ['bank-transfer'], email_address: 'retry@example.test' })).status).toBe(200);
    await forwarder.idle();
    const first = api.received.at(-1)!;
    expect(first.body).toContain('email_address=retry%40example.test');
    const item = (await outboxItems()).find((row) => row.item_key === first.idempotencyKey)!;
    expect(item).toMatchObject({ status: 'pending', last_error: 'features API answered 503' });
    expect(Number(item.attempts)).toBe(1);

    api.state.mode = 'ok';
    await forwarder.idle();
    expect(api.received.filter((entry) => entry.idempotencyKey === item.item_key)).toHaveLength(1); // not due yet
    advanceClock(t, 30_000); // OUTBOX_RETRY_BASE_SECONDS
    await forwarder.idle();
    const attempts = api.received.filter((entry) => entry.idempotencyKey === item.item_key);
    expect(attempts).toHaveLength(2);
    expect(attempts[1].body).toBe(first.body);
    expect((await outboxItems()).find((row) => row.item_key === item.item_key)).toMatchObject({ status: 'sent', last_error: null });
  });

  it('gives up at once on a refusal (4xx): the forward fails and the dashboard says so', async () => {
    api.state.mode = 'refuse';
    expect((await apply({ area_slug: 'templates', tags: ['template-export'], email_address: 'refused@example.test' })).status).toBe(200);
    await forwarder.idle();
    const key = api.received.at(-1)!.idempotencyKey;
    const item = (await outboxItems()).find((row) => row.item_key === key)!;
    expect(item).toMatchObject({ status: 'failed', last_error: 'features API answered 400' });
    expect(Number(item.attempts)).toBe(1);
    const dashboard = await request(t.http).get(`${t.base}/administration/dashboard`).set('Authorization', t.admin.auth);
    expect(dashboard.body.notifications).toContainEqual(
      expect.objectContaining({ id: 'outbox.failed', severity: 'error', source: 'outbox', message: expect.stringContaining('(features_api_forward: 1)') }),
    );
  });

  it('does not wait for a remote that hangs, and gives up on it after the timeout', async () => {
    api.state.mode = 'hang';
    const warn = jest.spyOn(Logger.prototype, 'warn');
    const started = Date.now();
    const res = await apply({ area_slug: 'form-builder', tags: ['multi-step-forms'], email_address: 'owner@example.test' });
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(2_000);
    await forwarder.idle();
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(4_500);
    await api.received.at(-1)!.closed;
    expect(JSON.stringify(warn.mock.calls)).toContain('"reason":"timeout"');
  }, 20_000);
});
