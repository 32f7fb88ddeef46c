import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppConfig } from '../../config/index.js';
import { CryptoService } from './crypto.service.js';

const config = { checkoutSecret: 'a-master-secret-that-is-long-enough-for-the-tests-here', dataDir: '/nonexistent' } as AppConfig;

describe('CryptoService.decrypt', () => {
  it('opens each sealed value to its own plaintext, also when it was opened before', () => {
    const crypto = new CryptoService(config);
    const first = crypto.encrypt('whsec_first');
    const second = crypto.encrypt('whsec_second');
    expect(crypto.decrypt(first)).toBe('whsec_first');
    expect(crypto.decrypt(second)).toBe('whsec_second');
    expect(crypto.decrypt(first)).toBe('whsec_first');
    // A new value for the same secret is a new sealed text: its new plaintext, never the old one.
    const rotated = crypto.encrypt('whsec_rotated');
    expect(crypto.decrypt(rotated)).toBe('whsec_rotated');
  });

  it('still refuses a tampered sealed value after the genuine one was opened', () => {
    const crypto = new CryptoService(config);
    const sealed = crypto.encrypt('sk_test_secret');
    expect(crypto.decrypt(sealed)).toBe('sk_test_secret');
    const tampered = sealed.slice(0, -2) + (sealed.endsWith('AA') ? 'BB' : 'AA');
    expect(() => crypto.decrypt(tampered)).toThrow();
  });

  it('refuses a value sealed under another master secret, whatever this process opened before', () => {
    const other = new CryptoService({ ...config, checkoutSecret: 'another-master-secret-that-is-long-enough-for-tests' } as AppConfig);
    const crypto = new CryptoService(config);
    const foreign = other.encrypt('sk_live_other');
    expect(other.decrypt(foreign)).toBe('sk_live_other');
    expect(() => crypto.decrypt(foreign)).toThrow();
  });

  it('keeps opening correctly past the size of its memory', () => {
    const crypto = new CryptoService(config);
    const sealed = Array.from({ length: 150 }, (_, i) => [crypto.encrypt(`secret-${i}`), `secret-${i}`] as const);
    for (const [value, plain] of sealed) expect(crypto.decrypt(value)).toBe(plain);
    for (const [value, plain] of sealed) expect(crypto.decrypt(value)).toBe(plain);
  });
});

describe('CryptoService during a rotation (CHECKOUT_SECRET_PREVIOUS)', () => {
  const oldSecret = config.checkoutSecret!;
  const newSecret = 'the-new-master-secret-that-is-long-enough-for-the-tests';
  const before = new CryptoService(config);
  const rotating = new CryptoService({ ...config, checkoutSecret: newSecret, checkoutSecretPrevious: oldSecret } as AppConfig);
  const after = new CryptoService({ ...config, checkoutSecret: newSecret } as AppConfig);

  it('opens values sealed under either secret, says which, and seals under the new one only', () => {
    const old = before.encrypt('sk_test_old');
    expect(rotating.decrypt(old)).toBe('sk_test_old');
    expect(rotating.openSealed(old)).toEqual({ plaintext: 'sk_test_old', current: false });
    const fresh = rotating.encrypt('sk_test_new');
    expect(rotating.openSealed(fresh)).toEqual({ plaintext: 'sk_test_new', current: true });
    expect(after.decrypt(fresh)).toBe('sk_test_new');
    expect(() => before.decrypt(fresh)).toThrow();
    expect(() => after.decrypt(old)).toThrow();
  });

  it('signs with the new secret and offers the old one as a second candidate, which ends with the rotation', () => {
    expect(rotating.hmac('checkout-token', 'x').equals(after.hmac('checkout-token', 'x'))).toBe(true);
    expect(rotating.hmacCandidates('checkout-token', 'x').map((mac) => mac.toString('hex'))).toEqual([after.hmac('checkout-token', 'x').toString('hex'), before.hmac('checkout-token', 'x').toString('hex')]);
    expect(after.hmacCandidates('checkout-token', 'x')).toHaveLength(1);
    expect(rotating.hmacSigners('checkout-token').map((sign) => sign('x').toString('hex'))).toEqual(rotating.hmacCandidates('checkout-token', 'x').map((mac) => mac.toString('hex')));
    expect(rotating.rotating).toBe(true);
    expect(after.rotating).toBe(false);
    expect(rotating.keyId).toBe(after.keyId);
    expect(rotating.keyId).not.toBe(before.keyId);
  });

  it('refuses a key file that holds the previous secret, and makes no key file while rotating', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rotation-'));
    expect(() => new CryptoService({ dataDir: dir, checkoutSecretPrevious: oldSecret } as AppConfig)).toThrow(/CHECKOUT_SECRET_PREVIOUS needs a current secret/);
    expect(existsSync(join(dir, 'secret.key'))).toBe(false);
    writeFileSync(join(dir, 'secret.key'), `${'k'.repeat(64)}\n`);
    expect(() => new CryptoService({ dataDir: dir, checkoutSecretPrevious: 'k'.repeat(64) } as AppConfig)).toThrow(/must differ/);
    expect(new CryptoService({ dataDir: dir, checkoutSecretPrevious: oldSecret } as AppConfig).rotating).toBe(true);
  });
});
