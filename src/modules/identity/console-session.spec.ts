import { presentedNonce } from './authorization.guard.js';
import { HOST_SESSION_COOKIE, MAX_SESSION_COOKIES, readSessionTokens, sessionCookie } from './console-session-cookie.js';
import { sessionExpiry, touchIntervalMs } from './console-session.service.js';

const TOKEN = 'A'.repeat(21) + '_' + 'b'.repeat(20) + '-';

describe('readSessionTokens', () => {
  const OTHER = 'C'.repeat(43);
  it('takes the well-formed cookies of the name, in order and without repeats, and ignores the rest', () => {
    const read = (cookie: string, name = 'checkout_console_session') => readSessionTokens({ headers: { cookie } }, name);
    expect(read(`theme=dark; checkout_console_session=${TOKEN}; other=1`)).toEqual([TOKEN]);
    expect(read(`checkout_console_session=short; checkout_console_session=${TOKEN}`)).toEqual([TOKEN]);
    expect(read(`checkout_console_session=${OTHER}; checkout_console_session=${TOKEN}; checkout_console_session=${OTHER}`)).toEqual([OTHER, TOKEN]);
    expect(read(`xcheckout_console_session=${TOKEN}`)).toEqual([]);
    expect(read(`checkout_console_session=${TOKEN}!`)).toEqual([]);
    expect(readSessionTokens({ headers: {} }, 'checkout_console_session')).toEqual([]);
    // Behind HTTPS only the __Host- name counts: a planted plain cookie is not read at all.
    expect(read(`checkout_console_session=${OTHER}; __Host-checkout_console_session=${TOKEN}`, HOST_SESSION_COOKIE)).toEqual([TOKEN]);
  });

  it(`reads at most ${MAX_SESSION_COOKIES}`, () => {
    const many = Array.from({ length: 20 }, (_, i) => `checkout_console_session=${String(i).padStart(2, '0')}${'x'.repeat(41)}`).join('; ');
    expect(readSessionTokens({ headers: { cookie: many } }, 'checkout_console_session')).toHaveLength(MAX_SESSION_COOKIES);
  });
});

describe('sessionCookie', () => {
  it('behind HTTPS is __Host- with Path=/ and Secure; on plain HTTP the plain name under the REST namespace; always HttpOnly and SameSite=Strict', () => {
    expect(sessionCookie(true, '/wp-json/checkout/v1', 60)).toEqual({
      name: '__Host-checkout_console_session',
      options: { httpOnly: true, sameSite: 'strict', secure: true, path: '/', maxAge: 60_000 },
    });
    expect(sessionCookie(false, '/api/checkout/v1')).toEqual({
      name: 'checkout_console_session',
      options: { httpOnly: true, sameSite: 'strict', secure: false, path: '/api/checkout/v1' },
    });
  });
});

describe('touchIntervalMs', () => {
  it('is a tenth of the idle timeout, at most a minute', () => {
    expect(touchIntervalMs({ ttlSeconds: 3600, idleTimeoutSeconds: 60 })).toBe(6_000);
    expect(touchIntervalMs({ ttlSeconds: 3600, idleTimeoutSeconds: 300 })).toBe(30_000);
    expect(touchIntervalMs({ ttlSeconds: 3600, idleTimeoutSeconds: 1800 })).toBe(60_000);
  });
});

describe('sessionExpiry', () => {
  const settings = { ttlSeconds: 3600, idleTimeoutSeconds: 600 };
  const signIn = new Date('2026-01-01T00:00:00.000Z');

  it('is the idle timeout from the last use while the hard end is further away', () => {
    expect(sessionExpiry(signIn, signIn, settings).toISOString()).toBe('2026-01-01T00:10:00.000Z');
    expect(sessionExpiry(signIn, new Date('2026-01-01T00:30:00.000Z'), settings).toISOString()).toBe('2026-01-01T00:40:00.000Z');
  });

  it('never passes sign-in + TTL', () => {
    expect(sessionExpiry(signIn, new Date('2026-01-01T00:55:00.000Z'), settings).toISOString()).toBe('2026-01-01T01:00:00.000Z');
    expect(sessionExpiry(signIn, signIn, { ttlSeconds: 300, idleTimeoutSeconds: 600 }).toISOString()).toBe('2026-01-01T00:05:00.000Z');
  });
});

describe('presentedNonce', () => {
  const request = (method: string, headers: Record<string, string> = {}, query: Record<string, unknown> = {}) => ({ method, headers, query });

  it('reads X-WP-Nonce on any method', () => {
    expect(presentedNonce(request('POST', { 'x-wp-nonce': 'n1' }), false)).toBe('n1');
    expect(presentedNonce(request('GET', { 'x-wp-nonce': 'n1' }, { _wpnonce: 'n2' }), true)).toBe('n1');
  });

  it('reads _wpnonce only on GET/HEAD of a route that allows it, and only as a single string', () => {
    expect(presentedNonce(request('GET', {}, { _wpnonce: 'n2' }), true)).toBe('n2');
    expect(presentedNonce(request('HEAD', {}, { _wpnonce: 'n2' }), true)).toBe('n2');
    expect(presentedNonce(request('GET', {}, { _wpnonce: 'n2' }), false)).toBeUndefined();
    expect(presentedNonce(request('POST', {}, { _wpnonce: 'n2' }), true)).toBeUndefined();
    expect(presentedNonce(request('GET', {}, { _wpnonce: ['n2', 'n3'] }), true)).toBeUndefined();
    expect(presentedNonce(request('GET', { 'x-wp-nonce': '' }), true)).toBeUndefined();
  });
});
