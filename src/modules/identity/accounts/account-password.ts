import { randomBytes, scrypt as scryptCallback, type ScryptOptions, timingSafeEqual } from 'node:crypto';

/** Account passwords: 12 to 256 characters (Unicode code points), no composition rules (NIST SP 800-63B). */
export const ACCOUNT_PASSWORD_MIN = 12;
export const ACCOUNT_PASSWORD_MAX = 256;

/**
 * scrypt parameters of new hashes (docs/security.md): N = 2^15, r = 8, p = 3 — 32 MiB of memory per
 * hash, one of OWASP's equivalent settings for scrypt — a 32-byte key and a 16-byte random salt.
 * Each stored hash carries its own parameters, so raising these later keeps old hashes verifiable
 * (and `needsRehash` tells when to store a new one, at the next successful sign-in).
 */
export const SCRYPT_PARAMETERS = { N: 2 ** 15, r: 8, p: 3, keyLength: 32, saltLength: 16 } as const;

export interface ScryptParameters {
  N: number;
  r: number;
  p: number;
  keyLength: number;
  saltLength: number;
}

/** scrypt's memory is 128 · N · r bytes; Node refuses above `maxmem` (32 MiB by default). */
function options(parameters: Pick<ScryptParameters, 'N' | 'r' | 'p'>): ScryptOptions {
  return { N: parameters.N, r: parameters.r, p: parameters.p, maxmem: 128 * parameters.N * parameters.r * 2 };
}

function scrypt(password: string, salt: Buffer, keyLength: number, parameters: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCallback(password.normalize('NFC'), salt, keyLength, parameters, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** The length rule, in code points (what a person counts as characters). */
export function accountPasswordLengthOk(password: string): boolean {
  const length = [...password].length;
  return length >= ACCOUNT_PASSWORD_MIN && length <= ACCOUNT_PASSWORD_MAX;
}

/** `scrypt$<N>$<r>$<p>$<salt base64url>$<key base64url>`: the parameters travel with the hash. */
export async function hashAccountPassword(password: string, parameters: ScryptParameters = SCRYPT_PARAMETERS): Promise<string> {
  const salt = randomBytes(parameters.saltLength);
  const key = await scrypt(password, salt, parameters.keyLength, options(parameters));
  return ['scrypt', parameters.N, parameters.r, parameters.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

const STORED = /^scrypt\$(\d{1,8})\$(\d{1,3})\$(\d{1,3})\$([A-Za-z0-9_-]{16,128})\$([A-Za-z0-9_-]{16,256})$/;

/** Whether `password` matches `stored` (constant-time on the derived key; false for a malformed hash). */
export async function verifyAccountPassword(password: string, stored: string): Promise<boolean> {
  const match = STORED.exec(stored);
  if (!match) return false;
  const [N, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const salt = Buffer.from(match[4], 'base64url');
  const expected = Buffer.from(match[5], 'base64url');
  const key = await scrypt(password, salt, expected.length, options({ N, r, p }));
  return timingSafeEqual(key, expected);
}

/** True when `stored` was made with other parameters than today's (rehash it after a successful check). */
export function needsRehash(stored: string, parameters: ScryptParameters = SCRYPT_PARAMETERS): boolean {
  const match = STORED.exec(stored);
  return !match || Number(match[1]) !== parameters.N || Number(match[2]) !== parameters.r || Number(match[3]) !== parameters.p;
}

let dummy: Promise<string> | null = null;

/**
 * Spends the time of one real check for a login that has no account password (or does not exist),
 * so the answer time does not tell which logins exist. The hash it checks against is made once.
 */
export async function dummyPasswordCheck(password: string): Promise<false> {
  dummy ??= hashAccountPassword(randomBytes(16).toString('hex'));
  await verifyAccountPassword(password, await dummy);
  return false;
}
