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
