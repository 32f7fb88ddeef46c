import { randomInt } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const LENGTH = 24; // 24 symbols of 62 = 142 bits

/** A new application password in the host platform's display form: `abcd efgh ijkl mnop qrst uvwx`. */
export function generateApplicationPassword(): string {
  let raw = '';
  for (let i = 0; i < LENGTH; i += 1) raw += ALPHABET[randomInt(ALPHABET.length)];
  return raw.match(/.{4}/g)!.join(' ');
}

/** Clients may send the password with or without the display spaces. */
export function normaliseApplicationPassword(password: string): string {
  return password.replace(/\s+/g, '');
}
