import { presentedNonce } from './authorization.guard.js';
import { readSessionToken, sessionCookieOptions } from './console-session-cookie.js';
import { sessionExpiry } from './console-session.service.js';

const TOKEN = 'A'.repeat(21) + '_' + 'b'.repeat(20) + '-';

describe('readSessionToken', () => {
  it('takes the first well-formed session cookie and ignores others and malformed values', () => {
    expect(readSessionToken({ headers: { cookie: `theme=dark; checkout_console_session=${TOKEN}; other=1` } })).toBe(TOKEN);
    expect(readSessionToken({ headers: { cookie: `checkout_console_session=short; checkout_console_session=${TOKEN}` } })).toBe(TOKEN);
    expect(readSessionToken({ headers: { cookie: `xcheckout_console_session=${TOKEN}` } })).toBeNull();
    expect(readSessionToken({ headers: { cookie: `checkout_console_session=${TOKEN}!` } })).toBeNull();
    expect(readSessionToken({ headers: {} })).toBeNull();
  });
});

describe('sessionCookieOptions', () => {
  it('is HttpOnly and SameSite=Strict, Secure only when asked, with the lifetime in milliseconds', () => {
    expect(sessionCookieOptions('/wp-json/checkout/v1', true, 60)).toEqual({ httpOnly: true, sameSite: 'strict', secure: true, path: '/wp-json/checkout/v1', maxAge: 60_000 });
    expect(sessionCookieOptions('/api/checkout/v1', false)).toEqual({ httpOnly: true, sameSite: 'strict', secure: false, path: '/api/checkout/v1' });
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
