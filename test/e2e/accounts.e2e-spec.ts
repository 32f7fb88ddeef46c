import { getRepositoryToken } from '@nestjs/typeorm';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import request from 'supertest';
import type { Repository } from 'typeorm';
import { OutboxWorker } from '../../src/modules/outbox/index.js';
import { AccountTokenEntity } from '../../src/modules/identity/accounts/account-token.entity.js';
import { SCRYPT_PARAMETERS } from '../../src/modules/identity/accounts/account-password.js';
import { base32Decode, hotp, totpStep } from '../../src/modules/identity/accounts/totp.js';
import { AccountService, IdentityService } from '../../src/modules/identity/index.js';
import { UserEntity } from '../../src/modules/identity/user.entity.js';
import { expectWpError } from '../support/http.js';
import { basicAuth, startTestApp, type TestApp, type TestUser } from '../support/test-app.js';

const SAME_ORIGIN = { Origin: 'http://checkout.test', 'Sec-Fetch-Site': 'same-origin' };
const COOKIE = 'checkout_console_session';

interface Session {
  cookie: string;
  nonce: string;
  body: Record<string, unknown>;
}

/** Every log line of the apps of this file: no password, token, hash or secret may show up in it. */
const logLines: string[] = [];
const logStream = new PassThrough();
logStream.on('data', (chunk: Buffer) => logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));

/** The text of a message as written (quoted-printable soft breaks and `=3D` undone). */
function quotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
}

function sessionOf(res: request.Response): Session {
  const line = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((value) => value.startsWith(`${COOKIE}=`));
  expect(line).toBeDefined();
  return { cookie: /^([^;]*)/.exec(line!)![1], nonce: res.body.nonce as string, body: res.body };
}

describe('accounts: account passwords, reset, set-password links, two-factor sign-in', () => {
  let t: TestApp;
  let users: Repository<UserEntity>;
  let tokens: Repository<AccountTokenEntity>;
  const secrets: string[] = [];

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_FAILED_LOGIN: '1000', RATE_LIMIT_ACCOUNT_RECOVERY: '1000', LOG_LEVEL: 'info' }, { logStream });
    users = t.app.get(getRepositoryToken(UserEntity));
    tokens = t.app.get(getRepositoryToken(AccountTokenEntity));
  });
  afterAll(async () => {
    await t.close();
    // Nothing secret in any log line, the request log of every route above included.
    const log = logLines.join('\n');
    for (const secret of secrets) expect(log).not.toContain(secret);
    expect(log).not.toMatch(/scrypt\$/);
  });

  const signIn = (login: string, password: string) => request(t.http).post(`${t.base}/auth/session`).set(SAME_ORIGIN).send({ login, password });
  const who = (session: Session) => request(t.http).get(`${t.base}/auth/session`).set(SAME_ORIGIN).set('Cookie', session.cookie).set('X-WP-Nonce', session.nonce);
  const withSession = (session: Session, call: request.Test) => call.set(SAME_ORIGIN).set('Cookie', session.cookie).set('X-WP-Nonce', session.nonce);

  /** A user with an application password and the account password `password` (unless null). */
  async function account(role: string, password: string | null): Promise<TestUser & { email: string }> {
    const user = await t.createUser(role);
    if (password !== null) await t.app.get(AccountService).setPassword(user.id, password);
    secrets.push(user.password);
    if (password) secrets.push(password);
    return { ...user, email: `${user.login}@example.test` };
  }

  const outboxDir = () => join(t.config.dataDir, 'outbox');
  /** The set-password token of the newest email to `to`. */
  async function emailedToken(to: string): Promise<string> {
    await t.app.get(OutboxWorker).drain();
    const files = readdirSync(outboxDir()).sort();
    const messages = files.map((file) => readFileSync(join(outboxDir(), file), 'utf8')).filter((raw) => raw.includes(`To: ${to}`));
    expect(messages.length).toBeGreaterThan(0);
    const match = /set-password#token=([A-Za-z0-9_-]{43})/.exec(quotedPrintable(messages[messages.length - 1]));
    expect(match).not.toBeNull();
    secrets.push(match![1]);
    return match![1];
  }

  describe('account passwords', () => {
    it('stores an scrypt hash with its parameters, never the password', async () => {
      const user = await account('administrator', 'correct horse battery staple');
      const row = await users.findOneByOrFail({ id: user.id });
      const { N, r, p } = SCRYPT_PARAMETERS;
      expect(row.passwordHash).toMatch(new RegExp(`^scrypt\\$${N}\\$${r}\\$${p}\\$[A-Za-z0-9_-]{22}\\$[A-Za-z0-9_-]{43}$`));
      expect(row.passwordHash).not.toContain('correct horse');
    });

    it('signs in to the console with the account password or an application password', async () => {
      const user = await account('administrator', 'correct horse battery staple');
      const byAccount = await signIn(user.login, 'correct horse battery staple');
      expect(byAccount.status).toBe(201);
      expect(byAccount.body.must_set_password).toBe(false);
      expect(JSON.stringify(byAccount.body)).not.toContain('correct horse');
      const session = sessionOf(byAccount);
      await withSession(session, request(t.http).get(`${t.base}/settings`)).expect(200);
      const byApplication = await signIn(user.login, user.password);
      expect(byApplication.status).toBe(201);
    });

    it('keeps HTTP Basic to application passwords: the account password is refused there', async () => {
      const user = await account('administrator', 'correct horse battery staple');
      const basic = await request(t.http).get(`${t.base}/settings`).set('Authorization', basicAuth(user.login, 'correct horse battery staple'));
      expect(basic.status).toBe(401);
      expect(expectWpError(basic.body, 'rest_not_logged_in', 401).message).toBe('Incorrect login or password.');
      await request(t.http).get(`${t.base}/settings`).set('Authorization', user.auth).expect(200);
    });

    it('answers a wrong password and an unknown login alike', async () => {
      const user = await account('administrator', 'correct horse battery staple');
      const wrong = await signIn(user.login, 'not the right password');
      const unknown = await signIn('nobody-at-all', 'not the right password');
      const noAccountPassword = await signIn((await account('administrator', null)).login, 'not the right password');
      for (const res of [wrong, unknown, noAccountPassword]) {
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ code: 'rest_not_logged_in', message: 'Incorrect login or password.', data: { status: 401 } });
        expect(res.headers['set-cookie']).toBeUndefined();
      }
    });

    it('counts account-password failures in the failed-login limit Basic shares', async () => {
      const limited = await startTestApp({ RATE_LIMIT_FAILED_LOGIN: '2' });
      try {
        for (let i = 0; i < 2; i += 1) {
          expect((await request(limited.http).post(`${limited.base}/auth/session`).set(SAME_ORIGIN).send({ login: 'admin', password: 'wrong password here' })).status).toBe(401);
        }
        const blocked = await request(limited.http).post(`${limited.base}/auth/session`).set(SAME_ORIGIN).send({ login: 'admin', password: limited.admin.password });
        expectWpError(blocked.body, 'checkout_rate_limited', 429);
      } finally {
        await limited.close();
      }
    });

    it('makes a user without an account password set one after signing in with an application password', async () => {
      const user = await account('administrator', null);
      const first = await signIn(user.login, user.password);
      expect(first.status).toBe(201);
      expect(first.body.must_set_password).toBe(true);
      const session = sessionOf(first);
      const other = sessionOf(await signIn(user.login, user.password));

      const tooShort = await withSession(session, request(t.http).put(`${t.base}/auth/password`)).send({ new_password: 'short' });
      expect(expectWpError(tooShort.body, 'rest_invalid_param', 400).data.params).toEqual({ new_password: 'new_password must be 12 to 256 characters long' });
      const set = await withSession(session, request(t.http).put(`${t.base}/auth/password`)).send({ new_password: 'my first account password' });
      expect(set.status).toBe(200);
      secrets.push('my first account password');
      expect((await who(session)).body.must_set_password).toBe(false);
      // The other session ended; the account password signs in now.
      expect((await who(other)).status).toBe(204);
      expect((await signIn(user.login, 'my first account password')).status).toBe(201);
    });
  });

  describe("a user's own application passwords", () => {
    it.each(['viewer', 'editor', 'support'])('a %s lists and revokes their own, never another user\'s', async (role) => {
      const user = await account(role, 'my own long password');
      const other = await account('administrator', null);
      const identity = t.app.get(IdentityService);
      const { uuid: spare, password: sparePassword } = await identity.createApplicationPassword(user.id, 'Spreadsheet export');
      secrets.push(sparePassword);
      const [otherPassword] = await identity.listApplicationPasswords(other.id);
      const session = sessionOf(await signIn(user.login, 'my own long password'));

      const listed = await withSession(session, request(t.http).get(`${t.base}/auth/application-passwords`));
      expect(listed.status).toBe(200);
      expect(listed.headers['cache-control']).toBe('no-store');
      expect(listed.body.map((entry: { name: string }) => entry.name)).toEqual(['test', 'Spreadsheet export']);
      expect(JSON.stringify(listed.body)).not.toContain(sparePassword);
      expect(JSON.stringify(listed.body)).not.toContain(otherPassword.uuid);

      // Another user's password is unknown here (404), and stays.
      const foreign = await withSession(session, request(t.http).delete(`${t.base}/auth/application-passwords/${otherPassword.uuid}`));
      expectWpError(foreign.body, 'checkout_not_found', 404);
      expect(await identity.findApplicationPassword(other.id, otherPassword.uuid)).not.toBeNull();
      expect((await request(t.http).get(`${t.base}/administration/payments`).set('Authorization', other.auth)).status).not.toBe(401);

      const revoked = await withSession(session, request(t.http).delete(`${t.base}/auth/application-passwords/${spare}`));
      expect(revoked.status).toBe(200);
      expect(revoked.body).toMatchObject({ deleted: true, previous: { uuid: spare, name: 'Spreadsheet export' } });
      expect(await identity.findApplicationPassword(user.id, spare)).toBeNull();
      // It no longer signs anything in.
      expect((await signIn(user.login, sparePassword)).status).toBe(401);
      expect((await request(t.http).get(`${t.base}/administration/payment-forms`).set('Authorization', basicAuth(user.login, sparePassword))).status).toBe(401);
      expectWpError((await withSession(session, request(t.http).delete(`${t.base}/auth/application-passwords/${spare}`))).body, 'checkout_not_found', 404);
      expectWpError((await withSession(session, request(t.http).delete(`${t.base}/auth/application-passwords/not-a-uuid`))).body, 'rest_invalid_param', 400);
    });

    it('needs the console session and its nonce: HTTP Basic, no cookie or no nonce are refused', async () => {
      const user = await account('viewer', 'my own long password');
      const [mine] = await t.app.get(IdentityService).listApplicationPasswords(user.id);
      const session = sessionOf(await signIn(user.login, 'my own long password'));
      expect((await request(t.http).get(`${t.base}/auth/application-passwords`).set('Authorization', user.auth)).status).toBe(401);
      expect((await request(t.http).delete(`${t.base}/auth/application-passwords/${mine.uuid}`).set(SAME_ORIGIN).set('Cookie', session.cookie)).status).toBe(401);
      expect(await t.app.get(IdentityService).findApplicationPassword(user.id, mine.uuid)).not.toBeNull();
    });
  });

  describe('change password', () => {
    it('needs the current password, then ends the other sessions and keeps this one', async () => {
      const user = await account('editor', 'the old password of mine');
      const session = sessionOf(await signIn(user.login, 'the old password of mine'));
      const other = sessionOf(await signIn(user.login, 'the old password of mine'));
      const missing = await withSession(session, request(t.http).put(`${t.base}/auth/password`)).send({ new_password: 'the new password of mine' });
      expectWpError(missing.body, 'rest_missing_callback_param', 400);
      const wrong = await withSession(session, request(t.http).put(`${t.base}/auth/password`)).send({ current_password: 'not it at all', new_password: 'the new password of mine' });
      expect(expectWpError(wrong.body, 'rest_invalid_param', 400).data.params).toHaveProperty('current_password');
      expect((await signIn(user.login, 'the old password of mine')).status).toBe(201);

      const changed = await withSession(session, request(t.http).put(`${t.base}/auth/password`)).send({
        current_password: 'the old password of mine',
        new_password: 'the new password of mine',
      });
      expect(changed.status).toBe(200);
      secrets.push('the new password of mine');
      expect((await who(session)).status).toBe(200);
      expect((await request(t.http).get(`${t.base}/auth/session`).set(SAME_ORIGIN).set('Cookie', other.cookie)).status).toBe(204);
      expect((await signIn(user.login, 'the old password of mine')).status).toBe(401);
      expect((await signIn(user.login, 'the new password of mine')).status).toBe(201);
    });

    it('needs the session and its nonce', async () => {
      const res = await request(t.http).put(`${t.base}/auth/password`).set(SAME_ORIGIN).send({ new_password: 'the new password of mine' });
      expectWpError(res.body, 'rest_not_logged_in', 401);
    });
  });

  describe('console language (PUT /auth/preferences)', () => {
    it('stores the language on the account, answers it with the session from any browser, and null follows the browser again', async () => {
      const user = await account('viewer', 'my language password');
      const session = sessionOf(await signIn(user.login, 'my language password'));
      expect(session.body.user).toMatchObject({ login: user.login, locale: null });

      const set = await withSession(session, request(t.http).put(`${t.base}/auth/preferences`)).send({ locale: 'de' });
      expect(set.status).toBe(200);
      expect(set.body).toEqual({ locale: 'de' });
      expect((await who(session)).body.user.locale).toBe('de');
      // Another browser: a new session of the same account gets it too.
      const elsewhere = sessionOf(await signIn(user.login, 'my language password'));
      expect(elsewhere.body.user).toMatchObject({ locale: 'de' });
      expect((await users.findOneByOrFail({ id: user.id })).consoleLocale).toBe('de');

      const cleared = await withSession(session, request(t.http).put(`${t.base}/auth/preferences`)).send({ locale: null });
      expect(cleared.body).toEqual({ locale: null });
      expect((await who(elsewhere)).body.user.locale).toBeNull();
    });

    it('takes only a language of the console, and needs the session and its nonce', async () => {
      const user = await account('viewer', 'my language password 2');
      const session = sessionOf(await signIn(user.login, 'my language password 2'));
      for (const body of [{ locale: 'fr' }, { locale: 'de-DE' }, { locale: 7 }]) {
        const res = await withSession(session, request(t.http).put(`${t.base}/auth/preferences`)).send(body);
        expect(expectWpError(res.body, 'rest_invalid_param', 400).data.params).toHaveProperty('locale');
      }
      const missing = await withSession(session, request(t.http).put(`${t.base}/auth/preferences`)).send({});
      expectWpError(missing.body, 'rest_missing_callback_param', 400);
      expect((await who(session)).body.user.locale).toBeNull();
      const noNonce = await request(t.http).put(`${t.base}/auth/preferences`).set(SAME_ORIGIN).set('Cookie', session.cookie).send({ locale: 'de' });
      expect(noNonce.status).toBe(401);
      const basic = await request(t.http).put(`${t.base}/auth/preferences`).set('Authorization', user.auth).send({ locale: 'de' });
      expect(basic.status).toBe(401);
      expect((await users.findOneByOrFail({ id: user.id })).consoleLocale).toBeNull();
    });
  });

  describe('password reset by email', () => {
    it('answers the same for a known and an unknown login, and emails a 1-hour link through the outbox', async () => {
      const user = await account('editor', 'a password I forgot');
      const known = await request(t.http).post(`${t.base}/auth/password-reset`).set(SAME_ORIGIN).send({ login: user.login });
      const unknown = await request(t.http).post(`${t.base}/auth/password-reset`).set(SAME_ORIGIN).send({ login: 'no-such-login' });
      const byEmail = await request(t.http).post(`${t.base}/auth/password-reset`).set(SAME_ORIGIN).send({ login: 'nobody@example.test' });
      expect(known.status).toBe(202);
      expect(unknown.status).toBe(202);
      expect(byEmail.status).toBe(202);
      expect(unknown.body).toEqual(known.body);
      expect(byEmail.body).toEqual(known.body);

      const token = await emailedToken(user.email);
      // Stored as a keyed hash only, and sealed in the outbox item.
      const rows = await tokens.find({ where: { userId: user.id, purpose: 'reset' } });
      expect(rows).toHaveLength(1);
      expect(rows[0].tokenHash).not.toContain(token);
      expect(rows[0].expiresAt.getTime() - rows[0].createdAt.getTime()).toBe(3600 * 1000);
      const outboxRows: Array<{ payload: string }> = await t.dataSource.query(`SELECT payload FROM ${t.config.tablePrefix}checkout_outbox WHERE topic = 'account_emails'`);
      for (const row of outboxRows) expect(String(row.payload)).not.toContain(token);

      const check = await request(t.http).post(`${t.base}/auth/set-password/check`).set(SAME_ORIGIN).send({ token });
      expect(check.status).toBe(200);
      expect(check.body).toEqual({ purpose: 'reset', login: user.login, display_name: user.login, expires_at: rows[0].expiresAt.toISOString() });

      const session = sessionOf(await signIn(user.login, 'a password I forgot'));
      const set = await request(t.http).post(`${t.base}/auth/set-password`).set(SAME_ORIGIN).send({ token, password: 'a password I remember' });
      expect(set.status).toBe(200);
      expect(set.body).toEqual({ success: true, message: expect.any(String), login: user.login });
      secrets.push('a password I remember');
      // Single use; every session of the account ended; the new password signs in.
      const again = await request(t.http).post(`${t.base}/auth/set-password`).set(SAME_ORIGIN).send({ token, password: 'another password again' });
      expectWpError(again.body, 'checkout_token_invalid', 400);
      expect((await request(t.http).get(`${t.base}/auth/session`).set(SAME_ORIGIN).set('Cookie', session.cookie)).status).toBe(204);
      expect((await signIn(user.login, 'a password I forgot')).status).toBe(401);
      expect((await signIn(user.login, 'a password I remember')).status).toBe(201);
    });

    it('sends at most 3 links per account and hour, answering alike', async () => {
      const user = await account('editor', 'some password of mine');
      for (let i = 0; i < 5; i += 1) {
        expect((await request(t.http).post(`${t.base}/auth/password-reset`).set(SAME_ORIGIN).send({ login: user.email })).status).toBe(202);
      }
      expect(await tokens.count({ where: { userId: user.id, purpose: 'reset' } })).toBe(3);
    });

    it('refuses an expired link and a malformed one', async () => {
      const user = await account('editor', 'some password of mine');
      await request(t.http).post(`${t.base}/auth/password-reset`).set(SAME_ORIGIN).send({ login: user.login }).expect(202);
      const token = await emailedToken(user.email);
      await tokens.update({ userId: user.id, purpose: 'reset' }, { expiresAt: new Date(Date.now() - 1000) });
      const expired = await request(t.http).post(`${t.base}/auth/set-password`).set(SAME_ORIGIN).send({ token, password: 'a brand new password' });
      expectWpError(expired.body, 'checkout_token_invalid', 400);
      const malformed = await request(t.http).post(`${t.base}/auth/set-password/check`).set(SAME_ORIGIN).send({ token: 'nope' });
      expectWpError(malformed.body, 'rest_invalid_param', 400);
    });

    it('limits the requests per client', async () => {
      const limited = await startTestApp({ RATE_LIMIT_ACCOUNT_RECOVERY: '2' });
      try {
        for (let i = 0; i < 2; i += 1) await request(limited.http).post(`${limited.base}/auth/password-reset`).set(SAME_ORIGIN).send({ login: 'x' }).expect(202);
        const res = await request(limited.http).post(`${limited.base}/auth/password-reset`).set(SAME_ORIGIN).send({ login: 'x' });
        expectWpError(res.body, 'checkout_rate_limited', 429);
      } finally {
        await limited.close();
      }
    });

    it('refuses a reset request another site started', async () => {
      const res = await request(t.http).post(`${t.base}/auth/password-reset`).set({ Origin: 'https://attacker.example', 'Sec-Fetch-Site': 'cross-site' }).send({ login: 'admin' });
      expectWpError(res.body, 'rest_cross_site_request', 403);
    });
  });

  describe('two-factor sign-in (TOTP)', () => {
    const codeAt = (secret: string, offsetSteps: number) => hotp(base32Decode(secret), totpStep(Date.now()) + offsetSteps);

    it('makes new recovery codes with the password or a current code (not a recovery code); the old ones stop working', async () => {
      const user = await account('support', 'renewing codes password');
      const session = sessionOf(await signIn(user.login, 'renewing codes password'));
      const renew = (body: object) => withSession(session, request(t.http).post(`${t.base}/auth/two-factor/recovery-codes`)).send(body);
      // Two-factor off: nothing to renew.
      expectWpError((await renew({ password: 'renewing codes password' })).body, 'checkout_invalid_state', 409);

      const enrol = await withSession(session, request(t.http).post(`${t.base}/auth/two-factor/enrolment`)).send({ password: 'renewing codes password' });
      const secret = enrol.body.secret as string;
      secrets.push(secret);
      const step = totpStep(Date.now());
      const confirmed = await withSession(session, request(t.http).post(`${t.base}/auth/two-factor/enrolment/confirm`)).send({ code: hotp(base32Decode(secret), step) });
      const old = confirmed.body.recovery_codes as string[];
      secrets.push(...old);

      // Exactly one of password and code; a wrong one or a recovery code is refused and nothing changes.
      expectWpError((await renew({})).body, 'rest_invalid_param', 400);
      expectWpError((await renew({ password: 'renewing codes password', code: '123456' })).body, 'rest_invalid_param', 400);
      expectWpError((await renew({ password: 'not my password' })).body, 'rest_invalid_param', 400);
      expectWpError((await renew({ code: old[1] })).body, 'rest_invalid_param', 400);
      expect((await withSession(session, request(t.http).get(`${t.base}/auth/two-factor`))).body.recovery_codes_left).toBe(10);

      const byPassword = await renew({ password: 'renewing codes password' });
      expect(byPassword.status).toBe(201);
      expect(byPassword.headers['cache-control']).toBe('no-store');
      const fresh = byPassword.body.recovery_codes as string[];
      secrets.push(...fresh);
      expect(fresh).toHaveLength(10);
      expect(fresh.some((code) => old.includes(code))).toBe(false);
      const byCode = await renew({ code: hotp(base32Decode(secret), step + 1) });
      expect(byCode.status).toBe(201);
      const newest = byCode.body.recovery_codes as string[];
      secrets.push(...newest);

      // Only the newest codes sign in.
      for (const stale of [old[0], fresh[0]]) {
        const challenge = expectWpError((await signIn(user.login, 'renewing codes password')).body, 'checkout_two_factor_required', 401).data.challenge as string;
        expectWpError((await request(t.http).post(`${t.base}/auth/session/two-factor`).set(SAME_ORIGIN).send({ challenge, code: stale })).body, 'checkout_two_factor_invalid', 401);
      }
      const challenge = expectWpError((await signIn(user.login, 'renewing codes password')).body, 'checkout_two_factor_required', 401).data.challenge as string;
      expect((await request(t.http).post(`${t.base}/auth/session/two-factor`).set(SAME_ORIGIN).send({ challenge, code: newest[0] })).status).toBe(201);
    });

    it('enrols, then asks for a code at sign-in; a recovery code works once; turning it off needs the password and a code', async () => {
      const user = await account('administrator', 'my two factor password');
      const session = sessionOf(await signIn(user.login, 'my two factor password'));
      const wrongPassword = await withSession(session, request(t.http).post(`${t.base}/auth/two-factor/enrolment`)).send({ password: 'not my password' });
      expectWpError(wrongPassword.body, 'rest_invalid_param', 400);
      const enrol = await withSession(session, request(t.http).post(`${t.base}/auth/two-factor/enrolment`)).send({ password: 'my two factor password' });
      expect(enrol.status).toBe(201);
      const secret = enrol.body.secret as string;
      secrets.push(secret);
      expect(enrol.body.otpauth_uri).toBe(`otpauth://totp/Checkout:${user.login}?secret=${secret}&issuer=Checkout&algorithm=SHA1&digits=6&period=30`);
      // Stored sealed, never in clear.
      const stored = await users.findOneByOrFail({ id: user.id });
      expect(stored.twoFactorPendingSecret).toMatch(/^v1:/);
      expect(stored.twoFactorPendingSecret).not.toContain(secret);

      const badCode = await withSession(session, request(t.http).post(`${t.base}/auth/two-factor/enrolment/confirm`)).send({ code: '000000' === codeAt(secret, 0) ? '111111' : '000000' });
      expectWpError(badCode.body, 'rest_invalid_param', 400);
      // The time step the confirmation used, fixed: a 30 s boundary crossed later must not turn "the same code again" into the next step's code.
      const confirmStep = totpStep(Date.now());
      const confirmed = await withSession(session, request(t.http).post(`${t.base}/auth/two-factor/enrolment/confirm`)).send({ code: hotp(base32Decode(secret), confirmStep) });
      expect(confirmed.status).toBe(200);
      const recovery = confirmed.body.recovery_codes as string[];
      expect(recovery).toHaveLength(10);
      secrets.push(...recovery);
      expect((await withSession(session, request(t.http).get(`${t.base}/auth/two-factor`))).body).toEqual({ enabled: true, enabled_at: expect.any(String), recovery_codes_left: 10 });

      // The password alone no longer signs in: a challenge comes back, no cookie.
      const first = await signIn(user.login, 'my two factor password');
      const required = expectWpError(first.body, 'checkout_two_factor_required', 401);
      expect(first.headers['set-cookie']).toBeUndefined();
      const challenge = required.data.challenge as string;
      expect(challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
      secrets.push(challenge);
      // The code used to confirm cannot be used again; a wrong one counts.
      const reused = await request(t.http).post(`${t.base}/auth/session/two-factor`).set(SAME_ORIGIN).send({ challenge, code: hotp(base32Decode(secret), confirmStep) });
      expectWpError(reused.body, 'checkout_two_factor_invalid', 401);
      const next = await request(t.http).post(`${t.base}/auth/session/two-factor`).set(SAME_ORIGIN).send({ challenge, code: hotp(base32Decode(secret), confirmStep + 1) });
      expect(next.status).toBe(201);
      expect(next.body.user.login).toBe(user.login);
      // The challenge is used up.
      const replay = await request(t.http).post(`${t.base}/auth/session/two-factor`).set(SAME_ORIGIN).send({ challenge, code: recovery[0] });
      expectWpError(replay.body, 'checkout_two_factor_expired', 401);

      // A recovery code, once.
      const second = expectWpError((await signIn(user.login, 'my two factor password')).body, 'checkout_two_factor_required', 401).data.challenge as string;
      expect((await request(t.http).post(`${t.base}/auth/session/two-factor`).set(SAME_ORIGIN).send({ challenge: second, code: recovery[0].toUpperCase() })).status).toBe(201);
      const third = expectWpError((await signIn(user.login, 'my two factor password')).body, 'checkout_two_factor_required', 401).data.challenge as string;
      expectWpError((await request(t.http).post(`${t.base}/auth/session/two-factor`).set(SAME_ORIGIN).send({ challenge: third, code: recovery[0] })).body, 'checkout_two_factor_invalid', 401);
      // An application password asks for the code too at the console; HTTP Basic stays as it is.
      expectWpError((await signIn(user.login, user.password)).body, 'checkout_two_factor_required', 401);
      await request(t.http).get(`${t.base}/settings`).set('Authorization', user.auth).expect(200);

      // Off: needs the password and a code.
      const noCode = await withSession(session, request(t.http).post(`${t.base}/auth/two-factor/disable`)).send({ password: 'my two factor password', code: '12345' });
      expectWpError(noCode.body, 'rest_invalid_param', 400);
      const off = await withSession(session, request(t.http).post(`${t.base}/auth/two-factor/disable`)).send({ password: 'my two factor password', code: recovery[1] });
      expect(off.status).toBe(200);
      expect((await signIn(user.login, 'my two factor password')).status).toBe(201);
    });

    it('ends a challenge after 5 wrong codes', async () => {
      const user = await account('administrator', 'my two factor password');
      const session = sessionOf(await signIn(user.login, 'my two factor password'));
      const secret = (await withSession(session, request(t.http).post(`${t.base}/auth/two-factor/enrolment`)).send({ password: 'my two factor password' })).body.secret as string;
      secrets.push(secret);
      await withSession(session, request(t.http).post(`${t.base}/auth/two-factor/enrolment/confirm`)).send({ code: codeAt(secret, 0) }).expect(200);
      const challenge = expectWpError((await signIn(user.login, 'my two factor password')).body, 'checkout_two_factor_required', 401).data.challenge as string;
      const wrong = codeAt(secret, 1) === '000000' ? '111111' : '000000';
      for (let i = 0; i < 5; i += 1) {
        expectWpError((await request(t.http).post(`${t.base}/auth/session/two-factor`).set(SAME_ORIGIN).send({ challenge, code: wrong })).body, 'checkout_two_factor_invalid', 401);
      }
      const late = await request(t.http).post(`${t.base}/auth/session/two-factor`).set(SAME_ORIGIN).send({ challenge, code: codeAt(secret, 1) });
      expectWpError(late.body, 'checkout_two_factor_expired', 401);
    });
  });
});

describe('first boot without CHECKOUT_ADMIN_PASSWORD: the setup link', () => {
  it('prints a single-use link that sets the admin account password, and stops working once an administrator has one', async () => {
    const printed: string[] = [];
    const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      printed.push(String(chunk));
      return true;
    });
    let t!: TestApp;
    try {
      t = await startTestApp({ CHECKOUT_ADMIN_PASSWORD: undefined });
      // A second link (as a second boot in that state prints), used after the first.
      await t.app.get(AccountService).printSetupLinkIfNeeded();
    } finally {
      write.mockRestore();
    }
    try {
      const links = printed.join('').match(/http:\/\/checkout\.test\/admin\/set-password#token=([A-Za-z0-9_-]{43})/g) ?? [];
      expect(links).toHaveLength(2);
      const [first, second] = links.map((link) => link.split('#token=')[1]);
      const check = await request(t.http).post(`${t.base}/auth/set-password/check`).set(SAME_ORIGIN).send({ token: first });
      expect(check.body).toMatchObject({ purpose: 'setup', login: 'admin' });

      const set = await request(t.http)
        .post(`${t.base}/auth/set-password`)
        .set(SAME_ORIGIN)
        .send({ token: first, password: 'the admin account password', display_name: 'Ada Lovelace', email: 'ada@example.test' });
      expect(set.status).toBe(200);
      const admin = await t.app.get(IdentityService).findUserByLogin('admin');
      expect({ name: admin.displayName, email: admin.email }).toEqual({ name: 'Ada Lovelace', email: 'ada@example.test' });
      expect((await request(t.http).post(`${t.base}/auth/session`).set(SAME_ORIGIN).send({ login: 'admin', password: 'the admin account password' })).status).toBe(201);
      for (const token of [first, second]) {
        const res = await request(t.http).post(`${t.base}/auth/set-password`).set(SAME_ORIGIN).send({ token, password: 'someone else taking over' });
        expectWpError(res.body, 'checkout_token_invalid', 400);
      }
      // No link is printed any more.
      printed.length = 0;
      const again = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
        printed.push(String(chunk));
        return true;
      });
      await t.app.get(AccountService).printSetupLinkIfNeeded();
      again.mockRestore();
      expect(printed.join('')).not.toContain('set-password');
    } finally {
      await t.close();
    }
  });

  it('with CHECKOUT_ADMIN_PASSWORD, the admin signs in with it as the account password too', async () => {
    const t = await startTestApp();
    try {
      const user = await t.app.get(IdentityService).findUserByLogin('admin');
      const row = await t.app.get<Repository<UserEntity>>(getRepositoryToken(UserEntity)).findOneByOrFail({ id: user.id });
      expect(row.passwordHash).toMatch(/^scrypt\$/);
      expect(await t.app.get(AccountService).checkAccountPassword('admin', t.admin.password)).not.toBeNull();
    } finally {
      await t.close();
    }
  });
});
