import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CheckoutClient, createCheckoutClient } from '../../clients/typescript/index.js';
import { buildOpenApiDocument, serializeOpenApiDocument } from '../../src/common/http/index.js';
import { type GatewayATestBed, startGatewayATestBed, TEST_ADMIN_URL } from '../support/gateway-a.js';
import { startTestApp, TEST_ADMIN_PASSWORD } from '../support/test-app.js';

const CLIENT_DIR = join(__dirname, '..', '..', 'clients', 'typescript');

describe('the generated TypeScript client (clients/typescript)', () => {
  it('is what `npm run client:generate` makes from the current document (regenerate and commit when this fails)', async () => {
    const t = await startTestApp();
    const work = mkdtempSync(join(tmpdir(), 'checkout-client-'));
    try {
      const document = serializeOpenApiDocument(buildOpenApiDocument(t.app));
      // Compared as data: the swagger plugin under ts-jest orders a few schema keys differently from
      // the nest build (`type` after `enum`), which changes nothing a client sees.
      expect(JSON.parse(document)).toEqual(JSON.parse(readFileSync(join(CLIENT_DIR, 'openapi.json'), 'utf8')));
      writeFileSync(join(work, 'openapi.json'), document);
      const generate = spawnSync(process.execPath, [join(CLIENT_DIR, 'generate.mjs'), '--document', join(work, 'openapi.json'), '--out', work], {
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(generate.stderr).toBe('');
      expect(generate.status).toBe(0);
      expect(readFileSync(join(work, 'schema.d.ts'), 'utf8')).toBe(readFileSync(join(CLIENT_DIR, 'schema.d.ts'), 'utf8'));
    } finally {
      rmSync(work, { recursive: true, force: true });
      await t.close();
    }
  });
});

/**
 * An admin UI and a checkout page written against the generated client only: every call to the
 * service goes through openapi-fetch on a real port. The fake gateway A plays the provider (its
 * OAuth page, and the payer's card confirmation).
 */
describe('an admin flow and a public checkout through the generated client', () => {
  let bed: GatewayATestBed;
  let admin: CheckoutClient;
  let payer: CheckoutClient;

  beforeAll(async () => {
    bed = await startGatewayATestBed();
    await bed.t.app.listen(0, '127.0.0.1');
    const { port } = bed.t.app.getHttpServer().address() as AddressInfo;
    const baseUrl = `http://127.0.0.1:${port}/wp-json/checkout/v1`;
    admin = createCheckoutClient({ baseUrl, credentials: { login: 'admin', applicationPassword: TEST_ADMIN_PASSWORD } });
    payer = createCheckoutClient({ baseUrl });
  });
  afterAll(() => bed.close());

  it('imports and publishes a form, connects gateway A, sets methods; a payer then pays and the payment is completed', async () => {
    // Admin: a draft form from a bundled template, then published.
    const imported = await admin.POST('/administration/import-template', { body: { type: 'form_template', slug: 'simple-payment' } });
    expect(imported.error).toBeUndefined();
    const formId = imported.data!.form_id;
    const draft = await admin.GET('/administration/payment-forms/{id}', { params: { path: { id: formId } } });
    expect(draft.data).toMatchObject({ id: formId, status: 'draft' });
    const published = await admin.PUT('/administration/payment-forms/{id}', {
      params: { path: { id: formId } },
      body: { title: draft.data!.title, status: 'publish', settings: draft.data!.settings },
    });
    expect(published.error).toBeUndefined();
    expect(published.data).toMatchObject({ id: formId, status: 'publish' });

    // Admin: connect gateway A in test mode (the provider's OAuth page is the fake's).
    const connect = await admin.GET('/payment-gateway/connect', { params: { query: { mode: 'test' } }, redirect: 'manual' });
    expect(connect.response.status).toBe(302);
    const atProvider = await fetch(connect.response.headers.get('location')!, { redirect: 'manual' });
    const callback = new URL(atProvider.headers.get('location')!);
    const back = await payer.GET('/payment-gateway/connect-callback', {
      params: { query: Object.fromEntries(callback.searchParams) as never },
      redirect: 'manual',
    });
    expect(back.response.status).toBe(302);
    const landing = new URL(back.response.headers.get('location')!);
    expect(`${landing.origin}${landing.pathname}`).toBe(new URL(TEST_ADMIN_URL).origin + new URL(TEST_ADMIN_URL).pathname);
    expect(landing.searchParams.get('gateway_a_connected')).toBe('test');
    expect(landing.searchParams.get('gateway_a_webhook')).toBe('verified');

    const methods = await admin.POST('/payment-gateway/set-payment-methods', { body: { gateway: 'gateway_a', methods: ['ccard'] } });
    expect(methods.error).toBeUndefined();

    // Payer: the checkout page.
    const synced = await payer.POST('/payment/sync-details', {
      body: { form_id: formId, payment_gateway: 'gateway_a', payment_method: 'ccard', email_address: 'payer@example.test', first_name: 'Pat', last_name: 'Payer' },
    });
    expect(synced.response.status).toBe(201);
    const record = synced.data!;
    expect(record).toMatchObject({ amount: 1000, currency: 'USD', mode: 'test', status: 'pending' });
    const reference = {
      payment_id: record.payment_id,
      payment_secret: record.payment_secret,
      checkout_token: record.checkout_token,
      form_id: formId,
      payment_gateway: 'gateway_a' as const,
      payment_method: 'ccard',
      amount: record.amount,
      currency: record.currency,
    };
    const intent = await payer.POST('/gateway-a/payment-intent-or-setup', { body: reference });
    expect(intent.error).toBeUndefined();
    expect(intent.data).toMatchObject({ intent_type: 'payment_intent', intent_id: expect.stringMatching(/^pi_/), requires_action: false });

    // The payer's card is confirmed at the provider.
    bed.fake.resources.setIntentStatus(intent.data!.intent_id, 'succeeded');

    const finished = await payer.POST('/gateway-a/checkout', { body: { ...reference, intent_id: intent.data!.intent_id } });
    expect(finished.error).toBeUndefined();
    expect(finished.data).toMatchObject({ status: 'completed', payment_id: record.payment_id });

    const status = await payer.POST('/payment/status', { body: reference });
    expect(status.data).toMatchObject({ payment_id: record.payment_id, status: 'completed', amount: 1000, currency: 'USD', gateway: 'gateway_a' });

    // And the admin sees it in the history, with the paging headers.
    const history = await admin.GET('/payment/history', { params: { query: { per_page: 10 } } });
    expect(history.response.headers.get('x-wp-total')).toBe('1');
    expect(history.data).toEqual([expect.objectContaining({ status: 'completed' })]);
  });

  it('gives errors in the documented shape, typed by status', async () => {
    const missing = await payer.POST('/payment/sync-details', { body: { form_id: 999999, payment_gateway: 'gateway_a', payment_method: 'ccard' } });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toMatchObject({ code: 'checkout_not_found', data: { status: 404 } });
    const anonymous = await payer.GET('/plugin/info');
    expect(anonymous.response.status).toBe(401);
    expect(anonymous.error).toMatchObject({ code: 'rest_not_logged_in' });
  });
});
