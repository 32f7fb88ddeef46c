import { getRepositoryToken } from '@nestjs/typeorm';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { Repository } from 'typeorm';
import { createCheckoutClient } from '../../clients/typescript/index.js';
import { Clock } from '../../src/common/clock/index.js';
import { ConsoleSessionEntity } from '../../src/modules/identity/console-session.entity.js';
import { MAX_SESSIONS_PER_PASSWORD } from '../../src/modules/identity/console-session.service.js';
import { IdentityService } from '../../src/modules/identity/index.js';
import { expectWpError } from '../support/http.js';
import { createPaymentForm } from '../support/payment-fixtures.js';
import { redisNamespace } from '../support/redis.js';
import { basicAuth, startTestApp, type TestApp, type TestUser } from '../support/test-app.js';

const COOKIE = 'checkout_console_session';
/** The cookie's name behind HTTPS. */
const HOST_COOKIE = '__Host-checkout_console_session';
const SAME_ORIGIN = { Origin: 'http://checkout.test', 'Sec-Fetch-Site': 'same-origin' };
const ADMIN_UI = 'https://admin.example.org';

interface Session {
  cookie: string;
  nonce: string;
  token: string;
  setCookie: string;
  body: Record<string, unknown>;
}

function sessionsOf(t: TestApp): Repository<ConsoleSessionEntity> {
  return t.app.get<Repository<ConsoleSessionEntity>>(getRepositoryToken(ConsoleSessionEntity));
}

/** The console's sign-in, as a same-origin fetch from /admin/ sends it. */
async function signIn(t: TestApp, user: Pick<TestUser, 'login' | 'password'>, headers: Record<string, string> = SAME_ORIGIN): Promise<Session> {
  const res = await request(t.http).post(`${t.base}/auth/session`).set(headers).send({ login: user.login, password: user.password });
  expect(res.status).toBe(201);
  const setCookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((line) => line.startsWith(`${COOKIE}=`) || line.startsWith(`${HOST_COOKIE}=`));
  expect(setCookie).toBeDefined();
  const [, name, token] = /^([^=]+)=([^;]*)/.exec(setCookie!)!;
  return { cookie: `${name}=${token}`, token, nonce: res.body.nonce as string, setCookie: setCookie!, body: res.body };
}

describe('admin console sessions (cookie + nonce)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_FAILED_LOGIN: '1000', CORS_ORIGINS: ADMIN_UI });
  });
  afterAll(() => t.close());

  const readSettings = async () => (await request(t.http).get(`${t.base}/settings`).set('Authorization', t.admin.auth).expect(200)).body;
  /** A write route: the attempt must change nothing unless it is authenticated. */
  const writeSettings = (session: Session, headers: Record<string, string>) =>
    request(t.http).post(`${t.base}/settings`).set(SAME_ORIGIN).set('Cookie', session.cookie).set(headers).send({ currency: 'EUR', debug_mode: true });
  const resetSettings = () => request(t.http).post(`${t.base}/settings`).set('Authorization', t.admin.auth).send({ currency: 'USD', debug_mode: false }).expect(200);

  it('signs in with an application password: an HttpOnly, SameSite=Strict cookie scoped to the REST namespace, and a nonce', async () => {
    const session = await signIn(t, t.admin);
    const attributes = session.setCookie.split(';').map((part) => part.trim().toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=strict', 'path=/wp-json/checkout/v1', `max-age=${8 * 3600}`]));
    // Plain http here (no proxy, http PUBLIC_BASE_URL): a Secure cookie would be dropped by the browser.
    expect(attributes).not.toContain('secure');
    expect(session.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(session.body).toEqual({
      nonce: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      user: {
        id: t.admin.id,
        login: 'admin',
        display_name: 'Administrator',
        role: 'administrator',
        capabilities: expect.arrayContaining(['checkout_settings', 'edit_checkout_forms', 'edit_others_checkout_forms']),
        // No language chosen: the console follows the browser's (PUT /auth/preferences).
        locale: null,
      },
      must_set_password: false,
      expires_at: expect.any(String),
      idle_timeout_seconds: 1800,
    });
    const capabilities = (session.body.user as { capabilities: string[] }).capabilities;
    expect(capabilities).toEqual([...capabilities].sort());
    expect(new Date(session.body.expires_at as string).getTime() - Date.now()).toBeGreaterThan(8 * 3600 * 1000 - 60_000);
    // Neither the password nor the token in the body; only a keyed hash of the token is stored.
    expect(JSON.stringify(session.body)).not.toContain(t.admin.password);
    expect(JSON.stringify(session.body)).not.toContain(session.token);
    expect(session.nonce).not.toBe(session.token);
    const rows = await sessionsOf(t).find({ where: { userId: t.admin.id } });
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.tokenHash).not.toContain(session.token);
    }
  });

  it('answers no-store, and no CORS even to an origin of CORS_ORIGINS', async () => {
    const res = await request(t.http).post(`${t.base}/auth/session`).set(SAME_ORIGIN).send({ login: 'admin', password: t.admin.password });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const preflight = await request(t.http).options(`${t.base}/auth/session`).set('Origin', ADMIN_UI).set('Access-Control-Request-Method', 'POST');
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    // An admin route still answers that origin's preflight, but never allows X-WP-Nonce or credentials.
    const admin = await request(t.http).options(`${t.base}/settings`).set('Origin', ADMIN_UI).set('Access-Control-Request-Method', 'POST');
    expect(admin.headers['access-control-allow-origin']).toBe(ADMIN_UI);
    expect(admin.headers['access-control-allow-headers']).not.toMatch(/nonce/i);
    expect(admin.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('authenticates an admin route with the cookie and its nonce (a write changes the settings)', async () => {
    const session = await signIn(t, t.admin);
    const read = await request(t.http).get(`${t.base}/settings`).set(SAME_ORIGIN).set('Cookie', session.cookie).set('X-WP-Nonce', session.nonce);
    expect(read.status).toBe(200);
    const written = await writeSettings(session, { 'X-WP-Nonce': session.nonce });
    expect(written.status).toBe(200);
    expect(await readSettings()).toMatchObject({ currency: 'EUR', debug_mode: true });
    await resetSettings();
  });

  it('refuses the cookie without a nonce (401), with a wrong one or another session\'s (403), and changes nothing', async () => {
    const session = await signIn(t, t.admin);
    const other = await signIn(t, t.admin);
    const before = await readSettings();

    const withoutNonce = await writeSettings(session, {});
    expect(withoutNonce.status).toBe(401);
    expectWpError(withoutNonce.body, 'rest_not_logged_in', 401);

    const wrong = await writeSettings(session, { 'X-WP-Nonce': 'x'.repeat(43) });
    expect(wrong.status).toBe(403);
    expectWpError(wrong.body, 'rest_cookie_invalid_nonce', 403);

    const foreign = await writeSettings(session, { 'X-WP-Nonce': other.nonce });
    expect(foreign.status).toBe(403);
    expectWpError(foreign.body, 'rest_cookie_invalid_nonce', 403);

    // The nonce without its cookie is nothing either.
    const nonceOnly = await request(t.http).post(`${t.base}/settings`).set(SAME_ORIGIN).set('X-WP-Nonce', session.nonce).send({ currency: 'EUR' });
    expect(nonceOnly.status).toBe(401);

    expect(await readSettings()).toEqual(before);
    // Both sessions are still good with their own nonce.
    for (const s of [session, other]) {
      await request(t.http).get(`${t.base}/settings`).set('Cookie', s.cookie).set('X-WP-Nonce', s.nonce).expect(200);
    }
  });

  it('refuses a cookie request started by another site, even with the right nonce, and changes nothing', async () => {
    const session = await signIn(t, t.admin);
    const before = await readSettings();
    const cases: Array<[Record<string, string>, string]> = [
      [{ Origin: 'https://attacker.example', 'Sec-Fetch-Site': 'cross-site' }, 'origin_not_allowed'],
      [{ Origin: 'https://blog.checkout.test', 'Sec-Fetch-Site': 'same-site' }, 'origin_not_allowed'],
      [{ Origin: 'http://checkout.test', 'Sec-Fetch-Site': 'same-site' }, 'cross_site_fetch'],
      // CORS_ORIGINS is trusted with Basic credentials, never with the console's cookie.
      [{ Origin: ADMIN_UI, 'Sec-Fetch-Site': 'cross-site' }, 'origin_not_allowed'],
    ];
    for (const [headers, reason] of cases) {
      const res = await request(t.http).post(`${t.base}/settings`).set(headers).set('Cookie', session.cookie).set('X-WP-Nonce', session.nonce).send({ currency: 'EUR' });
      expect({ headers, status: res.status }).toEqual({ headers, status: 403 });
      expect(expectWpError(res.body, 'rest_cross_site_request', 403).data.reason).toBe(reason);
    }
    expect(await readSettings()).toEqual(before);
    // The same origin's request with Basic credentials is the API client's, and still allowed.
    const basic = await request(t.http).get(`${t.base}/settings`).set({ Origin: ADMIN_UI, 'Sec-Fetch-Site': 'cross-site' }).set('Authorization', t.admin.auth);
    expect(basic.status).toBe(200);
  });

  it('keeps HTTP Basic working, and Basic wins over a cookie sent with it', async () => {
    const editor = await t.createUser('editor');
    const session = await signIn(t, t.admin);
    await request(t.http).get(`${t.base}/plugin/info`).set('Authorization', t.admin.auth).expect(200);
    const both = await request(t.http).get(`${t.base}/plugin/info`).set('Authorization', editor.auth).set('Cookie', session.cookie).set('X-WP-Nonce', session.nonce);
    expect(both.status).toBe(403);
  });

  describe('GET /auth/session', () => {
    it('answers who is signed in, with or without the nonce (a reloaded console gets it back)', async () => {
      const session = await signIn(t, t.admin);
      const withNonce = await request(t.http).get(`${t.base}/auth/session`).set(SAME_ORIGIN).set('Cookie', session.cookie).set('X-WP-Nonce', session.nonce);
      expect(withNonce.status).toBe(200);
      expect(withNonce.body).toEqual(session.body);
      expect(withNonce.headers['cache-control']).toBe('no-store');
      const reloaded = await request(t.http).get(`${t.base}/auth/session`).set({ 'Sec-Fetch-Site': 'same-origin' }).set('Cookie', session.cookie);
      expect(reloaded.status).toBe(200);
      expect(reloaded.body.nonce).toBe(session.nonce);
    });

    it('refuses a wrong nonce and any request another site started; answers 204 without a session', async () => {
      const session = await signIn(t, t.admin);
      const wrong = await request(t.http).get(`${t.base}/auth/session`).set('Cookie', session.cookie).set('X-WP-Nonce', 'nope');
      expectWpError(wrong.body, 'rest_cookie_invalid_nonce', 403);
      // No session is an answer, not an error: a console's first load logs none (204, no body).
      const anonymous = await request(t.http).get(`${t.base}/auth/session`).set(SAME_ORIGIN);
      expect(anonymous.status).toBe(204);
      expect(anonymous.text).toBe('');
      for (const headers of [{ 'Sec-Fetch-Site': 'cross-site' }, { 'Sec-Fetch-Site': 'same-site' }, { Origin: ADMIN_UI }, { Origin: 'null' }]) {
        const res = await request(t.http).get(`${t.base}/auth/session`).set(headers).set('Cookie', session.cookie);
        expect({ headers, status: res.status }).toEqual({ headers, status: 403 });
        expect(res.body.nonce).toBeUndefined();
        expect(res.headers['access-control-allow-origin']).toBeUndefined();
      }
    });

    it('refuses a cross-site sign-in (login CSRF) and checks no password for it', async () => {
      const res = await request(t.http)
        .post(`${t.base}/auth/session`)
        .set({ Origin: 'https://attacker.example', 'Sec-Fetch-Site': 'cross-site' })
        .type('form')
        .send(`login=admin&password=${encodeURIComponent(t.admin.password)}`);
      expect(res.status).toBe(403);
      expect(res.headers['set-cookie']).toBeUndefined();
    });
  });

  describe('sign-out', () => {
    it('ends the session on the server and clears the cookie', async () => {
      const session = await signIn(t, t.admin);
      const out = await request(t.http).delete(`${t.base}/auth/session`).set(SAME_ORIGIN).set('Cookie', session.cookie).set('X-WP-Nonce', session.nonce);
      expect(out.status).toBe(200);
      expect(out.body).toEqual({ success: true, message: 'Signed out.' });
      const cleared = ([] as string[]).concat(out.headers['set-cookie'] ?? []).find((line) => line.startsWith(`${COOKIE}=`));
      expect(cleared).toMatch(/^checkout_console_session=;/);
      expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970/);
      // A copy of the cookie kept elsewhere is worth nothing now.
      const after = await request(t.http).get(`${t.base}/settings`).set('Cookie', session.cookie).set('X-WP-Nonce', session.nonce);
      expect(after.status).toBe(401);
      expectWpError(after.body, 'rest_not_logged_in', 401);
      expect(await request(t.http).get(`${t.base}/auth/session`).set('Cookie', session.cookie).then((res) => res.status)).toBe(204);
      // Signing out again is harmless.
      await request(t.http).delete(`${t.base}/auth/session`).set('Cookie', session.cookie).set('X-WP-Nonce', session.nonce).expect(200);
    });

    it('needs the nonce: a cookie alone signs nobody out', async () => {
      const session = await signIn(t, t.admin);
      const withoutNonce = await request(t.http).delete(`${t.base}/auth/session`).set('Cookie', session.cookie);
      expectWpError(withoutNonce.body, 'rest_not_logged_in', 401);
      const other = await signIn(t, t.admin);
      const foreign = await request(t.http).delete(`${t.base}/auth/session`).set('Cookie', session.cookie).set('X-WP-Nonce', other.nonce);
      expectWpError(foreign.body, 'rest_cookie_invalid_nonce', 403);
      await request(t.http).get(`${t.base}/settings`).set('Cookie', session.cookie).set('X-WP-Nonce', session.nonce).expect(200);
    });
  });

  it('ends every session of an application password the moment it is revoked', async () => {
    const user = await t.createUser('administrator');
    const identity = t.app.get(IdentityService);
    const session = await signIn(t, user);
    const second = await identity.createApplicationPassword(user.id, 'other device');
    const kept = await signIn(t, { login: user.login, password: second.password });
    await request(t.http).get(`${t.base}/settings`).set('Cookie', session.cookie).set('X-WP-Nonce', session.nonce).expect(200);

    const [first] = await identity.listApplicationPasswords(user.id);
    expect(await identity.revokeApplicationPassword(user.id, first.uuid)).toBe(true);

    const after = await request(t.http).get(`${t.base}/settings`).set('Cookie', session.cookie).set('X-WP-Nonce', session.nonce);
    expect(after.status).toBe(401);
    expect(await sessionsOf(t).count({ where: { userId: user.id } })).toBe(1);
    // The session of the other password lives on.
    await request(t.http).get(`${t.base}/settings`).set('Cookie', kept.cookie).set('X-WP-Nonce', kept.nonce).expect(200);
  });

  it('gives a session its role’s capabilities: an editor may sign in but the settings refuse it', async () => {
    const user = await t.createUser('editor');
    const session = await signIn(t, user);
    expect((session.body.user as { capabilities: string[] }).capabilities).toEqual(['checkout_settings', 'edit_checkout_forms', 'edit_others_checkout_forms']);
    const res = await request(t.http).get(`${t.base}/settings`).set('Cookie', session.cookie).set('X-WP-Nonce', session.nonce);
    expectWpError(res.body, 'rest_forbidden', 403);
  });

  it('answers a bad sign-in body 400 without checking anything', async () => {
    const res = await request(t.http).post(`${t.base}/auth/session`).send({ login: 'admin' });
    expectWpError(res.body, 'rest_missing_callback_param', 400);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it(`keeps at most ${MAX_SESSIONS_PER_PASSWORD} sessions per application password (the oldest end)`, async () => {
    const user = await t.createUser('administrator');
    const first = await signIn(t, user);
    for (let i = 0; i < MAX_SESSIONS_PER_PASSWORD; i += 1) await signIn(t, user);
    expect(await sessionsOf(t).count({ where: { userId: user.id } })).toBe(MAX_SESSIONS_PER_PASSWORD);
    await request(t.http).get(`${t.base}/settings`).set('Cookie', first.cookie).set('X-WP-Nonce', first.nonce).expect(401);
  });

  describe('the live preview in a frame: _wpnonce in the query', () => {
    it('works on GET, not on POST, and not on routes that do not allow it', async () => {
      const form = await createPaymentForm(t);
      const session = await signIn(t, t.admin);
      const preview = `${t.base}/administration/payment-forms/${form.id}/live-preview`;
      const frame = { 'Sec-Fetch-Site': 'same-origin', 'Sec-Fetch-Dest': 'iframe' };
      const get = await request(t.http).get(`${preview}?_wpnonce=${session.nonce}`).set(frame).set('Cookie', session.cookie);
      expect(get.status).toBe(200);
      expect(get.headers['content-type']).toMatch(/^text\/html/);
      const wrong = await request(t.http).get(`${preview}?_wpnonce=${'y'.repeat(43)}`).set(frame).set('Cookie', session.cookie);
      expectWpError(wrong.body, 'rest_cookie_invalid_nonce', 403);
      const post = await request(t.http).post(`${preview}?_wpnonce=${session.nonce}`).set(SAME_ORIGIN).set('Cookie', session.cookie).send({ title: 'Changed' });
      expect(post.status).toBe(401);
      // With the header, POST previews as any admin call does.
      await request(t.http).post(preview).set(SAME_ORIGIN).set('Cookie', session.cookie).set('X-WP-Nonce', session.nonce).send({ title: 'Changed' }).expect(200);
      // Other routes take the nonce from the header only.
      const other = await request(t.http).get(`${t.base}/settings?_wpnonce=${session.nonce}`).set('Cookie', session.cookie);
      expect(other.status).toBe(401);
    });
  });
});

describe('admin console session lifetime', () => {
  let t: TestApp;
  let clock: jest.SpyInstance;
  let now: number;
  beforeAll(async () => {
    t = await startTestApp({ SESSION_TTL_SECONDS: '3600', SESSION_IDLE_TIMEOUT_SECONDS: '600', RATE_LIMIT_FAILED_LOGIN: '1000' });
    now = Date.now();
    clock = jest.spyOn(t.app.get(Clock), 'now').mockImplementation(() => new Date(now));
  });
  afterAll(async () => {
    clock.mockRestore();
    await t.close();
  });

  const use = (session: Session) => request(t.http).get(`${t.base}/settings`).set('Cookie', session.cookie).set('X-WP-Nonce', session.nonce);

  it('ends after SESSION_IDLE_TIMEOUT_SECONDS without a request; each request extends it', async () => {
    const session = await signIn(t, t.admin);
    expect(session.setCookie).toMatch(/Max-Age=3600/);
    expect(session.body.idle_timeout_seconds).toBe(600);
    now += 590_000;
    await use(session).expect(200);
    now += 590_000;
    await use(session).expect(200);
    now += 601_000;
    const idle = await use(session);
    expect(idle.status).toBe(401);
    expectWpError(idle.body, 'rest_not_logged_in', 401);
  });

  it('ends SESSION_TTL_SECONDS after sign-in however active it is', async () => {
    const session = await signIn(t, t.admin);
    const end = new Date(session.body.expires_at as string).getTime();
    expect(end).toBe(now + 3600_000);
    while (now + 500_000 < end) {
      now += 500_000;
      await use(session).expect(200);
    }
    now = end - 1_000;
    await use(session).expect(200);
    now = end + 1;
    await use(session).expect(401);
    expect((await request(t.http).get(`${t.base}/auth/session`).set('Cookie', session.cookie)).status).toBe(204);
  });

  it('deletes ended sessions when someone signs in', async () => {
    await signIn(t, t.admin);
    now += 3600_000 + 1;
    const ended = await sessionsOf(t).count();
    expect(ended).toBeGreaterThan(0);
    const fresh = await signIn(t, t.admin);
    expect(await sessionsOf(t).count()).toBe(1);
    await use(fresh).expect(200);
  });
});

describe('admin console session idle timeout measured from the last use', () => {
  let t: TestApp;
  let clock: jest.SpyInstance;
  let now: number;
  beforeAll(async () => {
    t = await startTestApp({ SESSION_IDLE_TIMEOUT_SECONDS: '60', RATE_LIMIT_FAILED_LOGIN: '1000' });
    now = Date.now();
    clock = jest.spyOn(t.app.get(Clock), 'now').mockImplementation(() => new Date(now));
  });
  afterAll(async () => {
    clock.mockRestore();
    await t.close();
  });

  const use = (session: Session) => request(t.http).get(`${t.base}/settings`).set('Cookie', session.cookie).set('X-WP-Nonce', session.nonce);

  it('keeps a session used every 20 s alive past the timeout, and ends it 60 s after its last use', async () => {
    const session = await signIn(t, t.admin);
    // Last use written at most every min(60 s, timeout / 10) = 6 s: a write once a minute would end it at 60 s.
    for (let elapsed = 20_000; elapsed <= 180_000; elapsed += 20_000) {
      now += 20_000;
      const res = await use(session);
      expect({ elapsed, status: res.status }).toEqual({ elapsed, status: 200 });
    }
    // A use 3 s after a write is not written; 56 s later the session still lives (written at 180 s),
    // and 61 s after that last use it has ended.
    now += 3_000;
    await use(session).expect(200);
    now += 56_000;
    await use(session).expect(200);
    now += 61_000;
    const idle = await use(session);
    expectWpError(idle.body, 'rest_not_logged_in', 401);
  });
});

describe('admin console sign-in under the failed-login limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_FAILED_LOGIN: '3', RATE_LIMIT_FAILED_LOGIN_WINDOW_SECONDS: '60' });
  });
  afterAll(() => t.close());

  it('answers a wrong password and an unknown login as a failed Basic login, and blocks the client at the limit', async () => {
    const wrongPassword = await request(t.http).post(`${t.base}/auth/session`).send({ login: 'admin', password: 'not-the-password' });
    const unknownLogin = await request(t.http).post(`${t.base}/auth/session`).send({ login: 'nobody-at-all', password: 'not-the-password' });
    const basic = await request(t.http).get(`${t.base}/plugin/info`).set('Authorization', basicAuth('admin', 'not-the-password'));
    for (const res of [wrongPassword, unknownLogin, basic]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual(basic.body);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    // Three failures, sign-ins and Basic together: the right password is refused too, for either.
    const blocked = await request(t.http).post(`${t.base}/auth/session`).send({ login: 'admin', password: t.admin.password });
    expect(blocked.status).toBe(429);
    expectWpError(blocked.body, 'checkout_rate_limited', 429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.headers['set-cookie']).toBeUndefined();
    await request(t.http).get(`${t.base}/plugin/info`).set('Authorization', t.admin.auth).expect(429);
    expect(await sessionsOf(t).count()).toBe(0);
  });
});

describe('admin console sign-in failures counted in Redis', () => {
  const redis = redisNamespace('console-sign-in');
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    const env = { ...redis.env, RATE_LIMIT_FAILED_LOGIN: '2', RATE_LIMIT_FAILED_LOGIN_WINDOW_SECONDS: '30' };
    first = await startTestApp(env);
    second = await startTestApp(env, { keepDatabase: true });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await redis.clear();
  });

  it('counts failed sign-ins on one instance against the other, under the Basic key', async () => {
    for (let i = 0; i < 2; i += 1) {
      await request(first.http).post(`${first.base}/auth/session`).send({ login: 'admin', password: `wrong-${i}` }).expect(401);
    }
    const blocked = await request(second.http).post(`${second.base}/auth/session`).send({ login: 'admin', password: second.admin.password });
    expect(blocked.status).toBe(429);
    expect((await redis.keys()).some((key) => key.startsWith(`${redis.prefix}failed-login:`))).toBe(true);
  });
});

describe('admin console session cookie behind an HTTPS proxy', () => {
  it('is Secure when the trusted proxy says the browser used HTTPS, and only then', async () => {
    const proxied = await startTestApp({ TRUST_PROXY: 'true', PUBLIC_BASE_URL: 'http://checkout.test' });
    const direct = await startTestApp({ PUBLIC_BASE_URL: 'http://checkout.test' });
    try {
      const https = await signIn(proxied, proxied.admin, { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'checkout.test' });
      expect(https.setCookie.split(';').map((part) => part.trim())).toContain('Secure');
      const http = await signIn(proxied, proxied.admin, { 'X-Forwarded-Proto': 'http' });
      expect(http.setCookie).not.toMatch(/;\s*Secure/i);
      // Without TRUST_PROXY the header is the client's word, not the proxy's.
      const untrusted = await signIn(direct, direct.admin, { 'X-Forwarded-Proto': 'https' });
      expect(untrusted.setCookie).not.toMatch(/;\s*Secure/i);
      // The session works through the proxy with the Origin the browser sends there.
      const read = await request(proxied.http)
        .get(`${proxied.base}/settings`)
        .set({ 'X-Forwarded-Proto': 'https', Host: 'checkout.test', Origin: 'https://checkout.test', 'Sec-Fetch-Site': 'same-origin' })
        .set('Cookie', https.cookie)
        .set('X-WP-Nonce', https.nonce);
      expect(read.status).toBe(200);
    } finally {
      await proxied.close();
      await direct.close();
    }
  });

  it('is Secure whenever PUBLIC_BASE_URL is https', async () => {
    const t = await startTestApp({ PUBLIC_BASE_URL: 'https://checkout.test' });
    try {
      const session = await signIn(t, t.admin, { Origin: 'https://checkout.test', 'Sec-Fetch-Site': 'same-origin' });
      expect(session.setCookie.split(';').map((part) => part.trim())).toContain('Secure');
    } finally {
      await t.close();
    }
  });
});

/**
 * A sibling subdomain (`blog.checkout.test`) sets `checkout_console_session=<its value>;
 * Domain=checkout.test; Path=/wp-json/checkout/v1/...`: the browser then sends it first, beside
 * the console's own, on every API call, and on every sign-in again.
 */
describe('admin console session cookie planted by a sibling host', () => {
  const HTTPS_ORIGIN = { Origin: 'https://checkout.test', 'Sec-Fetch-Site': 'same-origin' };
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_BASE_URL: 'https://checkout.test', RATE_LIMIT_FAILED_LOGIN: '1000' });
  });
  afterAll(() => t.close());

  const planted = `${COOKIE}=${'P'.repeat(43)}`;

  it('behind HTTPS names the cookie __Host-: Path=/, Secure, host-only', async () => {
    const session = await signIn(t, t.admin, HTTPS_ORIGIN);
    expect(session.setCookie.startsWith(`${HOST_COOKIE}=`)).toBe(true);
    const attributes = session.setCookie.split(';').map((part) => part.trim().toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(['path=/', 'secure', 'httponly', 'samesite=strict']));
    expect(attributes.some((attribute) => attribute.startsWith('domain='))).toBe(false);
    const out = await request(t.http).delete(`${t.base}/auth/session`).set(HTTPS_ORIGIN).set('Cookie', session.cookie).set('X-WP-Nonce', session.nonce).expect(200);
    const cleared = ([] as string[]).concat(out.headers['set-cookie'] ?? []).find((line) => line.startsWith(`${HOST_COOKIE}=;`));
    expect(cleared).toMatch(/Path=\/;.*Secure/);
  });

  it('ignores a planted plain-named cookie behind HTTPS: admin routes, the reload and sign-out use the real session', async () => {
    const session = await signIn(t, t.admin, HTTPS_ORIGIN);
    // A valid session of another account, planted under the plain name, is not read at all.
    const other = await signIn(t, await t.createUser('administrator'), HTTPS_ORIGIN);
    for (const value of [planted, `${COOKIE}=${other.token}`]) {
      const cookies = `${value}; ${session.cookie}`;
      await request(t.http).get(`${t.base}/settings`).set(HTTPS_ORIGIN).set('Cookie', cookies).set('X-WP-Nonce', session.nonce).expect(200);
      const reloaded = await request(t.http).get(`${t.base}/auth/session`).set(HTTPS_ORIGIN).set('Cookie', cookies);
      expect(reloaded.status).toBe(200);
      expect(reloaded.body.nonce).toBe(session.nonce);
    }
    // Alone, the plain-named cookie (even a live session's) is no session behind HTTPS.
    expect((await request(t.http).get(`${t.base}/auth/session`).set(HTTPS_ORIGIN).set('Cookie', `${COOKIE}=${other.token}`)).status).toBe(204);
  });
});

describe('admin console session with several cookies of its name (plain HTTP)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_FAILED_LOGIN: '1000' });
  });
  afterAll(() => t.close());

  const planted = `${COOKIE}=${'P'.repeat(43)}`;

  it('uses the cookie the nonce belongs to: a planted one first does not lock the admin out', async () => {
    const session = await signIn(t, t.admin);
    const other = await signIn(t, await t.createUser('editor'));
    for (const first of [planted, other.cookie]) {
      const cookies = `${first}; ${session.cookie}`;
      const read = await request(t.http).get(`${t.base}/settings`).set(SAME_ORIGIN).set('Cookie', cookies).set('X-WP-Nonce', session.nonce);
      expect(read.status).toBe(200);
      const who = await request(t.http).get(`${t.base}/auth/session`).set(SAME_ORIGIN).set('Cookie', cookies).set('X-WP-Nonce', session.nonce);
      expect(who.body.user.login).toBe('admin');
      // A nonce of none of them is still refused.
      const wrong = await request(t.http).get(`${t.base}/settings`).set(SAME_ORIGIN).set('Cookie', cookies).set('X-WP-Nonce', 'x'.repeat(43));
      expectWpError(wrong.body, 'rest_cookie_invalid_nonce', 403);
    }
    // A reload (no nonce) gets the first cookie with a live session: a planted dead one is skipped.
    const reloaded = await request(t.http).get(`${t.base}/auth/session`).set(SAME_ORIGIN).set('Cookie', `${planted}; ${session.cookie}`);
    expect(reloaded.body.nonce).toBe(session.nonce);
    // Sign-out ends the session the nonce is for, and only that one.
    await request(t.http).delete(`${t.base}/auth/session`).set(SAME_ORIGIN).set('Cookie', `${other.cookie}; ${session.cookie}`).set('X-WP-Nonce', session.nonce).expect(200);
    await request(t.http).get(`${t.base}/settings`).set(SAME_ORIGIN).set('Cookie', session.cookie).set('X-WP-Nonce', session.nonce).expect(401);
    await request(t.http).get(`${t.base}/auth/session`).set(SAME_ORIGIN).set('Cookie', other.cookie).set('X-WP-Nonce', other.nonce).expect(200);
  });
});

/** The console's calls through the committed client, with a fetch that keeps cookies as a browser does. */
describe('admin console session through the generated client', () => {
  let t: TestApp;
  let baseUrl: string;
  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen(0, '127.0.0.1');
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    baseUrl = `http://127.0.0.1:${port}/wp-json/checkout/v1`;
  });
  afterAll(() => t.close());

  it('signs in, calls an admin route with the nonce, reloads, signs out', async () => {
    let jar: string | undefined;
    const browserFetch = async (input: Request): Promise<Response> => {
      const request = new Request(input);
      if (jar) request.headers.set('Cookie', jar);
      request.headers.set('Sec-Fetch-Site', 'same-origin');
      const response = await fetch(request);
      const setCookie = response.headers.getSetCookie().find((line) => line.startsWith(`${COOKIE}=`));
      if (setCookie) jar = /^[^;]*/.exec(setCookie)![0].replace(/^[^=]+=$/, '') || undefined;
      return response;
    };
    let nonce: string | undefined;
    const api = createCheckoutClient({ baseUrl, fetch: browserFetch, nonce: () => nonce });

    const signedIn = await api.POST('/auth/session', { body: { login: 'admin', password: t.admin.password } });
    expect(signedIn.response.status).toBe(201);
    expect(signedIn.data!.user.login).toBe('admin');
    expect((await api.GET('/plugin/info')).response.status).toBe(401);
    nonce = signedIn.data!.nonce;
    const info = await api.GET('/plugin/info');
    expect(info.error).toBeUndefined();
    expect(info.data).toMatchObject({ version: expect.any(String) });

    // A reload: the nonce is gone from memory, the cookie is not.
    nonce = undefined;
    const again = await api.GET('/auth/session');
    expect(again.data!.nonce).toBe(signedIn.data!.nonce);
    nonce = again.data!.nonce;

    const out = await api.DELETE('/auth/session');
    expect(out.data).toEqual({ success: true, message: 'Signed out.' });
    expect(jar).toBeUndefined();
    const after = await api.GET('/auth/session');
    expect(after.response.status).toBe(204);
    expect(after.data).toBeUndefined();
  });
});
