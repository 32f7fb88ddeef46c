import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';

/**
 * The data directory holds the SQLite database (PII, sealed gateway secrets, password hashes),
 * the generated master key and the mail outbox: only the service's own user may read it.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** `mkdir -p` whose new directories are 0700; existing directories keep their mode (the operator's choice). */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

export async function ensurePrivateDirAsync(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/** Creates `file` (empty) with mode 0600 when it does not exist, and narrows an existing one to 0600. */
export function ensurePrivateFile(file: string): void {
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  restrictToOwner(file);
}

/**
 * Narrows an existing file that group or others may access to 0600 (files created before this
 * rule). Best effort: a file the service does not own (a read-only mount) is left as it is.
 */
export function restrictToOwner(file: string): void {
  try {
    if (existsSync(file) && (statSync(file).mode & 0o077) !== 0) chmodSync(file, PRIVATE_FILE_MODE);
  } catch {
    // not ours to change
  }
}
