import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** The additional authenticated data of every token: a token of another purpose never opens as one. */
const AAD = Buffer.from('checkout:payer-manage-link:v1', 'utf8');
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Issue time (seconds since the epoch, 6 bytes) then the address. */
const TIME_BYTES = 6;
/** The plaintext is padded to a multiple of this, so a token's length says little about the address's. */
const PAD_TO = 32;
/** RFC 5321's longest path; anything longer is no address we sent to. */
const MAX_EMAIL_BYTES = 254;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** What a token carries once opened. */
export interface PayerLinkClaims {
  email: string;
  issuedAt: Date;
}

/**
 * A payer's manage token (docs/security.md, "The payer's manage link"): AES-256-GCM (random 12-byte
 * IV, 16-byte tag) of the issue time and the lower-cased address, base64url. Opaque (neither the
 * address nor any id can be read in it) and unforgeable without the key; the key binds it to the
 * installation and the link version (PayerLinks derives it).
 */
export function sealPayerLink(key: Buffer, claims: PayerLinkClaims): string {
  const address = Buffer.from(claims.email, 'utf8');
  if (address.length === 0 || address.length > MAX_EMAIL_BYTES || address.includes(0)) throw new Error('Not an address a payer link can carry');
  const time = Buffer.alloc(TIME_BYTES);
  time.writeUIntBE(Math.floor(claims.issuedAt.getTime() / 1000), 0, TIME_BYTES);
  const plain = Buffer.concat([time, address]);
  const padded = Buffer.concat([plain, Buffer.alloc((PAD_TO - (plain.length % PAD_TO)) % PAD_TO)]);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(AAD);
  const body = Buffer.concat([cipher.update(padded), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The claims of a token sealed under `key`, or null (not base64url, truncated, tampered, another key). */
export function openPayerLink(key: Buffer, token: string): PayerLinkClaims | null {
  if (token.length > 512 || !BASE64URL.test(token)) return null;
  const raw = Buffer.from(token, 'base64url');
  if (raw.length < IV_BYTES + TAG_BYTES + PAD_TO || (raw.length - IV_BYTES - TAG_BYTES) % PAD_TO !== 0) return null;
  // base64url has more than one spelling of the same bytes (the unused low bits of the last character): only the canonical one is a token.
  if (raw.toString('base64url') !== token) return null;
  let plain: Buffer;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
    decipher.setAAD(AAD);
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    plain = Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
  } catch {
    return null;
  }
  const end = plain.indexOf(0, TIME_BYTES);
  const address = plain.subarray(TIME_BYTES, end === -1 ? plain.length : end);
  if (address.length === 0) return null;
  return { email: address.toString('utf8'), issuedAt: new Date(plain.readUIntBE(0, TIME_BYTES) * 1000) };
}
