import { createHmac } from 'node:crypto';
import { CONNECT_STATE_TTL_MS, decodeConnectState, encodeConnectState, newConnectClaims, type StateSigner } from './connect-state.js';

const sign: StateSigner = (data) => createHmac('sha256', 'state-key').update(data).digest();
const otherKey: StateSigner = (data) => createHmac('sha256', 'another-key').update(data).digest();
const now = Date.UTC(2026, 10, 25, 10, 0, 0);

describe('connect state', () => {
  const claims = newConnectClaims(7, 'live', now);
  const state = encodeConnectState(claims, sign);

  it('round-trips the admin, the mode, a random nonce and a ten-minute expiry', () => {
    expect(claims.expiresAt - now).toBe(CONNECT_STATE_TTL_MS);
    expect(CONNECT_STATE_TTL_MS).toBe(600_000);
    expect(claims.nonce).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(newConnectClaims(7, 'live', now).nonce).not.toBe(claims.nonce);
    expect(decodeConnectState(state, sign, now)).toEqual({ valid: true, claims });
    expect(state).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  });

  it('is still valid at the last millisecond and expired one after', () => {
    expect(decodeConnectState(state, sign, claims.expiresAt).valid).toBe(true);
    expect(decodeConnectState(state, sign, claims.expiresAt + 1)).toEqual({ valid: false, reason: 'expired_state' });
  });

  const [payload, mac] = state.split('.');
  const forge = (fields: Record<string, unknown>) => {
    const body = Buffer.from(JSON.stringify(fields)).toString('base64url');
    return `${body}.${sign(body).toString('base64url')}`;
  };
  const cases: Array<[string, string | undefined, string]> = [
    ['no state', undefined, 'missing_state'],
    ['an empty state', '', 'missing_state'],
    ['a state signed with another key', encodeConnectState(claims, otherKey), 'invalid_state'],
    ['claims changed after signing (other mode)', `${Buffer.from(JSON.stringify({ u: 7, m: 'test', n: claims.nonce, e: claims.expiresAt })).toString('base64url')}.${mac}`, 'invalid_state'],
    ['claims changed after signing (other admin)', `${Buffer.from(JSON.stringify({ u: 1, m: 'live', n: claims.nonce, e: claims.expiresAt })).toString('base64url')}.${mac}`, 'invalid_state'],
    ['a truncated MAC', `${payload}.${mac.slice(0, -2)}`, 'invalid_state'],
    ['no MAC', payload, 'invalid_state'],
    ['garbage', 'not a state at all', 'invalid_state'],
    ['an oversized state', `${'a'.repeat(600)}.${mac}`, 'invalid_state'],
    ['a signed but malformed payload (not JSON)', `${Buffer.from('nope').toString('base64url')}.${sign(Buffer.from('nope').toString('base64url')).toString('base64url')}`, 'invalid_state'],
    ['a signed payload with an unknown mode', forge({ u: 7, m: 'prod', n: claims.nonce, e: claims.expiresAt }), 'invalid_state'],
    ['a signed payload without user', forge({ m: 'test', n: claims.nonce, e: claims.expiresAt }), 'invalid_state'],
    ['a signed payload with a short nonce', forge({ u: 7, m: 'test', n: 'abc', e: claims.expiresAt }), 'invalid_state'],
  ];
  it.each(cases)('refuses %s', (_name, candidate, reason) => {
    expect(decodeConnectState(candidate, sign, now)).toEqual({ valid: false, reason });
  });
});
