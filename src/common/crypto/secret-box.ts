import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

const VERSION_PREFIX = 'v1:';

/** Derives a purpose-bound 32-byte key from the master secret (HKDF-SHA256). */
export function deriveKey(master: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), `checkout:${purpose}`, 32));
}

/** AES-256-GCM sealing for secrets at rest: `v1:` + base64url(iv | tag | ciphertext). */
export function seal(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return VERSION_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

export function open(key: Buffer, sealed: string): string {
  if (!sealed.startsWith(VERSION_PREFIX)) throw new Error('Unknown sealed-secret format');
  const raw = Buffer.from(sealed.slice(VERSION_PREFIX.length), 'base64url');
  if (raw.length < 28) throw new Error('Sealed secret is truncated');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

export function hmacSha256(key: Buffer | string, data: string | Buffer): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

/** Constant-time equality for strings of possibly different length. */
export function safeEqual(a: string | Buffer, b: string | Buffer): boolean {
  const left = Buffer.isBuffer(a) ? a : Buffer.from(a, 'utf8');
  const right = Buffer.isBuffer(b) ? b : Buffer.from(b, 'utf8');
  if (left.length !== right.length) return false;
  return timingSafeEqual(left, right);
}

/**
 * A display mask that never reveals the secret: a known key prefix (`sk_test_`, `whsec_`, ...)
 * and the last four characters, e.g. `sk_test_…4242`.
 */
export function maskSecret(secret: string): string {
  if (secret.length < 12) return '…';
  const prefix = /^[a-z]{2,8}_(?:(?:test|live)_)?/i.exec(secret)?.[0] ?? '';
  return `${prefix}…${secret.slice(-4)}`;
}
