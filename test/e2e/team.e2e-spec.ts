import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { Clock } from '../../src/common/clock/index.js';
import { LastAdministratorError } from '../../src/modules/identity/identity.errors.js';
import { TeamService } from '../../src/modules/identity/team.service.js';
import { OutboxWorker } from '../../src/modules/outbox/index.js';
import { expectWpError } from '../support/http.js';
import { basicAuth, startTestApp, type TestApp } from '../support/test-app.js';

/** The team API (issue 30): users with roles, invitations, application passwords; on SQLite and MariaDB. */
describe('the team: /administration/users', () => {
  let t: TestApp;
  const users = () => `${t.base}/administration/users`;
  const as = (auth: string) => ({
    get: (path: string) => request(t.http).get(`${t.base}${path}`).set('Authorization', auth),
    post: (path: string, body: object) => request(t.http).post(`${t.base}${path}`).set('Authorization', auth).send(body),
    patch: (path: string, body: object) => request(t.http).patch(`${t.base}${path}`).set('Authorization', auth).send(body),
    delete: (path: string) => request(t.http).delete(`${t.base}${path}`).set('Authorization', auth),
  });
  const admin = () => as(t.admin.auth);
  const table = (name: string) => `${t.config.tablePrefix}${name}`;
  const count = async (sql: string, params: unknown[] = []) => Number((await t.dataSource.query(sql, params))[0].n);
  const outboxDir = () => join(t.config.dataDir, 'outbox');
  const emails = (): string[] => {
    try {
      return readdirSync(outboxDir()).sort().map((file) => readFileSync(join(outboxDir(), file), 'utf8'));
    } catch {
      return [];
    }
  };
  /** The emails' text with quoted-printable soft breaks and `=3D` undone. */
  const decoded = (text: string) => text.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  /** The set-password token of the newest invitation email to `address`. */
  const invitationToken = (address: string): string => {
    const message = emails().filter((text) => text.includes(`To: ${address}`)).pop();
    const match = /set-password#token=([A-Za-z0-9_-]{43})/.exec(decoded(message ?? ''));
    if (!match) throw new Error(`no invitation email to ${address}`);
    return match[1];
  };
  /** Signs `login` in to the console with an application password; answers the cookie and nonce. */
  const signIn = async (login: string, password: string) => {
    const res = await request(t.http).post(`${t.base}/auth/session`).send({ login, password });
    expect(res.status).toBe(201);
    return { cookie: String(res.headers['set-cookie'][0]).split(';')[0], nonce: res.body.nonce as string };
  };
  const SAME_ORIGIN = { Origin: 'http://checkout.test', 'Sec-Fetch-Site': 'same-origin' };
  const checkLink = (token: string) => request(t.http).post(`${t.base}/auth/set-password/check`).set(SAME_ORIGIN).send({ token });
  const setPassword = (token: string, password: string) => request(t.http).post(`${t.base}/auth/set-password`).set(SAME_ORIGIN).send({ token, password });
  const sessionAlive = async (session: { cookie: string; nonce: string }) =>
    (await request(t.http).get(`${t.base}/administration/payments`).set('Cookie', session.cookie).set('X-WP-Nonce', session.nonce)).status === 200;

  /** 400 naming `field`: `rest_missing_callback_param` when every problem is a missing (or null, or empty) field, `rest_invalid_param` otherwise. */
  const expectRefused = (res: { status: number; body: unknown }, field: string) => {
    expect({ field, status: res.status }).toEqual({ field, status: 400 });
    const code = (res.body as { code: string }).code;
    expect(['rest_invalid_param', 'rest_missing_callback_param']).toContain(code);
    expect(expectWpError(res.body, code, 400).data.params).toHaveProperty(field);
  };

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  describe('POST /administration/users', () => {
    it('creates the user with the role and answers it without any password, then emails an invitation through the outbox', async () => {
      const res = await admin().post('/administration/users', { login: 'sam', email: 'sam@shop.example', display_name: 'Sam Rivera', role: 'support' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        login: 'sam',
        email: 'sam@shop.example',
        display_name: 'Sam Rivera',
        role: 'support',
        created_at: expect.any(String),
        last_sign_in_at: null,
        invitation: { status: 'pending', expires_at: expect.any(String), sent_at: null },
      });
      expect(JSON.stringify(res.body)).not.toMatch(/password|hash/);
      const days = (Date.parse(res.body.invitation.expires_at) - Date.parse(res.body.created_at)) / 86_400_000;
      expect(days).toBeCloseTo(7, 3);

      await t.app.get(OutboxWorker).drain();
      const token = invitationToken('sam@shop.example');
      expect(decoded(emails().join('\n'))).toContain(`${t.config.publicBaseUrl}/admin/set-password#token=${token}`);
      // One mechanism: an `invite` account token, stored only as a keyed hash; the outbox never holds it readable.
      const stored: Array<{ token_hash: string }> = await t.dataSource.query(`SELECT token_hash FROM ${table('checkout_account_tokens')} WHERE user_id = ? AND purpose = 'invite'`, [res.body.id]);
      expect(stored).toHaveLength(1);
      expect(stored[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(stored[0].token_hash).not.toContain(token);
      expect(JSON.stringify(await t.dataSource.query(`SELECT payload FROM ${table('checkout_outbox')}`))).not.toContain(token);
      const listed = (await admin().get('/administration/users')).body.find((user: { id: number }) => user.id === res.body.id);
      expect(listed.invitation).toEqual({ status: 'pending', expires_at: res.body.invitation.expires_at, sent_at: expect.any(String) });
    });

    it("the invitation email's link sets the password through /auth/set-password, once; the user then signs in and the list shows no invitation", async () => {
      const created = await admin().post('/administration/users', { login: 'ines', email: 'ines@shop.example', role: 'viewer' });
      expect(created.status).toBe(201);
      expect(created.body.display_name).toBe('ines');
      await t.app.get(OutboxWorker).drain();
      const token = invitationToken('ines@shop.example');
      const check = await checkLink(token);
      expect(check.status).toBe(200);
      expect(check.body).toEqual({ purpose: 'invite', login: 'ines', display_name: 'ines', expires_at: created.body.invitation.expires_at });

      const set = await setPassword(token, 'ines chooses a long password');
      expect(set.status).toBe(200);
      expect(set.body).toEqual({ success: true, message: expect.any(String), login: 'ines' });
      expectWpError((await setPassword(token, 'someone else tries it')).body, 'checkout_token_invalid', 400);
      const session = await request(t.http).post(`${t.base}/auth/session`).set(SAME_ORIGIN).send({ login: 'ines', password: 'ines chooses a long password' });
      expect(session.status).toBe(201);
      expect((await admin().get(`/administration/users/${created.body.id}`)).body.invitation).toBeNull();
    });

    it('an invitation ends after 7 days: the list says expired and the link no longer works', async () => {
      const created = await admin().post('/administration/users', { login: 'lena', email: 'lena@shop.example', role: 'viewer' });
      await t.app.get(OutboxWorker).drain();
      const token = invitationToken('lena@shop.example');
      const clock = jest.spyOn(t.app.get(Clock), 'now').mockImplementation(() => new Date(Date.now() + 7 * 86_400_000 + 1000));
      try {
        expect((await admin().get(`/administration/users/${created.body.id}`)).body.invitation).toMatchObject({ status: 'expired', sent_at: expect.any(String) });
        expectWpError((await setPassword(token, 'too late for this link')).body, 'checkout_token_invalid', 400);
      } finally {
        clock.mockRestore();
      }
      expect((await checkLink(token)).status).toBe(200);
    });

    it('sends a new invitation on request; the earlier link stops working', async () => {
      const created = await admin().post('/administration/users', { login: 'omar', email: 'omar@shop.example', role: 'editor' });
      await t.app.get(OutboxWorker).drain();
      const first = invitationToken('omar@shop.example');
      const again = await admin().post(`/administration/users/${created.body.id}/invitation`, {});
      expect(again.status).toBe(201);
      expect(again.body.invitation).toMatchObject({ status: 'pending', sent_at: null });
      await t.app.get(OutboxWorker).drain();
      const second = invitationToken('omar@shop.example');
      expect(second).not.toBe(first);
      expectWpError((await checkLink(first)).body, 'checkout_token_invalid', 400);
      expectWpError((await setPassword(first, 'the old link must not work')).body, 'checkout_token_invalid', 400);
      expect((await checkLink(second)).body).toMatchObject({ purpose: 'invite', login: 'omar' });
      expect(await count(`SELECT COUNT(*) AS n FROM ${table('checkout_account_tokens')} WHERE user_id = ? AND purpose = 'invite' AND used_at IS NULL`, [created.body.id])).toBe(1);
    });

    it('refuses bad input with 400 naming the field, and writes nothing', async () => {
      const before = await count(`SELECT COUNT(*) AS n FROM ${table('users')}`);
      const cases: Array<[object, string]> = [
        [{ email: 'a@shop.example', role: 'viewer' }, 'login'],
        [{ login: 'has space', email: 'a@shop.example', role: 'viewer' }, 'login'],
        [{ login: 'a'.repeat(61), email: 'a@shop.example', role: 'viewer' }, 'login'],
        [{ login: 'ann', email: 'not-an-email', role: 'viewer' }, 'email'],
        [{ login: 'ann', email: 'a@shop.example', role: 'author' }, 'role'],
        [{ login: 'ann', email: 'a@shop.example', role: 'owner' }, 'role'],
        [{ login: 'ann', email: 'a@shop.example', role: 'viewer', display_name: 'Ann\nBcc: x@evil.example' }, 'display_name'],
        [{ login: 'ann', email: 'a@shop.example', role: 'viewer', display_name: null }, 'display_name'],
        // Passwords are the accounts' part: the invitation sets one.
        [{ login: 'ann', email: 'a@shop.example', role: 'viewer', password: 'correct horse battery staple' }, 'password'],
      ];
      for (const [body, field] of cases) {
        const res = await admin().post('/administration/users', body);
        expectRefused(res, field);
      }
      expect(await count(`SELECT COUNT(*) AS n FROM ${table('users')}`)).toBe(before);
    });

    it('refuses a login or an email another user has (409 checkout_user_exists)', async () => {
      const login = await admin().post('/administration/users', { login: 'admin', email: 'new@shop.example', role: 'viewer' });
      expectWpError(login.body, 'checkout_user_exists', 409);
      const email = await admin().post('/administration/users', { login: 'sam2', email: 'sam@shop.example', role: 'viewer' });
      expectWpError(email.body, 'checkout_user_exists', 409);
    });

    it('is for administrators only', async () => {
      const support = await t.createUser('support');
      const res = await as(support.auth).post('/administration/users', { login: 'eve', email: 'eve@shop.example', role: 'administrator' });
      expectWpError(res.body, 'rest_forbidden', 403);
      expect((await request(t.http).get(users())).status).toBe(401);
      expect(await count(`SELECT COUNT(*) AS n FROM ${table('users')} WHERE user_login = ?`, ['eve'])).toBe(0);
    });
  });

  describe('PATCH and DELETE /administration/users/{id}', () => {
    it('changes a role: the user’s sessions end and application passwords stop working at once', async () => {
      const user = await t.createUser('support');
      const session = await signIn(user.login, user.password);
      expect(await sessionAlive(session)).toBe(true);
      const res = await admin().patch(`/administration/users/${user.id}`, { role: 'viewer' });
      expect(res.status).toBe(200);
      expect(res.body.role).toBe('viewer');
      expect(await sessionAlive(session)).toBe(false);
      expect((await as(user.auth).get('/administration/payments')).status).toBe(401);
      expect(await count(`SELECT COUNT(*) AS n FROM ${table('application_passwords')} WHERE user_id = ?`, [user.id])).toBe(0);
    });

    it('changes name and email without touching access', async () => {
      const user = await t.createUser('viewer');
      const res = await admin().patch(`/administration/users/${user.id}`, { display_name: 'Vi', email: 'vi@shop.example', role: 'viewer' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(expect.objectContaining({ display_name: 'Vi', email: 'vi@shop.example', role: 'viewer' }));
      expect((await as(user.auth).get('/administration/payments')).status).toBe(200);
      expectWpError((await admin().patch(`/administration/users/${user.id}`, { email: 'sam@shop.example' })).body, 'checkout_user_exists', 409);
      expectWpError((await admin().patch(`/administration/users/${user.id}`, { role: 'subscriber' })).body, 'rest_invalid_param', 400);
      expectWpError((await admin().patch('/administration/users/2147483647', { display_name: 'x' })).body, 'checkout_not_found', 404);
    });

    it('deletes a user: sessions, application passwords and account tokens (the invitation) end with it', async () => {
      const user = await t.createUser('editor');
      const session = await signIn(user.login, user.password);
      expect((await admin().post(`/administration/users/${user.id}/invitation`, {})).status).toBe(201);
      expect(await count(`SELECT COUNT(*) AS n FROM ${table('checkout_account_tokens')} WHERE user_id = ?`, [user.id])).toBe(1);
      const res = await admin().delete(`/administration/users/${user.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ deleted: true, previous: expect.objectContaining({ id: user.id, login: user.login, role: 'editor' }) });
      expect((await as(user.auth).get('/administration/payment-forms')).status).toBe(401);
      expect(await sessionAlive(session)).toBe(false);
      expect(await count(`SELECT COUNT(*) AS n FROM ${table('checkout_console_sessions')} WHERE user_id = ?`, [user.id])).toBe(0);
      expect(await count(`SELECT COUNT(*) AS n FROM ${table('checkout_account_tokens')} WHERE user_id = ?`, [user.id])).toBe(0);
      expectWpError((await admin().get(`/administration/users/${user.id}`)).body, 'checkout_not_found', 404);
      expectWpError((await admin().delete(`/administration/users/${user.id}`)).body, 'checkout_not_found', 404);
    });

    it('never demotes or deletes the last administrator (409), and does once there is another', async () => {
      const demote = await admin().patch(`/administration/users/${t.admin.id}`, { role: 'editor' });
      expectWpError(demote.body, 'checkout_last_administrator', 409);
      expectWpError((await admin().delete(`/administration/users/${t.admin.id}`)).body, 'checkout_last_administrator', 409);
      expect((await admin().get(`/administration/users/${t.admin.id}`)).body.role).toBe('administrator');
      // Same role again is no change.
      expect((await admin().patch(`/administration/users/${t.admin.id}`, { role: 'administrator' })).status).toBe(200);

      const second = await t.createUser('administrator');
      const res = await as(second.auth).patch(`/administration/users/${second.id}`, { role: 'support' });
      expect(res.status).toBe(200);
      expectWpError((await admin().delete(`/administration/users/${t.admin.id}`)).body, 'checkout_last_administrator', 409);
    });

  });

  describe('application passwords', () => {
    it('creates one (shown once), lists it without secrets, and revokes it: the password and its sessions stop at once', async () => {
      const user = await t.createUser('viewer');
      const created = await admin().post(`/administration/users/${user.id}/application-passwords`, { name: 'Accounting export' });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: 'Accounting export',
        created_at: expect.any(String),
        last_used_at: null,
        last_ip: null,
        password: expect.stringMatching(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/),
      });
      const auth = basicAuth(user.login, created.body.password);
      expect((await as(auth).get('/administration/payments')).status).toBe(200);
      const session = await signIn(user.login, created.body.password);

      const listed = await admin().get(`/administration/users/${user.id}/application-passwords`);
      expect(listed.status).toBe(200);
      expect(listed.body.map((row: { name: string }) => row.name)).toEqual(['test', 'Accounting export']);
      expect(JSON.stringify(listed.body)).not.toContain(created.body.password);
      expect(JSON.stringify(listed.body)).not.toMatch(/hash/);

      const revoked = await admin().delete(`/administration/users/${user.id}/application-passwords/${created.body.uuid}`);
      expect(revoked.status).toBe(200);
      expect(revoked.body).toEqual({ deleted: true, previous: expect.objectContaining({ uuid: created.body.uuid, name: 'Accounting export' }) });
      expect((await as(auth).get('/administration/payments')).status).toBe(401);
      expect(await sessionAlive(session)).toBe(false);
      // The user's other password still works.
      expect((await as(user.auth).get('/administration/payments')).status).toBe(200);

      expectWpError((await admin().delete(`/administration/users/${user.id}/application-passwords/${created.body.uuid}`)).body, 'checkout_not_found', 404);
      expectWpError((await admin().delete(`/administration/users/${user.id}/application-passwords/not-a-uuid`)).body, 'rest_invalid_param', 400);
      expectRefused(await admin().post(`/administration/users/${user.id}/application-passwords`, { name: '' }), 'name');
      expectWpError((await admin().get('/administration/users/2147483647/application-passwords')).body, 'checkout_not_found', 404);
    });

    it('revokes a password only through its own user', async () => {
      const owner = await t.createUser('viewer');
      const other = await t.createUser('viewer');
      const [password] = (await admin().get(`/administration/users/${owner.id}/application-passwords`)).body as Array<{ uuid: string }>;
      expectWpError((await admin().delete(`/administration/users/${other.id}/application-passwords/${password.uuid}`)).body, 'checkout_not_found', 404);
      expect((await as(owner.auth).get('/administration/payments')).status).toBe(200);
    });
  });

  it('lists the roles with their capabilities as stored', async () => {
    const res = await admin().get('/administration/roles');
    expect(res.status).toBe(200);
    expect(res.body.slice(0, 4).map((role: { name: string }) => role.name)).toEqual(['administrator', 'editor', 'support', 'viewer']);
    const support = res.body.find((role: { name: string }) => role.name === 'support');
    expect(support).toEqual({ name: 'support', display_name: 'Support', assignable: true, capabilities: expect.arrayContaining(['checkout_settings', 'refund_checkout_payments']) });
    expect(res.body.find((role: { name: string }) => role.name === 'subscriber').assignable).toBe(false);
  });

  it('records the last console sign-in', async () => {
    const user = await t.createUser('viewer');
    expect((await admin().get(`/administration/users/${user.id}`)).body.last_sign_in_at).toBeNull();
    await signIn(user.login, user.password);
    expect((await admin().get(`/administration/users/${user.id}`)).body.last_sign_in_at).toEqual(expect.any(String));
  });

  // Last: it takes the administrator role from t.admin.
  it('lets only one of two administrators demoting each other at once succeed', async () => {
    const a = await t.createUser('administrator');
    const b = await t.createUser('administrator');
    expect((await as(a.auth).patch(`/administration/users/${t.admin.id}`, { role: 'viewer' })).status).toBe(200);
    const team = t.app.get(TeamService);
    const outcomes = await Promise.allSettled([team.update(a.id, { role: 'viewer' }), team.update(b.id, { role: 'viewer' })]);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    const refused = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    expect(refused?.reason).toBeInstanceOf(LastAdministratorError);
    expect(await count(`SELECT COUNT(*) AS n FROM ${table('users')} WHERE role = ?`, ['administrator'])).toBe(1);
  });
});
