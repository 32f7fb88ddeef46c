import request from 'supertest';
import { expectWpError } from '../support/http.js';
import { createUserWithCapabilities } from '../support/form-fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { OptionsService } from '../../src/modules/settings/index.js';

describe('page-builder plugin install and activate', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const call = (action: 'install' | 'activate', body: object, auth = t.admin.auth) =>
    request(t.http).post(`${t.base}/plugin/${action}`).set('Authorization', auth).send(body);
  const stored = async () => {
    const options = t.app.get(OptionsService);
    return { installed: await options.get('installed_plugins', null), active: await options.get('active_plugins', null) };
  };

  it.each(['install', 'activate'] as const)('%s refuses any slug but page_builder with 400 checkout_plugin_not_allowed', async (action) => {
    for (const slug of ['hello-dolly', 'Page_Builder', 'page_builder ', '../page_builder']) {
      const res = await call(action, { slug });
      expect(res.status).toBe(400);
      expectWpError(res.body, 'checkout_plugin_not_allowed', 400);
    }
    const missing = await call(action, {});
    expect(missing.status).toBe(400);
    expect(expectWpError(missing.body, 'rest_missing_callback_param', 400).data.params).toHaveProperty('slug');
    const extra = await call(action, { slug: 'page_builder', url: 'https://evil.example/plugin.zip' });
    expect(extra.status).toBe(400);
    expect(extra.body.data.params).toHaveProperty('url');
    expect(await stored()).toEqual({ installed: null, active: null });
  });

  it('refuses callers without the admin capability or the host plugin capabilities', async () => {
    expect((await request(t.http).post(`${t.base}/plugin/install`).send({ slug: 'page_builder' })).status).toBe(401);
    const editor = await t.createUser('editor');
    expect((await call('install', { slug: 'page_builder' }, editor.auth)).status).toBe(403);
    // Passes the route's capabilities, lacks the host's install_plugins.
    const settingsOnly = await createUserWithCapabilities(t, 'settings_manager', ['checkout_settings', 'manage_checkout_settings']);
    const refused = await call('install', { slug: 'page_builder' }, settingsOnly.auth);
    expect(refused.status).toBe(403);
    expectWpError(refused.body, 'rest_forbidden', 403);
    expect(await stored()).toEqual({ installed: null, active: null });
  });

  it('refuses activation before install, then installs, then activates (each idempotent)', async () => {
    const early = await call('activate', { slug: 'page_builder' });
    expect(early.status).toBe(409);
    expectWpError(early.body, 'checkout_plugin_not_installed', 409);
    expect(await stored()).toEqual({ installed: null, active: null });

    const installed = await call('install', { slug: 'page_builder' });
    expect(installed.status).toBe(200);
    expect(installed.body).toEqual({ success: true, message: 'Page builder plugin installed.', slug: 'page_builder', installed: true, active: false });
    expect(await stored()).toEqual({ installed: ['page_builder'], active: null });

    const again = await call('install', { slug: 'page_builder' });
    expect(again.status).toBe(200);
    expect(again.body.message).toMatch(/already installed/);

    const list = await request(t.http).get(`${t.base}/administration/template-list`).set('Authorization', t.admin.auth);
    expect(list.body.dependencies.page_builder).toMatchObject({ installed: true, active: false });

    const activated = await call('activate', { slug: 'page_builder' });
    expect(activated.status).toBe(200);
    expect(activated.body).toEqual({ success: true, message: 'Page builder plugin activated.', slug: 'page_builder', installed: true, active: true });
    expect(await stored()).toEqual({ installed: ['page_builder'], active: ['page_builder'] });
    expect((await call('activate', { slug: 'page_builder' })).body.message).toMatch(/already active/);

    const after = await request(t.http).get(`${t.base}/administration/template-list`).set('Authorization', t.admin.auth);
    expect(after.body.dependencies.page_builder).toMatchObject({ installed: true, active: true });
  });

  it('leaves plugin info, status and update as they were', async () => {
    const info = await request(t.http).get(`${t.base}/plugin/info`).set('Authorization', t.admin.auth);
    expect(info.body).toEqual({ name: 'Checkout', version: '1.5.3', author: 'Checkout', license: 'GPL-2.0-or-later' });
    const status = await request(t.http).get(`${t.base}/plugin/status`).set('Authorization', t.admin.auth);
    expect(status.body).toEqual({ active: true, version: '1.5.3' });
  });
});
