import { getRepositoryToken } from '@nestjs/typeorm';
import request from 'supertest';
import type { Repository } from 'typeorm';
import { ApplicationPasswordEntity } from '../../src/modules/identity/application-password.entity.js';
import { RoleCapabilityEntity } from '../../src/modules/identity/role-capability.entity.js';
import { UserEntity } from '../../src/modules/identity/user.entity.js';
import { basicAuth, startTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import { expectWpError } from '../support/http.js';
import { redisNamespace } from '../support/redis.js';
import { IdentityService } from '../../src/modules/identity/index.js';
import { RouteInventory } from '../../src/common/auth/index.js';

/** Every admin route that exists, with a body that passes validation. */
const ADMIN_ROUTES: Array<{ method: 'get' | 'post' | 'delete'; path: string; body?: object }> = [
  { method: 'get', path: '/settings' },
  { method: 'post', path: '/settings', body: { debug_mode: true } },
  { method: 'delete', path: '/settings' },
  { method: 'get', path: '/plugin/info' },
  { method: 'get', path: '/plugin/status' },
  { method: 'post', path: '/plugin/update', body: { version: '1.5.3' } },
  { method: 'get', path: '/tags' },
  { method: 'post', path: '/tags', body: { tag: 'auth-matrix' } },
  { method: 'delete', path: '/tags/999' },
];

describe('admin authentication and authorisation', () => {
  let t: TestApp;
  let editor: TestUser;
  let revoked: TestUser;

  beforeAll(async () => {
    // The matrix sends many bad credentials from one IP; the limiter has its own test below.
    t = await startTestApp({ RATE_LIMIT_FAILED_LOGIN: '1000' });
    // Holds no checkout_settings (an editor now does: docs/security.md, "Roles").
    editor = await t.createUser('subscriber');
    revoked = await t.createUser('administrator');
    const identity = t.app.get(IdentityService);
    const [password] = await identity.listApplicationPasswords(revoked.id);
    expect(await identity.revokeApplicationPassword(revoked.id, password.uuid)).toBe(true);
  });
  afterAll(() => t.close());

  const send = (route: (typeof ADMIN_ROUTES)[number], auth?: string) => {
    const req = request(t.http)[route.method](t.base + route.path);
    if (auth) req.set('Authorization', auth);
    return route.body ? req.send(route.body) : req;
  };

  // The credential check reads user, password and capabilities on every request (one joined
  // statement, no cache): a change made by another instance or the CLI counts at once.
  describe('sees credential changes made elsewhere on the next request', () => {
    const status = { method: 'get' as const, path: '/plugin/status' };

    it('a password revoked after it was used', async () => {
      const user = await t.createUser('administrator');
      expect((await send(status, user.auth)).status).toBe(200);
      const passwords = t.app.get<Repository<ApplicationPasswordEntity>>(getRepositoryToken(ApplicationPasswordEntity));
      // As the CLI or another instance would: straight in the database.
      await passwords.delete({ userId: user.id });
      expect((await send(status, user.auth)).status).toBe(401);
    });

    it('a role changed after the password was used, and a capability taken from the role', async () => {
      const user = await t.createUser('administrator');
      expect((await send(status, user.auth)).status).toBe(200);
      const users = t.app.get<Repository<UserEntity>>(getRepositoryToken(UserEntity));
      await users.update({ id: user.id }, { role: 'editor' });
      expect((await send(status, user.auth)).status).toBe(403);
      await users.update({ id: user.id }, { role: 'administrator' });
      expect((await send(status, user.auth)).status).toBe(200);
      const capabilities = t.app.get<Repository<RoleCapabilityEntity>>(getRepositoryToken(RoleCapabilityEntity));
      const granted = await capabilities.findOneByOrFail({ role: 'administrator', capability: 'checkout_settings' });
      await capabilities.delete({ id: granted.id });
      try {
        expect((await send(status, user.auth)).status).toBe(403);
      } finally {
        await capabilities.insert({ role: granted.role, capability: granted.capability });
      }
      expect((await send(status, user.auth)).status).toBe(200);
    });
  });

  describe.each(ADMIN_ROUTES)('$method $path', (route) => {
    it('refuses a request without credentials (401)', async () => {
      const res = await send(route);
      expect(res.status).toBe(401);
      expectWpError(res.body, 'rest_not_logged_in', 401);
    });

    it('refuses a wrong password (401)', async () => {
      const res = await send(route, basicAuth('admin', 'not-the-password-at-all'));
      expect(res.status).toBe(401);
      expectWpError(res.body, 'rest_not_logged_in', 401);
    });

    it('refuses a revoked application password (401)', async () => {
      const res = await send(route, revoked.auth);
      expect(res.status).toBe(401);
    });

    it('refuses a user without checkout_settings (403)', async () => {
      const res = await send(route, editor.auth);
      expect(res.status).toBe(403);
      expectWpError(res.body, 'rest_forbidden', 403);
    });

    it('lets the administrator through', async () => {
      const res = await send(route, t.admin.auth);
      expect([200, 201, 404]).toContain(res.status);
      if (res.status === 404) expectWpError(res.body, 'checkout_not_found', 404);
    });
  });

  it('refuses anonymous callers, bad passwords and users without the capability on every admin route', async () => {
    const adminRoutes = t.app
      .get(RouteInventory)
      .list()
      .filter((route) => route.auth.startsWith('admin('));
    expect(adminRoutes.length).toBeGreaterThanOrEqual(ADMIN_ROUTES.length);
    const subscriber = await t.createUser('subscriber');
    for (const route of adminRoutes) {
      const path = t.base + route.path.replace(/:[a-z_]+/g, '1');
      const method = (route.method === 'ALL' ? 'post' : route.method.toLowerCase()) as 'get' | 'post' | 'put' | 'delete';
      const anonymous = await request(t.http)[method](path).send({});
      expect({ route: `${route.method} ${route.path}`, status: anonymous.status }).toEqual({ route: `${route.method} ${route.path}`, status: 401 });
      const wrong = await request(t.http)[method](path).set('Authorization', basicAuth('admin', 'wrong-password')).send({});
      expect(wrong.status).toBe(401);
      const forbidden = await request(t.http)[method](path).set('Authorization', subscriber.auth).send({});
      expect({ route: `${route.method} ${route.path}`, status: forbidden.status }).toEqual({ route: `${route.method} ${route.path}`, status: 403 });
      expectWpError(forbidden.body, 'rest_forbidden', 403);
    }
  });

  it('accepts the application password with its display spaces', async () => {
    const identity = t.app.get(IdentityService);
    const { password } = await identity.createApplicationPassword(t.admin.id, 'spaced');
    expect(password).toMatch(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);
    const spaced = await request(t.http).get(`${t.base}/plugin/info`).set('Authorization', basicAuth('admin', password));
    expect(spaced.status).toBe(200);
    const compact = await request(t.http).get(`${t.base}/plugin/info`).set('Authorization', basicAuth('admin', password.replace(/ /g, '')));
    expect(compact.status).toBe(200);
  });

  it('stores application passwords only as a keyed hash', async () => {
    const rows: Array<{ password_hash: string }> = await t.dataSource.query(`SELECT password_hash FROM ${t.config.tablePrefix}application_passwords`);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.password_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.password_hash).not.toContain(t.admin.password);
    }
  });
});

describe('failed login rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_FAILED_LOGIN: '3', RATE_LIMIT_FAILED_LOGIN_WINDOW_SECONDS: '60' });
  });
  afterAll(() => t.close());

  it('blocks an IP after the limit, even with the right password, and says when to retry', async () => {
    for (let i = 0; i < 3; i += 1) {
      const res = await request(t.http).get(`${t.base}/plugin/info`).set('Authorization', basicAuth('admin', `wrong-${i}`));
      expect(res.status).toBe(401);
    }
    const blocked = await request(t.http).get(`${t.base}/plugin/info`).set('Authorization', t.admin.auth);
    expect(blocked.status).toBe(429);
    expectWpError(blocked.body, 'checkout_rate_limited', 429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(60);
  });
});

describe('failed login rate limit shared through Redis', () => {
  // The counters live under a prefix of this run: test files in other workers (and suites of other
  // checkouts on the same Redis) count their own failed logins from 127.0.0.1.
  const redis = redisNamespace('failed-login');
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    const env = { ...redis.env, RATE_LIMIT_FAILED_LOGIN: '2', RATE_LIMIT_FAILED_LOGIN_WINDOW_SECONDS: '30' };
    first = await startTestApp(env);
    // Two instances: on SQLite they share only Redis; on MariaDB the database as well.
    second = await startTestApp(env, { keepDatabase: true });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await redis.clear();
  });

  it('counts failures from one instance against the other', async () => {
    expect(await redis.keys()).toEqual([]);
    for (let i = 0; i < 2; i += 1) {
      await request(first.http).get(`${first.base}/plugin/info`).set('Authorization', basicAuth('admin', `wrong-${i}`)).expect(401);
    }
    const blocked = await request(second.http).get(`${second.base}/plugin/info`).set('Authorization', second.admin.auth);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await redis.keys()).some((key) => key.startsWith(`${redis.prefix}failed-login:`))).toBe(true);
  });
});

describe('failed-login limiter under a burst of parallel guesses', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_FAILED_LOGIN: '3', RATE_LIMIT_FAILED_LOGIN_WINDOW_SECONDS: '60' });
  });
  afterAll(() => t.close());

  it('checks at most the limit of passwords, even when the guesses arrive all at once', async () => {
    const guesses = await Promise.all(
      Array.from({ length: 30 }, (_, i) => request(t.http).get(`${t.base}/plugin/info`).set('Authorization', basicAuth('admin', `wrong-guess-${i}`))),
    );
    const checked = guesses.filter((res) => res.status === 401).length;
    expect(guesses.filter((res) => res.status === 429)).toHaveLength(30 - checked);
    expect(checked).toBeLessThanOrEqual(3);
    const blocked = await request(t.http).get(`${t.base}/plugin/info`).set('Authorization', t.admin.auth);
    expectWpError(blocked.body, 'checkout_rate_limited', 429);
  });
});

describe('failed-login limiter and parallel valid logins', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_FAILED_LOGIN: '2', RATE_LIMIT_FAILED_LOGIN_WINDOW_SECONDS: '60' });
  });
  afterAll(() => t.close());

  it('lets more parallel requests with the right password through than the limit counts', async () => {
    const answers = await Promise.all(Array.from({ length: 12 }, () => request(t.http).get(`${t.base}/plugin/info`).set('Authorization', t.admin.auth)));
    expect(answers.map((res) => res.status)).toEqual(Array(12).fill(200));
  });
});

describe('password check timing', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_FAILED_LOGIN: '1000' });
  });
  afterAll(() => t.close());

  it('does the same database work for an unknown login as for a known login with a wrong password', async () => {
    const passwords = t.app.get<Repository<ApplicationPasswordEntity>>(getRepositoryToken(ApplicationPasswordEntity));
    // The credential check is one joined statement on the password table, run through the password repository's manager.
    const queries = jest.spyOn(passwords.manager, 'query');
    const table = passwords.metadata.tableName;
    const lookups = () => queries.mock.calls.filter(([sql]) => sql.includes(`\`${table}\``)).length;
    try {
      await request(t.http).get(`${t.base}/plugin/info`).set('Authorization', basicAuth('admin', 'wrong-password-for-admin')).expect(401);
      const forKnownLogin = lookups();
      queries.mockClear();
      await request(t.http).get(`${t.base}/plugin/info`).set('Authorization', basicAuth('no-such-user', 'wrong-password-for-admin')).expect(401);
      expect(forKnownLogin).toBe(1);
      // Otherwise the missing query makes unknown logins answer measurably faster (login enumeration).
      expect(lookups()).toBe(forKnownLogin);
    } finally {
      queries.mockRestore();
    }
  });
});
