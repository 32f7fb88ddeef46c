import { deriveKey, maskSecret, open, safeEqual, seal } from './secret-box.js';

describe('secret box', () => {
  const master = Buffer.from('a-master-secret-that-is-long-enough-for-tests');
  const key = deriveKey(master, 'encryption');

  it('round-trips and never produces the same ciphertext twice', () => {
    const a = seal(key, 'sk_live_secret');
    const b = seal(key, 'sk_live_secret');
    expect(a).not.toEqual(b);
    expect(a.startsWith('v1:')).toBe(true);
    expect(open(key, a)).toBe('sk_live_secret');
    expect(a).not.toContain('sk_live_secret');
  });

  it('refuses a tampered ciphertext and a wrong key', () => {
    const sealed = seal(key, 'whsec_123');
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    raw[raw.length - 1] ^= 1;
    expect(() => open(key, `v1:${raw.toString('base64url')}`)).toThrow();
    expect(() => open(deriveKey(master, 'other'), sealed)).toThrow();
    expect(() => open(key, 'plain')).toThrow();
  });

  it('derives different keys per purpose', () => {
    expect(deriveKey(master, 'a').equals(deriveKey(master, 'b'))).toBe(false);
    expect(deriveKey(master, 'a').equals(deriveKey(master, 'a'))).toBe(true);
  });

  it.each([
    ['sk_test_51HxABCDEF4242', 'sk_test_…4242'],
    ['whsec_abcdefghijklmnop9876', 'whsec_…9876'],
    ['plainapikeyvalue1234', '…1234'],
    ['short', '…'],
  ])('masks %s as %s', (secret, mask) => {
    expect(maskSecret(secret)).toBe(mask);
  });

  it('compares in constant time and handles different lengths', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
  });
});
