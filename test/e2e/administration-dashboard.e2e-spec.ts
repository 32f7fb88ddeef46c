import request from 'supertest';
import { GatewayAContractService, GatewayAWebhookUpgradeTask, gatewayAOption, type WebhookUpgradeProgress } from '../../src/modules/gateway-a/index.js';
import { gatewayBOption } from '../../src/modules/gateway-b/index.js';
import { FormsService } from '../../src/modules/forms/index.js';
import { GatewayStateService } from '../../src/modules/gateways/index.js';
import { OptionsService } from '../../src/modules/settings/index.js';
import { createIntent, createRecord, finishCheckout } from '../support/gateway-a-checkout.js';
import { connectGateway } from '../support/payment-fixtures.js';
import { connectThroughProxy, type GatewayATestBed, startGatewayATestBed } from '../support/gateway-a.js';
import { validSettings } from '../support/form-fixtures.js';
import { expectWpError } from '../support/http.js';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app.js';

const STEP_IDS = ['connect_payment_gateway', 'connect_gateway_a_test_gateway', 'connect_gateway_a_live_gateway', 'select_template'];

interface Notification {
  id: string;
  severity: string;
  message: string;
  source: string;
  route: string | null;
  setting: string | null;
  fingerprint: string;
}

describe('administration dashboard, notifications and quick setup', () => {
  let bed: GatewayATestBed;
  let t: TestApp;
  let options: OptionsService;
  let editor: TestUser;
  let secondAdmin: TestUser;

  beforeAll(async () => {
    bed = await startGatewayATestBed();
    t = bed.t;
    options = t.app.get(OptionsService);
    editor = await t.createUser('editor');
    secondAdmin = await t.createUser('administrator');
  });
  afterAll(() => bed.close());

  const dashboard = async (auth = t.admin.auth) => {
    const res = await request(t.http).get(`${t.base}/administration/dashboard`).set('Authorization', auth);
    expect(res.status).toBe(200);
    return res.body;
  };
  const steps = async (auth?: string) => Object.fromEntries((await dashboard(auth)).quick_setup_steps.map((step: { id: string; is_complete: number }) => [step.id, step.is_complete]));
  const notificationIds = async (auth?: string) => ((await dashboard(auth)).notifications as Notification[]).map((notification) => notification.id);
  const notification = async (id: string, auth?: string) => ((await dashboard(auth)).notifications as Notification[]).find((candidate) => candidate.id === id);
  const post = (path: string, body: object, auth = t.admin.auth) => request(t.http).post(`${t.base}${path}`).set('Authorization', auth).send(body);
  const dismiss = (id: unknown, auth = t.admin.auth) => post('/administration/dismiss-notification', { id }, auth);
  const dismissalRows = (): Promise<Array<{ user_id: number; notification_id: string; fingerprint: string }>> =>
    t.dataSource.query(`SELECT user_id, notification_id, fingerprint FROM ${t.config.tablePrefix}checkout_notification_dismissals ORDER BY id`);

  describe.each([
    { method: 'get' as const, path: '/administration/dashboard', body: undefined },
    { method: 'post' as const, path: '/administration/dismiss-notification', body: { id: 'mail.outbox' } },
    { method: 'post' as const, path: '/administration/set-quick-setup-skip', body: {} },
  ])('$method $path', ({ method, path, body }) => {
    it('needs credentials (401) and the checkout_settings capability (403)', async () => {
      const anonymous = await request(t.http)[method](`${t.base}${path}`).send(body);
      expect(anonymous.status).toBe(401);
      expectWpError(anonymous.body, 'rest_not_logged_in', 401);
      const forbidden = await request(t.http)[method](`${t.base}${path}`).set('Authorization', editor.auth).send(body);
      expect(forbidden.status).toBe(403);
      expectWpError(forbidden.body, 'rest_forbidden', 403);
    });
  });

  it('answers the whole payload of a fresh site', async () => {
    const body = await dashboard();
    expect(Object.keys(body).sort()).toEqual(['notifications', 'payment_gateways', 'plan', 'quick_setup_progress', 'quick_setup_steps', 'skipped_quick_setup', 'templates', 'upgrades']);
    expect(body.skipped_quick_setup).toBe(0);
    expect(body.quick_setup_steps).toEqual(STEP_IDS.map((id) => ({ id, is_complete: 0 })));
    expect(body.quick_setup_progress).toEqual(
      ['connect_test_mode', 'create_form', 'publish_form', 'make_test_payment'].map((id) => ({ id, done: false, gateways: [], form_id: null, payment_id: null })),
    );
    expect(Object.keys(body.payment_gateways)).toEqual(['gateway_a', 'gateway_b']);
    const paused = { state: 'paused', status: 'unconfigured', management: null, last_error: null, verified_at: null };
    expect(body.payment_gateways.gateway_a).toEqual({
      label: 'gateway A',
      mode: 'test',
      is_connected: 0,
      is_live: 0,
      active_payment_methods: ['ccard'],
      checkout_paused: true,
      modes: {
        test: { is_connected: 0, test_keys: null, webhook_configured: false, webhook_contract: paused },
        live: { is_connected: 0, test_keys: null, webhook_configured: false, webhook_contract: paused },
      },
    });
    expect(body.payment_gateways.gateway_b).toEqual({
      label: 'gateway B',
      mode: 'test',
      is_connected: 0,
      is_live: 0,
      active_payment_methods: ['standard_checkout'],
      checkout_paused: null,
      modes: {
        test: { is_connected: 0, test_keys: null, webhook_configured: false, webhook_contract: null },
        live: { is_connected: 0, test_keys: null, webhook_configured: false, webhook_contract: null },
      },
    });
    expect(body.plan).toBe('free');
    expect(body.upgrades).toEqual([]);
    expect(body.notifications).toEqual([
      {
        id: 'mail.outbox',
        severity: 'warning',
        message: expect.stringContaining('Emails are not sent: no mail server is set up'),
        source: 'mail',
        route: null,
        setting: 'SMTP_URL',
        link: null,
        fingerprint: expect.stringMatching(/^[0-9a-f]{32}$/),
      },
    ]);
    expect(body.templates).toEqual({
      form_templates: 10,
      layouts: 8,
      imported_forms: 0,
      imported_from_form_templates: 0,
      imported_from_layouts: 0,
      page_builder: { installed: false, active: false },
    });
  });

  it('completes the gateway steps from real connections and reports each mode', async () => {
    await connectThroughProxy(bed, 'test');
    expect(await steps()).toEqual({ connect_payment_gateway: 1, connect_gateway_a_test_gateway: 1, connect_gateway_a_live_gateway: 0, select_template: 0 });
    const gatewayA = (await dashboard()).payment_gateways.gateway_a;
    expect(gatewayA).toMatchObject({ mode: 'test', is_connected: 1, is_live: 0, checkout_paused: false });
    expect(gatewayA.modes.test).toEqual({
      is_connected: 1,
      test_keys: true,
      webhook_configured: true,
      webhook_contract: { state: 'verified', status: 'verified', management: 'automatic', last_error: null, verified_at: expect.any(String) },
    });
    expect(gatewayA.modes.live.is_connected).toBe(0);
    expect(await notificationIds()).toEqual(['mail.outbox']);
  });

  it('raises live_mode_test_keys while live mode has only test keys, and clears it once live is connected', async () => {
    expect((await post('/payment-gateway/set-mode', { gateway: 'gateway_a', mode: 'live' })).status).toBe(200);
    const body = await dashboard();
    expect(body.payment_gateways.gateway_a).toMatchObject({ mode: 'live', is_live: 1, is_connected: 0, checkout_paused: true });
    expect(body.notifications[0]).toEqual({
      id: 'gateway_a.live_mode_test_keys',
      severity: 'error',
      message: expect.stringContaining('live mode but only test keys'),
      source: 'gateway_a',
      route: 'GET /payment-gateway/connect?mode=live',
      setting: null,
      link: null,
      fingerprint: expect.stringMatching(/^[0-9a-f]{32}$/),
    });

    await connectThroughProxy(bed, 'live');
    const connected = await dashboard();
    expect(connected.notifications.map((entry: Notification) => entry.id)).toEqual(['mail.outbox']);
    expect(connected.payment_gateways.gateway_a).toMatchObject({ mode: 'live', is_live: 1, is_connected: 1, checkout_paused: false });
    expect(connected.payment_gateways.gateway_a.modes.live).toMatchObject({ is_connected: 1, test_keys: false });
    expect((await steps()).connect_gateway_a_live_gateway).toBe(1);
  });

  it('raises checkout_paused per connected mode with the contract state (manual, paused), error in the current mode', async () => {
    // The site is in live mode: a paused test mode is a warning, a paused live mode an error.
    expect((await post('/payment-gateway/save-webhook-settings', { gateway: 'gateway_a', mode: 'test', manual_configuration_complete: false })).status).toBe(200);
    const paused = await notification('gateway_a.checkout_paused.test');
    expect(paused).toMatchObject({ severity: 'warning', source: 'gateway_a', route: 'POST /payment-gateway/save-webhook-settings' });
    expect((await dashboard()).payment_gateways.gateway_a.modes.test.webhook_contract).toMatchObject({ state: 'paused', status: 'unverified', management: 'manual' });

    await post('/payment-gateway/save-webhook-settings', { gateway: 'gateway_a', mode: 'live', manual_configuration_complete: false });
    const body = await dashboard();
    expect(body.notifications.map((entry: Notification) => [entry.id, entry.severity])).toEqual([
      ['gateway_a.checkout_paused.live', 'error'],
      ['gateway_a.checkout_paused.test', 'warning'],
      ['mail.outbox', 'warning'],
    ]);
    expect(body.payment_gateways.gateway_a.checkout_paused).toBe(true);

    // The manual configuration completed: state manual, no notice.
    await post('/payment-gateway/save-webhook-settings', { gateway: 'gateway_a', mode: 'live', signing_secret: 'whsec_manualLiveSecret0123456789', manual_configuration_complete: true });
    const manual = await dashboard();
    expect(manual.payment_gateways.gateway_a.modes.live.webhook_contract).toMatchObject({ state: 'manual', status: 'verified', management: 'manual' });
    expect(manual.payment_gateways.gateway_a.checkout_paused).toBe(false);
    expect(manual.notifications.map((entry: Notification) => entry.id)).toEqual(['gateway_a.checkout_paused.test', 'mail.outbox']);
  });

  describe('dismissals', () => {
    it('hides a notification for the user who dismissed it only, and stores the fingerprint', async () => {
      const before = await notification('gateway_a.checkout_paused.test');
      const res = await dismiss('gateway_a.checkout_paused.test');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, message: 'Notification dismissed.', id: 'gateway_a.checkout_paused.test', fingerprint: before!.fingerprint });
      expect(await notificationIds()).toEqual(['mail.outbox']);
      expect(await notificationIds(secondAdmin.auth)).toEqual(['gateway_a.checkout_paused.test', 'mail.outbox']);
      expect(await dismissalRows()).toEqual([{ user_id: t.admin.id, notification_id: 'gateway_a.checkout_paused.test', fingerprint: before!.fingerprint }]);
    });

    it('is idempotent: a second dismissal keeps one row', async () => {
      expect((await dismiss('gateway_a.checkout_paused.test')).status).toBe(200);
      expect(await dismissalRows()).toHaveLength(1);
    });

    it('shows the notification again when its condition changes (new fingerprint)', async () => {
      const contract = t.app.get(GatewayAContractService);
      const record = (await contract.getRecord('test'))!;
      await contract.saveRecord('test', { ...record, status: 'failed', last_error: 'endpoint is disabled' });
      const back = await notification('gateway_a.checkout_paused.test');
      expect(back).toMatchObject({ message: expect.stringContaining('(endpoint is disabled)') });
      expect(back!.fingerprint).not.toBe((await dismissalRows())[0].fingerprint);
      // Dismissing again replaces the stored fingerprint.
      expect((await dismiss('gateway_a.checkout_paused.test')).body.fingerprint).toBe(back!.fingerprint);
      expect(await dismissalRows()).toEqual([{ user_id: t.admin.id, notification_id: 'gateway_a.checkout_paused.test', fingerprint: back!.fingerprint }]);
      expect(await notificationIds()).toEqual(['mail.outbox']);
      // Switching the site's mode makes the paused test mode current (error): a new condition.
      await post('/payment-gateway/set-mode', { gateway: 'gateway_a', mode: 'test' });
      expect(await notification('gateway_a.checkout_paused.test')).toMatchObject({ severity: 'error' });
    });

    it('answers 404 for an id that is not raised now, 400 naming the field otherwise', async () => {
      const unknown = await dismiss('gateway_a.something_else');
      expect(unknown.status).toBe(404);
      expectWpError(unknown.body, 'checkout_not_found', 404);
      // A known id whose condition does not hold now is not raised either.
      expect((await dismiss('gateway_b.webhook_id_missing.live')).status).toBe(404);
      const bad = await dismiss('<script>');
      expect(bad.status).toBe(400);
      expect(expectWpError(bad.body, 'rest_invalid_param', 400).data.params).toHaveProperty('id');
      const missing = await post('/administration/dismiss-notification', {});
      expect(expectWpError(missing.body, 'rest_missing_callback_param', 400).data.params).toHaveProperty('id');
      const extra = await post('/administration/dismiss-notification', { id: 'mail.outbox', user_id: secondAdmin.id });
      expect(expectWpError(extra.body, 'rest_invalid_param', 400).data.params).toHaveProperty('user_id');
      expect(await dismissalRows()).toHaveLength(1);
    });
  });

  it('raises webhook_id_missing for a connected gateway-B mode until its Webhook ID is saved', async () => {
    for (const field of ['email', 'client_id'] as const) await options.set(gatewayBOption.credential('test', field), `${field}-value`);
    await options.setSecret(gatewayBOption.credential('test', 'secret'), 'gateway-b-secret');
    const body = await dashboard();
    expect(body.payment_gateways.gateway_b).toMatchObject({ is_connected: 1, checkout_paused: null });
    expect(body.payment_gateways.gateway_b.modes.test).toEqual({ is_connected: 1, test_keys: null, webhook_configured: false, webhook_contract: null });
    expect(body.notifications).toContainEqual(
      expect.objectContaining({ id: 'gateway_b.webhook_id_missing.test', severity: 'warning', source: 'gateway_b', route: 'POST /payment-gateway/save-webhook-settings' }),
    );
    expect(body.notifications.map((entry: Notification) => entry.id)).not.toContain('gateway_b.webhook_id_missing.live');

    expect((await post('/payment-gateway/save-webhook-settings', { gateway: 'gateway_b', mode: 'test', webhook_id: 'WHDASHBOARD01' })).status).toBe(200);
    const saved = await dashboard();
    expect(saved.payment_gateways.gateway_b.modes.test.webhook_configured).toBe(true);
    expect(saved.notifications.map((entry: Notification) => entry.id)).not.toContain('gateway_b.webhook_id_missing.test');
  });

  describe('upgrade task', () => {
    const writeProgress = (overrides: Partial<WebhookUpgradeProgress>) =>
      options.set(gatewayAOption.webhookUpgrade(), {
        task: 'gateway_a_webhook_update_1_5_3',
        status: 'scheduled',
        attempts: 0,
        max_attempts: 5,
        next_attempt_at: null,
        last_error: null,
        modes: {},
        scheduled_at: '2026-11-25T09:00:00.000Z',
        started_at: null,
        finished_at: null,
        ...overrides,
      } satisfies WebhookUpgradeProgress);

    it('reports a real run of the 1.5.3 update, then pending and failed states as notifications', async () => {
      await options.set('checkout_version', '1.5.2');
      expect((await post('/plugin/update', { version: '1.5.3' })).status).toBe(200);
      const task = t.app.get(GatewayAWebhookUpgradeTask);
      await task.runDue();
      await task.idle();
      const done = await dashboard();
      expect(done.upgrades).toEqual([
        {
          gateway: 'gateway_a',
          task: 'gateway_a_webhook_update_1_5_3',
          release: '1.5.3',
          status: 'completed',
          attempts: 1,
          max_attempts: 5,
          next_attempt_at: null,
          last_error: null,
          modes: { test: expect.any(String), live: 'skipped_manual' },
          scheduled_at: expect.any(String),
          finished_at: expect.any(String),
        },
      ]);
      expect(done.notifications.map((entry: Notification) => entry.id)).not.toEqual(expect.arrayContaining([expect.stringMatching(/webhook_upgrade/)]));

      await writeProgress({ status: 'retrying', attempts: 2, last_error: 'test: the gateway could not be reached', next_attempt_at: '2026-11-25T09:02:00.000Z' });
      expect(await notification('gateway_a.webhook_upgrade.pending')).toMatchObject({ severity: 'warning', message: expect.stringContaining('attempt 2 of 5') });
      expect((await dashboard()).upgrades[0]).toMatchObject({ status: 'retrying', attempts: 2, next_attempt_at: '2026-11-25T09:02:00.000Z' });

      await writeProgress({ status: 'failed', attempts: 5, last_error: 'test: the gateway could not be reached', finished_at: '2026-11-25T09:20:00.000Z' });
      const ids = await notificationIds();
      expect(ids).toContain('gateway_a.webhook_upgrade.failed');
      expect(ids).not.toContain('gateway_a.webhook_upgrade.pending');
      expect(await notification('gateway_a.webhook_upgrade.failed')).toMatchObject({ severity: 'error', route: 'GET /payment-gateway/connect' });
    });
  });

  describe('select_template and the templates summary', () => {
    const importedRows = (): Promise<Array<{ id: number; source_template: string | null }>> =>
      t.dataSource.query(`SELECT id, source_template FROM ${t.config.tablePrefix}checkout_forms ORDER BY id`);

    it('stays open for a form built by hand', async () => {
      const created = await post('/administration/payment-forms', { title: 'By hand', settings: validSettings() });
      expect(created.status).toBe(201);
      expect((await steps()).select_template).toBe(0);
      expect(await importedRows()).toEqual([{ id: created.body.id, source_template: null }]);
    });

    it('completes once a form is imported from a template or a layout, and reopens when those forms are gone', async () => {
      const imported = await post('/administration/import-template', { type: 'form_template', slug: 'donation' });
      expect(imported.status).toBe(201);
      expect((await steps()).select_template).toBe(1);
      expect((await importedRows()).find((row) => row.id === imported.body.form_id)?.source_template).toBe('form_template:donation');

      for (const action of ['install', 'activate']) expect((await post(`/plugin/${action}`, { slug: 'page_builder' })).status).toBe(200);
      const layout = await post('/administration/import-template', { type: 'layout', id: 'donation-landing' });
      expect(layout.status).toBe(201);
      expect((await importedRows()).find((row) => row.id === layout.body.form_id)?.source_template).toBe('layout:donation-landing');
      expect((await dashboard()).templates).toEqual({
        form_templates: 10,
        layouts: 8,
        imported_forms: 2,
        imported_from_form_templates: 1,
        imported_from_layouts: 1,
        page_builder: { installed: true, active: true },
      });

      for (const id of [imported.body.form_id, layout.body.form_id]) {
        expect((await request(t.http).delete(`${t.base}/administration/payment-forms/${id}`).set('Authorization', t.admin.auth)).status).toBe(200);
      }
      expect((await steps()).select_template).toBe(0);
      expect((await dashboard()).templates.imported_forms).toBe(0);
    });
  });

  describe('POST set-quick-setup-skip', () => {
    const skippedRecord = async () => options.get<{ skipped: boolean; skipped_at: string; skipped_by: number } | null>('checkout_quick_setup_skipped', null);

    it('marks quick setup as skipped for the whole site, idempotently', async () => {
      expect(await skippedRecord()).toBeNull();
      const res = await post('/administration/set-quick-setup-skip', {});
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, message: 'Quick setup skipped.', skipped_quick_setup: 1 });
      const first = await skippedRecord();
      expect(first).toEqual({ skipped: true, skipped_at: expect.any(String), skipped_by: t.admin.id });
      expect((await dashboard()).skipped_quick_setup).toBe(1);
      expect((await dashboard(secondAdmin.auth)).skipped_quick_setup).toBe(1);

      const again = await post('/administration/set-quick-setup-skip', {}, secondAdmin.auth);
      expect(again.status).toBe(200);
      expect(again.body.skipped_quick_setup).toBe(1);
      expect(await skippedRecord()).toEqual(first);
    });

    it('refuses body fields, and takes an empty form-encoded body', async () => {
      const res = await post('/administration/set-quick-setup-skip', { skipped: false });
      expect(expectWpError(res.body, 'rest_invalid_param', 400).data.params).toHaveProperty('skipped');
      const form = await request(t.http).post(`${t.base}/administration/set-quick-setup-skip`).set('Authorization', t.admin.auth).type('form').send('');
      expect(form.status).toBe(200);
      const bare = await request(t.http).post(`${t.base}/administration/set-quick-setup-skip`).set('Authorization', t.admin.auth);
      expect(bare.status).toBe(200);
      expect((await dashboard()).skipped_quick_setup).toBe(1);
    });
  });

  it('documents the three routes with operation ids, schemas, examples and errors', async () => {
    const res = await request(t.http).get('/docs-json');
    const paths = res.body.paths;
    const base = '/administration';
    const get = paths[`${base}/dashboard`].get;
    expect(get.operationId).toBe('administrationGetDashboard');
    expect(get.responses['200'].content['application/json']).toMatchObject({
      schema: { $ref: '#/components/schemas/DashboardDto' },
      example: expect.objectContaining({ quick_setup_steps: expect.any(Array), payment_gateways: expect.any(Object) }),
    });
    const dismissOp = paths[`${base}/dismiss-notification`].post;
    expect(dismissOp.operationId).toBe('administrationDismissNotification');
    expect(Object.keys(dismissOp.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404']));
    expect(paths[`${base}/set-quick-setup-skip`].post.operationId).toBe('administrationSetQuickSetupSkip');
    const schemas = res.body.components.schemas;
    expect(schemas.DashboardDto.properties.payment_gateways.additionalProperties).toEqual({ $ref: '#/components/schemas/DashboardGatewayDto' });
    expect(schemas.DashboardDto.required).toEqual(
      expect.arrayContaining(['skipped_quick_setup', 'quick_setup_steps', 'payment_gateways', 'plan', 'upgrades', 'notifications', 'templates']),
    );
    expect(schemas.NotificationDto.properties.severity.enum).toEqual(['info', 'warning', 'error']);
    expect(schemas.DismissNotificationDto.properties.id).toMatchObject({ type: 'string', maxLength: 100, example: 'mail.outbox' });
    expect(schemas.DismissNotificationResultDto.properties.fingerprint.type).toBe('string');
  });
});

/**
 * The console's quick setup (issue 30 item 6) walked as a merchant does it, through the real routes
 * and the gateway-A fake: each step turns done only when its fact holds, and the interface's four
 * steps keep their own meaning beside it.
 */
describe('quick_setup_progress: a test payment at the end of quick setup', () => {
  let bed: GatewayATestBed;
  let t: TestApp;

  beforeAll(async () => {
    bed = await startGatewayATestBed({ RATE_LIMIT_NEW_PAYMENT: '10000', RATE_LIMIT_PUBLIC_PAYMENT: '10000' });
    t = bed.t;
  });
  afterAll(() => bed.close());

  interface ProgressStep {
    id: string;
    done: boolean;
    gateways: string[];
    form_id: number | null;
    payment_id: number | null;
  }
  const body = async () => (await request(t.http).get(`${t.base}/administration/dashboard`).set('Authorization', t.admin.auth).expect(200)).body;
  const progress = async () => Object.fromEntries(((await body()).quick_setup_progress as ProgressStep[]).map(({ id, ...rest }) => [id, rest]));
  const done = async () => Object.fromEntries(((await body()).quick_setup_progress as ProgressStep[]).map((step) => [step.id, step.done]));
  const interfaceSteps = async () => Object.fromEntries((await body()).quick_setup_steps.map((step: { id: string; is_complete: number }) => [step.id, step.is_complete]));
  let formId: number;

  it('counts test mode as connected only once its checkout is not paused', async () => {
    // Credentials stored but no verified webhook endpoint: the gateway refuses checkout in test mode.
    await connectGateway(t, 'gateway_a', 'test');
    expect((await progress()).connect_test_mode).toEqual({ done: false, gateways: [], form_id: null, payment_id: null });
    // The interface's step keeps its own meaning: the credentials are stored.
    expect((await interfaceSteps()).connect_gateway_a_test_gateway).toBe(1);

    await connectThroughProxy(bed, 'test');
    expect((await progress()).connect_test_mode).toEqual({ done: true, gateways: ['gateway_a'], form_id: null, payment_id: null });
    expect(await done()).toEqual({ connect_test_mode: true, create_form: false, publish_form: false, make_test_payment: false });
  });

  it('has a form created once one exists, and published only once one is published', async () => {
    const created = await request(t.http).post(`${t.base}/administration/payment-forms`).set('Authorization', t.admin.auth).send({ title: 'First form', settings: validSettings({ fields: [{ name: 'email_address', type: 'email', label: 'Email', required: true }] }) });
    expect(created.status).toBe(201);
    expect(created.body.status).toBe('draft');
    formId = created.body.id;
    const steps = await progress();
    expect(steps.create_form).toEqual({ done: true, gateways: [], form_id: formId, payment_id: null });
    expect(steps.publish_form).toEqual({ done: false, gateways: [], form_id: null, payment_id: null });
    // A form built by hand is not the interface's select_template.
    expect((await interfaceSteps()).select_template).toBe(0);

    const published = await request(t.http).put(`${t.base}/administration/payment-forms/${formId}`).set('Authorization', t.admin.auth).send({ status: 'publish' });
    expect(published.status).toBe(200);
    const after = await progress();
    expect(after.publish_form).toEqual({ done: true, gateways: [], form_id: formId, payment_id: null });
    // The test payment is to be made on that form's hosted page, through the gateway in test mode.
    expect(after.make_test_payment).toEqual({ done: false, gateways: ['gateway_a'], form_id: formId, payment_id: null });
  });

  it('has a test payment made only once one is completed, not while it is pending', async () => {
    const form = await t.app.get(FormsService).getById(formId);
    const record = await createRecord(t, form);
    const intent = await createIntent(t, record);
    expect(intent.status).toBe(200);
    expect((await progress()).make_test_payment.done).toBe(false);

    bed.fake.resources.setIntentStatus(intent.body.intent_id, 'succeeded');
    expect((await finishCheckout(t, record, { intent_id: intent.body.intent_id })).body.status).toBe('completed');
    expect((await progress()).make_test_payment).toEqual({ done: true, gateways: ['gateway_a'], form_id: formId, payment_id: record.sync.payment_id });
    expect(await done()).toEqual({ connect_test_mode: true, create_form: true, publish_form: true, make_test_payment: true });
    expect(await interfaceSteps()).toEqual({ connect_payment_gateway: 1, connect_gateway_a_test_gateway: 1, connect_gateway_a_live_gateway: 0, select_template: 0 });
  });

  it('names no gateway for a test payment while the gateway is in live mode, and counts no live payment', async () => {
    await t.app.get(GatewayStateService).setMode('gateway_a', 'live');
    const steps = await progress();
    expect(steps.make_test_payment.gateways).toEqual([]);
    // Test mode stays connected (its credentials and contract did not change).
    expect(steps.connect_test_mode).toEqual({ done: true, gateways: ['gateway_a'], form_id: null, payment_id: null });
    await t.app.get(GatewayStateService).setMode('gateway_a', 'test');

    // Only a completed payment made in test mode counts.
    await t.dataSource.query(`UPDATE ${t.config.tablePrefix}checkout_payments SET mode = 'live'`);
    expect((await progress()).make_test_payment).toEqual({ done: false, gateways: ['gateway_a'], form_id: formId, payment_id: null });
    await t.dataSource.query(`UPDATE ${t.config.tablePrefix}checkout_payments SET mode = 'test'`);
  });

  it('reopens steps whose facts are gone', async () => {
    const unpublished = await request(t.http).put(`${t.base}/administration/payment-forms/${formId}`).set('Authorization', t.admin.auth).send({ status: 'draft' });
    expect(unpublished.status).toBe(200);
    expect(await done()).toEqual({ connect_test_mode: true, create_form: true, publish_form: false, make_test_payment: true });
    expect((await progress()).make_test_payment.form_id).toBeNull();
  });
});

describe('dashboard with SMTP configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ SMTP_URL: 'smtp://127.0.0.1:2525' });
  });
  afterAll(() => t.close());

  it('raises no outbox notification', async () => {
    const res = await request(t.http).get(`${t.base}/administration/dashboard`).set('Authorization', t.admin.auth);
    expect(res.status).toBe(200);
    expect(res.body.notifications).toEqual([]);
  });
});
