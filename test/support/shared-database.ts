import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A database that outlives one app instance, for restart and multi-instance tests: the MySQL/MariaDB
 * of DATABASE_URL when the suite runs there (boot the first instance without `keepDatabase` to
 * empty it, later ones with it), otherwise a fresh SQLite file.
 */
export function sharedDatabaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (url && /^(mysql|mariadb):/.test(url)) return url;
  return `sqlite:${join(mkdtempSync(join(tmpdir(), 'checkout-shared-db-')), 'checkout.sqlite')}`;
}
