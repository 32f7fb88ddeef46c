import request from 'supertest';
import { runRotateSecretCommand } from '../../src/cli-secrets.js';
import { CryptoService } from '../../src/common/crypto/index.js';
import type { AppConfig } from '../../src/config/index.js';
import { gatewayAOption } from '../../src/modules/gateway-a/index.js';
import { RecoveryCodeEntity } from '../../src/modules/identity/accounts/account-token.entity.js';
import { ApplicationPasswordEntity } from '../../src/modules/identity/application-password.entity.js';
import { AccountService, IdentityService } from '../../src/modules/identity/index.js';
import { DoctorService } from '../../src/modules/operations/index.js';
import { OptionsService, SecretMismatchError } from '../../src/modules/settings/index.js';
import { connectGateway, createPaymentForm, referenceOf, type SyncAnswer } from '../support/payment-fixtures.js';
import { sharedDatabaseUrl } from '../support/shared-database.js';
import { basicAuth, startTestApp, type TestApp, type TestUser } from '../support/test-app.js';

const OLD = 'the-old-checkout-secret-0123456789-abcdefgh';
const NEW = 'the-new-checkout-secret-0123456789-ijklmnop';
const TOTP = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const IDEMPOTENCY_KEY = 'rotation-retry-0001';

/** Every sealed value stored in the database, with where it is (options, two-factor secrets, endpoint secrets, emailed links). */
async function sealedValues(t: TestApp): Promise<Array<[string, string]>> {
  const p = t.config.tablePrefix;
  const found: Array<[string, string]> = [];
  for (const row of (await t.dataSource.query(`SELECT option_name, option_value FROM ${p}options WHERE option_value LIKE '%sealed%'`)) as Array<{ option_name: string; option_value: string }>) {
    found.push([row.option_name, (JSON.parse(row.option_value) as { sealed: string }).sealed]);
  }
  for (const row of (await t.dataSource.query(`SELECT id, two_factor_secret FROM ${p}users WHERE two_factor_secret IS NOT NULL`)) as Array<{ id: number; two_factor_secret: string }>) {
    found.push([`user ${row.id}`, row.two_factor_secret]);
  }
  for (const row of (await t.dataSource.query(`SELECT id, secret_sealed, previous_secret_sealed FROM ${p}checkout_webhook_endpoints`)) as Array<Record<string, string | null>>) {
    found.push([`endpoint ${row.id}`, row.secret_sealed!], [`endpoint ${row.id} previous`, row.previous_secret_sealed!]);
  }
  for (const row of (await t.dataSource.query(`SELECT id, payload FROM ${p}checkout_outbox WHERE payload LIKE '%sealed_token%'`)) as Array<{ id: number; payload: string }>) {
    found.push([`outbox ${row.id}`, (JSON.parse(row.payload) as { sealed_token: string }).sealed_token]);
  }
  return found;
}

const opensUnder = (secret: string, sealed: string): boolean => {
  try {
    new CryptoService({ checkoutSecret: secret, dataDir: '/nonexistent' } as AppConfig).decrypt(sealed);
    return true;
  } catch {
    return false;
  }
};

async function bootFailure(env: Record<string, string | undefined>): Promise<Error> {
  try {
    await (await startTestApp(env, { keepDatabase: true })).close();
  } catch (error) {
    return error as Error;
  }
  throw new Error('the app booted');
}

/**
 * docs/operations.md "Rotating CHECKOUT_SECRET" on one database, instance by instance: made under
 * the old secret, used under new + previous, re-sealed by `rotate-secret`, then the old secret gone.
 */
describe('CHECKOUT_SECRET rotation with CHECKOUT_SECRET_PREVIOUS', () => {
  const databaseUrl = sharedDatabaseUrl();
  const env = { DATABASE_URL: databaseUrl, OUTGOING_WEBHOOKS_ALLOW_PRIVATE: 'true' };
  let t: TestApp;
  let reference: ReturnType<typeof referenceOf>;
  let used: TestUser;
  let unused: TestUser;
  let made: Array<[string, string]>;
  let syncBody: object;
  /** A console session (cookie and nonce) opened under the old secret. */
  let session: { cookie: string; nonce: string };
  const SAME_ORIGIN = { Origin: 'http://checkout.test', 'Sec-Fetch-Site': 'same-origin' };
  const withSession = () => request(t.http).get(`${t.base}/settings`).set(SAME_ORIGIN).set('Cookie', session.cookie).set('X-WP-Nonce', session.nonce);

  beforeAll(async () => {
    t = await startTestApp({ ...env, CHECKOUT_SECRET: OLD });
    await connectGateway(t, 'gateway_a', 'test');
    const form = await createPaymentForm(t);
    syncBody = { form_id: form.id, payment_gateway: 'gateway_a', payment_method: 'ccard' };
    const sync = await request(t.http).post(`${t.base}/payment/sync-details`).set('Idempotency-Key', IDEMPOTENCY_KEY).send(syncBody);
    reference = referenceOf(sync.body as SyncAnswer, form.id);
    used = await t.createUser('administrator', 'rotation_used');
    unused = await t.createUser('administrator', 'rotation_unused');
    const crypto = t.app.get(CryptoService);
    await t.dataSource.query(`UPDATE ${t.config.tablePrefix}users SET two_factor_secret = ? WHERE id = ?`, [crypto.encrypt(TOTP), unused.id]);
    await t.dataSource.getRepository(RecoveryCodeEntity).insert({ userId: unused.id, codeHash: crypto.hmac('recovery-code', 'abcde12345').toString('hex'), secretKeyId: crypto.keyId, createdAt: new Date(), usedAt: null });
    const endpoint = await request(t.http).post(`${t.base}/administration/webhook-endpoints`).set('Authorization', t.admin.auth).send({ url: 'http://127.0.0.1:9/hook' });
    expect(endpoint.status).toBe(201);
    expect((await request(t.http).post(`${t.base}/administration/webhook-endpoints/${endpoint.body.id}/rotate-secret`).set('Authorization', t.admin.auth)).status).toBeLessThan(300);
    // A password-reset link waiting in the outbox (sealed).
    await t.app.get(AccountService).requestPasswordReset(unused.login);
    const signIn = await request(t.http).post(`${t.base}/auth/session`).set(SAME_ORIGIN).send({ login: t.admin.login, password: t.admin.password });
    expect(signIn.status).toBe(201);
    const cookie = ([] as string[]).concat(signIn.headers['set-cookie'] ?? []).find((line) => line.startsWith('checkout_console_session='))!;
    session = { cookie: cookie.split(';')[0], nonce: signIn.body.nonce as string };
    expect((await withSession()).status).toBe(200);
    made = await sealedValues(t);
    expect(made.map(([where]) => where.replace(/\d+/g, 'N')).sort()).toEqual(
      ['checkout_gateway_a_test_secret_key', 'checkout_secret_canary', 'endpoint N', 'endpoint N previous', 'outbox N', 'user N'].sort(),
    );
    expect(made.every(([, sealed]) => opensUnder(OLD, sealed))).toBe(true);
    await t.close();
  });
  afterAll(() => t.close());

  it('refuses the new secret alone before the rotation (the canary), naming neither secret', async () => {
    const error = await bootFailure({ ...env, CHECKOUT_SECRET: NEW });
    expect(error).toBeInstanceOf(SecretMismatchError);
    expect(error.message).toContain('CHECKOUT_SECRET_PREVIOUS');
    expect(error.message).not.toContain(OLD);
    expect(error.message).not.toContain(NEW);
  });

  it('with the previous secret set: old references verify, an old application password works and is re-keyed, rotate-secret re-seals everything once', async () => {
    t = await startTestApp({ ...env, CHECKOUT_SECRET: NEW, CHECKOUT_SECRET_PREVIOUS: OLD }, { keepDatabase: true });
    // A payment secret and checkout token made under the old secret.
    expect((await request(t.http).post(`${t.base}/payment/status`).send(reference)).status).toBe(200);
    // A console session and its nonce, both keyed by the old secret.
    expect((await withSession()).status).toBe(200);
    expect((await request(t.http).get(`${t.base}/auth/session`).set(SAME_ORIGIN).set('Cookie', session.cookie)).status).toBe(200);
    // A retry across the switch finds the idempotency key its first try stored (keyed by the old secret).
    const retry = await request(t.http).post(`${t.base}/payment/sync-details`).set('Idempotency-Key', IDEMPOTENCY_KEY).send(syncBody);
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body.payment_id).toBe(reference.payment_id);

    const passwords = t.dataSource.getRepository(ApplicationPasswordEntity);
    const before = await passwords.findOneByOrFail({ userId: used.id });
    expect((await request(t.http).get(`${t.base}/settings`).set('Authorization', used.auth)).status).toBe(200);
    const after = await passwords.findOneByOrFail({ userId: used.id });
    expect(after.passwordHash).not.toBe(before.passwordHash);
    expect(after.secretKeyId).toBe(t.app.get(CryptoService).keyId);
    expect((await request(t.http).get(`${t.base}/settings`).set('Authorization', used.auth)).status).toBe(200);
    expect((await request(t.http).get(`${t.base}/settings`).set('Authorization', basicAuth(used.login, 'not-the-password-at-all'))).status).toBe(401);

    const out: string[] = [];
    const io = { out: (line: string) => out.push(line), err: (line: string) => out.push(line) };
    expect(await runRotateSecretCommand(t.app, { listOnly: true }, io)).toBe(0);
    expect(out.join('\n')).toContain(`of ${unused.login}`);
    expect(out.join('\n')).not.toContain(`of ${used.login},`);
    expect(made.every(([, sealed]) => opensUnder(OLD, sealed))).toBe(true);

    // doctor says a rotation is under way (and says nothing of it without the previous secret: operations.e2e-spec).
    expect((await t.app.get(DoctorService).run()).find((check) => check.name === 'secret rotation')).toMatchObject({ status: 'warn' });

    out.length = 0;
    expect(await runRotateSecretCommand(t.app, { listOnly: false }, io)).toBe(0);
    const report = out.join('\n');
    // Each value made under the old secret (the canary among them).
    expect(made.map(([where]) => where)).toContain('checkout_secret_canary');
    expect(report).toContain(`Re-encrypted ${made.length} stored value(s) under the current secret; 0 already were.`);
    expect(report).toMatch(new RegExp(`application password [0-9a-f-]{36} "test" of ${unused.login}, last used never`));
    expect(report).toContain(`the unused recovery codes of ${unused.login}`);
    for (const secret of [OLD, NEW, TOTP, 'sk_test_1234567890', unused.password]) expect(report).not.toContain(secret);
    const resealed = await sealedValues(t);
    expect(resealed.map(([where]) => where).sort()).toEqual(made.map(([where]) => where).sort());
    for (const [, sealed] of resealed) {
      expect(opensUnder(NEW, sealed)).toBe(true);
      expect(opensUnder(OLD, sealed)).toBe(false);
    }

    out.length = 0;
    expect(await runRotateSecretCommand(t.app, { listOnly: false }, io)).toBe(0);
    expect(out[0]).toMatch(/^Re-encrypted 0 stored value\(s\) under the current secret; \d+ already were\.$/);
    expect(await sealedValues(t)).toEqual(resealed);
    await t.close();
  });

  it('without the previous secret: it boots, old references and the unused application password fail, the re-keyed one and the credential work', async () => {
    t = await startTestApp({ ...env, CHECKOUT_SECRET: NEW }, { keepDatabase: true });
    expect((await request(t.http).post(`${t.base}/payment/status`).send(reference)).status).toBe(403);
    // The old secret's nonce no longer matches (checked first, 403), and the session is gone (204: none).
    expect((await withSession()).body.code).toBe('rest_cookie_invalid_nonce');
    expect((await request(t.http).get(`${t.base}/auth/session`).set(SAME_ORIGIN).set('Cookie', session.cookie)).status).toBe(204);
    expect((await request(t.http).get(`${t.base}/settings`).set('Authorization', used.auth)).status).toBe(200);
    expect((await request(t.http).get(`${t.base}/settings`).set('Authorization', unused.auth)).status).toBe(401);
    expect(await t.app.get(OptionsService).getSecret(gatewayAOption.credential('test', 'secret_key'))).toBe('sk_test_1234567890');
    expect((await t.app.get(DoctorService).run()).map((check) => check.name)).not.toContain('secret rotation');
  });

  it('a boot outside a rotation marks hashes from before key ids (migration 1764118000000) as keyed by the current secret', async () => {
    const passwords = t.dataSource.getRepository(ApplicationPasswordEntity);
    await passwords.update({ userId: used.id }, { secretKeyId: null });
    await t.app.get(IdentityService).adoptUnmarkedHashes();
    expect((await passwords.findOneByOrFail({ userId: used.id })).secretKeyId).toBe(t.app.get(CryptoService).keyId);
  });
});
