import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../../config/index.js';
import { ensurePrivateDir } from '../storage/index.js';

/**
 * The site's master secret: CHECKOUT_SECRET when set, otherwise a random key kept in
 * `<dataDir>/secret.key` (created on first boot with mode 0600, in a 0700 directory when the
 * service creates it). `generate: false` (a rotation is under way) refuses to make a new key file:
 * a fresh key then would only lock the previous secret's data out.
 */
export function resolveMasterSecret(explicit: string | undefined, dataDir: string, options: { generate?: boolean } = {}): Buffer {
  if (explicit) return Buffer.from(explicit, 'utf8');
  const file = join(dataDir, 'secret.key');
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length < 43) throw new Error(`The key file ${file} is too short; remove it or set CHECKOUT_SECRET`);
    return Buffer.from(stored, 'utf8');
  }
  if (options.generate === false) throw new ConfigError('CHECKOUT_SECRET_PREVIOUS', `needs a current secret: set CHECKOUT_SECRET, or put the new key in ${file}`);
  ensurePrivateDir(dataDir);
  const generated = randomBytes(48).toString('base64url');
  writeFileSync(file, `${generated}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return Buffer.from(generated, 'utf8');
}
