import { createHmac } from 'node:crypto';
import {
  type CheckoutTokenClaims,
  isPaymentSecret,
  paymentSecret,
  readCheckoutToken,
  signCheckoutToken,
} from './payment-tokens.js';

const hmacWith = (key: string) => (data: string) => createHmac('sha256', key).update(data).digest();
const hmac = hmacWith('token-key');
const claims: CheckoutTokenClaims = {
  payment_id: 42,
  form_id: 7,
  gateway: 'gateway_a',
  payment_method: 'ccard',
  amount: 1999,
  currency: 'USD',
  mode: 'test',
};
const NOW = Date.UTC(2026, 10, 25, 10, 0, 0);

describe('payment secret', () => {
  it('is a base64url HMAC-SHA256 of id and nonce', () => {
    const secret = paymentSecret(hmac, 42, 'nonce');
    expect(secret).toBe(createHmac('sha256', 'token-key').update('42:nonce').digest('base64url'));
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('matches only its own id, nonce and key', () => {
    const secret = paymentSecret(hmac, 42, 'nonce');
    expect(isPaymentSecret(hmac, 42, 'nonce', secret)).toBe(true);
    expect(isPaymentSecret(hmac, 43, 'nonce', secret)).toBe(false);
    expect(isPaymentSecret(hmac, 42, 'other', secret)).toBe(false);
    expect(isPaymentSecret(hmacWith('other-key'), 42, 'nonce', secret)).toBe(false);
    expect(isPaymentSecret(hmac, 42, 'nonce', secret.slice(0, -1))).toBe(false);
    expect(isPaymentSecret(hmac, 42, 'nonce', '')).toBe(false);
  });
});

describe('checkout token', () => {
  const token = signCheckoutToken(hmac, claims, NOW, 3600);

  it('carries the bound claims with issue and expiry times', () => {
    expect(readCheckoutToken(hmac, token, NOW)).toEqual({ ...claims, iat: NOW / 1000, exp: NOW / 1000 + 3600 });
  });

  it('expires after its lifetime', () => {
    expect(readCheckoutToken(hmac, token, NOW + 3599_000)).not.toBeNull();
    expect(readCheckoutToken(hmac, token, NOW + 3600_000)).toBeNull();
  });

  it('refuses a token signed with another key', () => {
    expect(readCheckoutToken(hmacWith('other-key'), token, NOW)).toBeNull();
  });

  it('refuses a tampered payload even when it is well-formed', () => {
    const [, signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ v: 1, ...claims, amount: 1, iat: NOW / 1000, exp: NOW / 1000 + 3600 })).toString('base64url');
    expect(readCheckoutToken(hmac, `${forged}.${signature}`, NOW)).toBeNull();
  });

  it('refuses every single-character change', () => {
    for (let i = 0; i < token.length; i += 7) {
      if (token[i] === '.') continue;
      const swapped = token.slice(0, i) + (token[i] === 'A' ? 'B' : 'A') + token.slice(i + 1);
      expect(readCheckoutToken(hmac, swapped, NOW)).toBeNull();
    }
  });

  it.each(['', 'abc', 'a.b.c', `${'a'.repeat(2000)}.b`, 'a b.c', '.'])('refuses malformed %p', (bad) => {
    expect(readCheckoutToken(hmac, bad, NOW)).toBeNull();
  });

  it('refuses a genuine signature over claims of the wrong shape', () => {
    const payload = Buffer.from(JSON.stringify({ v: 1, payment_id: '42', exp: NOW / 1000 + 60 })).toString('base64url');
    expect(readCheckoutToken(hmac, `${payload}.${hmac(payload).toString('base64url')}`, NOW)).toBeNull();
    const notJson = Buffer.from('not json').toString('base64url');
    expect(readCheckoutToken(hmac, `${notJson}.${hmac(notJson).toString('base64url')}`, NOW)).toBeNull();
  });
});
