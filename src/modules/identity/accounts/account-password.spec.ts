import { accountPasswordLengthOk, dummyPasswordCheck, hashAccountPassword, needsRehash, SCRYPT_PARAMETERS, verifyAccountPassword } from './account-password.js';

describe('account passwords (scrypt)', () => {
  it('stores scrypt$N$r$p$salt$key with today\'s parameters and a fresh salt, and verifies it', async () => {
    const first = await hashAccountPassword('correct horse battery staple');
    const second = await hashAccountPassword('correct horse battery staple');
    const { N, r, p } = SCRYPT_PARAMETERS;
    expect(first).toMatch(new RegExp(`^scrypt\\$${N}\\$${r}\\$${p}\\$[A-Za-z0-9_-]{22}\\$[A-Za-z0-9_-]{43}$`));
    expect(second).not.toBe(first);
    expect(await verifyAccountPassword('correct horse battery staple', first)).toBe(true);
    expect(await verifyAccountPassword('correct horse battery stapler', first)).toBe(false);
    expect(await verifyAccountPassword('correct horse battery staple', 'not a hash')).toBe(false);
    expect(needsRehash(first)).toBe(false);
  });

  it('verifies a hash made with other parameters (they travel with it) and says it needs a new one', async () => {
    const older = await hashAccountPassword('an older password hash', { N: 2 ** 10, r: 8, p: 1, keyLength: 32, saltLength: 16 });
    expect(older.startsWith('scrypt$1024$8$1$')).toBe(true);
    expect(await verifyAccountPassword('an older password hash', older)).toBe(true);
    expect(needsRehash(older)).toBe(true);
  });

  it('treats canonically equivalent Unicode the same (NFC)', async () => {
    const composed = await hashAccountPassword('caf\u00e9 au lait, please');
    expect(await verifyAccountPassword('cafe\u0301 au lait, please', composed)).toBe(true);
  });

  it('counts the length in characters: 12 to 256', () => {
    expect(accountPasswordLengthOk('a'.repeat(11))).toBe(false);
    expect(accountPasswordLengthOk('a'.repeat(12))).toBe(true);
    expect(accountPasswordLengthOk('😀'.repeat(12))).toBe(true);
    expect(accountPasswordLengthOk('a'.repeat(256))).toBe(true);
    expect(accountPasswordLengthOk('a'.repeat(257))).toBe(false);
  });

  it('runs a dummy check that always fails', async () => {
    await expect(dummyPasswordCheck('anything at all')).resolves.toBe(false);
  });
});
