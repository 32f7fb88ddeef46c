import request from 'supertest';
import { OptionsService } from '../../src/modules/settings/index.js';
import { UpgradeRegistry } from '../../src/modules/plugin/index.js';
import { expectWpError } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

describe('section B: settings, tags, plugin', () => {
  let t: TestApp;
  const api = () => ({
    get: (path: string) => request(t.http).get(t.base + path).set('Authorization', t.admin.auth),
    post: (path: string, body: object) => request(t.http).post(t.base + path).set('Authorization', t.admin.auth).send(body),
    del: (path: string) => request(t.http).delete(t.base + path).set('Authorization', t.admin.auth),
  });

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  describe('/settings', () => {
    const KEY = 'sk_test_51Hx9SecretValue4242';

    it('starts with the defaults', async () => {
      const res = await api().get('/settings');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ currency: 'USD', payment_gateway: 'gateway_a', api_key: null, debug_mode: false, language: 'en' });
    });

    it('saves settings, encrypts the api key and only ever shows its mask', async () => {
      const saved = await api().post('/settings', { currency: 'EUR', payment_gateway: 'gateway_b', api_key: KEY, debug_mode: true });
      expect(saved.status).toBe(200);
      expect(saved.body).toEqual({ success: true, message: expect.any(String) });
      expect(JSON.stringify(saved.body)).not.toContain(KEY);

      const read = await api().get('/settings');
      expect(read.body).toEqual({ currency: 'EUR', payment_gateway: 'gateway_b', api_key: 'sk_test_…4242', debug_mode: true, language: 'en' });

      const rows: Array<{ option_value: string }> = await t.dataSource.query(
        `SELECT option_value FROM ${t.config.tablePrefix}options WHERE option_name = 'checkout_general_api_key'`,
      );
      expect(rows).toHaveLength(1);
      expect(rows[0].option_value).not.toContain('51Hx9SecretValue');
      expect(await t.app.get(OptionsService).getSecret('checkout_general_api_key')).toBe(KEY);
    });

    it('keeps omitted fields on a partial update', async () => {
      await api().post('/settings', { debug_mode: false }).expect(200);
      const read = await api().get('/settings');
      expect(read.body).toEqual({ currency: 'EUR', payment_gateway: 'gateway_b', api_key: 'sk_test_…4242', debug_mode: false, language: 'en' });
    });

    it('refuses invalid values and changes nothing', async () => {
      const res = await api().post('/settings', { currency: 'eur', payment_gateway: 'gateway_z', api_key: 'short' });
      expect(res.status).toBe(400);
      const body = expectWpError(res.body, 'rest_invalid_param', 400);
      expect(Object.keys(body.data.params as object).sort()).toEqual(['api_key', 'currency', 'payment_gateway']);
      const read = await api().get('/settings');
      expect(read.body.currency).toBe('EUR');
      expect(read.body.payment_gateway).toBe('gateway_b');
    });

    it('DELETE resets to the defaults and forgets the key', async () => {
      const res = await api().del('/settings');
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      const read = await api().get('/settings');
      expect(read.body).toEqual({ currency: 'USD', payment_gateway: 'gateway_a', api_key: null, debug_mode: false, language: 'en' });
    });
  });

  describe('/tags', () => {
    it('creates, lists and deletes tags', async () => {
      const created = await api().post('/tags', { tag: 'Donations' });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({ success: true, message: 'Tag created.', tag_id: expect.any(Number) });
      await api().post('/tags', { tag: 'Events' }).expect(201);

      const list = await api().get('/tags');
      expect(list.body).toEqual([
        { tag_id: created.body.tag_id, tag: 'Donations' },
        { tag_id: expect.any(Number), tag: 'Events' },
      ]);

      const deleted = await api().del(`/tags/${created.body.tag_id}`);
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ success: true, message: 'Tag deleted.' });
      expect((await api().get('/tags')).body).toEqual([{ tag_id: expect.any(Number), tag: 'Events' }]);
    });

    it('refuses a duplicate name, whatever its case (409)', async () => {
      const res = await api().post('/tags', { tag: 'events' });
      expect(res.status).toBe(409);
      expectWpError(res.body, 'checkout_tag_exists', 409);
      expect((await api().get('/tags')).body).toHaveLength(1);
    });

    it('answers 404 for an unknown id and 400 for an id that is not a positive integer', async () => {
      const unknown = await api().del('/tags/424242');
      expect(unknown.status).toBe(404);
      expectWpError(unknown.body, 'checkout_not_found', 404);
      for (const bad of ['0', '-1', 'abc', '1.5']) {
        const res = await api().del(`/tags/${bad}`);
        expect(res.status).toBe(400);
        expect(expectWpError(res.body, 'rest_invalid_param', 400).data.params).toHaveProperty('tag_id');
      }
    });

    it('refuses an empty or over-long name', async () => {
      expect((await api().post('/tags', { tag: '   ' })).status).toBe(400);
      expect((await api().post('/tags', { tag: 'x'.repeat(101) })).status).toBe(400);
    });
  });

  describe('/plugin', () => {
    it('GET /plugin/info names the plugin and its running version', async () => {
      const res = await api().get('/plugin/info');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ name: 'Checkout', version: '1.5.3', author: expect.any(String), license: expect.any(String) });
    });

    it('GET /plugin/status is active at the installed version', async () => {
      const res = await api().get('/plugin/status');
      expect(res.body).toEqual({ active: true, version: '1.5.3' });
    });

    it('POST /plugin/update refuses a version above the running code, an unknown release or a malformed one', async () => {
      for (const version of ['1.5.4', '2.0.0']) {
        const res = await api().post('/plugin/update', { version });
        expect(res.status).toBe(400);
        expect(expectWpError(res.body, 'rest_invalid_param', 400).data.params).toHaveProperty('version');
      }
      expect((await api().post('/plugin/update', { version: '1.4.0' })).status).toBe(400);
      expect((await api().post('/plugin/update', { version: 'latest' })).status).toBe(400);
      expect((await api().post('/plugin/update', {})).status).toBe(400);
    });

    it('POST /plugin/update refuses a downgrade', async () => {
      const res = await api().post('/plugin/update', { version: '1.5.2' });
      expect(res.status).toBe(409);
      expectWpError(res.body, 'checkout_invalid_state', 409);
      expect((await api().get('/plugin/status')).body.version).toBe('1.5.3');
    });

    it('POST /plugin/update runs the routines after the installed release and records the version', async () => {
      const ran: string[] = [];
      t.app.get(UpgradeRegistry).register({ version: '1.5.3', name: 'probe', run: async () => void ran.push('1.5.3') });
      await t.app.get(OptionsService).set('checkout_version', '1.5.2');
      expect((await api().get('/plugin/status')).body.version).toBe('1.5.2');

      const res = await api().post('/plugin/update', { version: '1.5.3' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, message: 'Plugin updated to version 1.5.3.' });
      expect(ran).toEqual(['1.5.3']);
      expect((await api().get('/plugin/status')).body.version).toBe('1.5.3');

      await api().post('/plugin/update', { version: '1.5.3' }).expect(200);
      expect(ran).toEqual(['1.5.3']);
    });
  });
});

describe('/settings: concurrent updates and null fields', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('concurrent POST /settings of different fields keep every change (no lost update)', async () => {
    for (let round = 0; round < 8; round += 1) {
      await request(t.http).delete(`${t.base}/settings`).set('Authorization', t.admin.auth).expect(200);
      await Promise.all(
        [{ currency: 'EUR' }, { debug_mode: true }, { payment_gateway: 'gateway_b' }, { api_key: 'sk_test_concurrent_4242' }].map((body) =>
          request(t.http).post(`${t.base}/settings`).set('Authorization', t.admin.auth).send(body).expect(200),
        ),
      );
      const read = await request(t.http).get(`${t.base}/settings`).set('Authorization', t.admin.auth);
      expect(read.body).toEqual({ currency: 'EUR', payment_gateway: 'gateway_b', debug_mode: true, api_key: 'sk_test_…4242', language: 'en' });
    }
  });

  it("keeps the site's default payer language (issue 32): one of the nine, reset to en", async () => {
    const admin = (req: request.Test) => req.set('Authorization', t.admin.auth);
    await admin(request(t.http).post(`${t.base}/settings`)).send({ language: 'pt-BR' }).expect(200);
    expect((await admin(request(t.http).get(`${t.base}/settings`))).body.language).toBe('pt-BR');
    const refused = await admin(request(t.http).post(`${t.base}/settings`)).send({ language: 'zh' });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.data.params)).toEqual(['language']);
    await admin(request(t.http).delete(`${t.base}/settings`)).expect(200);
    expect((await admin(request(t.http).get(`${t.base}/settings`))).body.language).toBe('en');
  });

  it('POST /settings with null values answers 400 and keeps the stored settings', async () => {
    await request(t.http).delete(`${t.base}/settings`).set('Authorization', t.admin.auth).expect(200);
    const res = await request(t.http).post(`${t.base}/settings`).set('Authorization', t.admin.auth).send({ currency: null, payment_gateway: null, debug_mode: null });
    expect(res.status).toBe(400);
    expect(res.body.code).toMatch(/^rest_(invalid|missing_callback)_param$/);
    expect(Object.keys(res.body.data.params).sort()).toEqual(['currency', 'debug_mode', 'payment_gateway']);
    const read = await request(t.http).get(`${t.base}/settings`).set('Authorization', t.admin.auth);
    expect(read.body).toEqual({ currency: 'USD', payment_gateway: 'gateway_a', debug_mode: false, api_key: null, language: 'en' });
  });

  it('POST /settings with api_key null answers 400, not 500', async () => {
    const res = await request(t.http).post(`${t.base}/settings`).set('Authorization', t.admin.auth).send({ api_key: null });
    expect(res.status).toBe(400);
    expect(res.body.data.params).toHaveProperty('api_key');
  });
});
