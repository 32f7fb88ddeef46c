import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveMasterSecret } from './master-secret.js';

describe('resolveMasterSecret', () => {
  it('prefers CHECKOUT_SECRET and writes no file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'secret-'));
    expect(resolveMasterSecret('x'.repeat(32), dir).toString()).toBe('x'.repeat(32));
    expect(() => statSync(join(dir, 'secret.key'))).toThrow();
  });

  it('generates a private key file on first boot and reuses it afterwards', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'secret-')), 'data');
    const first = resolveMasterSecret(undefined, dir);
    const file = join(dir, 'secret.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(first.length).toBeGreaterThanOrEqual(43);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.toString());
    expect(resolveMasterSecret(undefined, dir).equals(first)).toBe(true);
  });

  it('refuses a truncated key file instead of silently weakening the key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'secret-'));
    writeFileSync(join(dir, 'secret.key'), 'short\n');
    expect(() => resolveMasterSecret(undefined, dir)).toThrow(/too short/);
  });
});
