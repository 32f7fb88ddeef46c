import Database from 'better-sqlite3';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, createWriteStream, existsSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AppConfig } from '../config/index.js';
import { buildDataSourceOptions, databaseKind } from './data-source-options.js';

type BackupConfig = Pick<AppConfig, 'databaseUrl' | 'dataDir' | 'tablePrefix'>;

export interface BackupResult {
  file: string;
  kind: 'sqlite' | 'mysql';
}

/** mariadb-dump is not on PATH: the command to run where it is (docs/operations.md, "Backup"). */
export class DumpToolMissingError extends Error {}

/** `checkout-backup-20261128T150405Z.sqlite` (or `.sql`) in the working directory. */
export function defaultBackupFile(config: BackupConfig, now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return resolve(`checkout-backup-${stamp}.${databaseKind(config) === 'mysql' ? 'sql' : 'sqlite'}`);
}

/**
 * The mariadb-dump line for a consistent dump of a running MariaDB (InnoDB snapshot, no table
 * locks), without the password (give it in MYSQL_PWD or an option file, never in argv).
 */
export function mariadbDumpArguments(config: BackupConfig): string[] {
  const options = buildDataSourceOptions(config);
  if (options.type !== 'mysql') throw new Error('mariadb-dump is for MariaDB/MySQL');
  return ['--single-transaction', '--quick', '--routines', '--triggers', '--hex-blob', `--host=${options.host}`, `--port=${options.port}`, `--user=${options.username}`, String(options.database)];
}

/**
 * `npm run cli -- backup`: SQLite's online backup API (better-sqlite3's `backup()`, consistent while
 * the service runs and writes), or mariadb-dump when it is on PATH (DumpToolMissingError otherwise).
 * The file is created 0600 and never overwritten. It holds neither CHECKOUT_SECRET nor secret.key.
 */
export async function backupDatabase(config: BackupConfig, out: string): Promise<BackupResult> {
  const file = resolve(out);
  if (existsSync(file)) throw new Error(`${file} exists; name a new file with --out`);
  if (databaseKind(config) === 'mysql') {
    await dumpMariadb(config, file);
    return { file, kind: 'mysql' };
  }
  const options = buildDataSourceOptions(config);
  const source = String(options.database);
  if (source === ':memory:') throw new Error('An in-memory SQLite database has nothing to back up');
  const db = new Database(source, { readonly: true, fileMustExist: true });
  try {
    await db.backup(file);
  } catch (error) {
    rmSync(file, { force: true });
    throw error;
  } finally {
    db.close();
  }
  chmodSync(file, 0o600);
  return { file, kind: 'sqlite' };
}

async function dumpMariadb(config: BackupConfig, file: string): Promise<void> {
  const args = mariadbDumpArguments(config);
  if (spawnSync('mariadb-dump', ['--version'], { stdio: 'ignore' }).error) {
    throw new DumpToolMissingError(`mariadb-dump is not on PATH. Run, where it is (password in MYSQL_PWD):\n  mariadb-dump ${args.join(' ')} > ${file}`);
  }
  const options = buildDataSourceOptions(config);
  const password = options.type === 'mysql' ? options.password : undefined;
  const output = createWriteStream(file, { flags: 'wx', mode: 0o600 });
  const child = spawn('mariadb-dump', args, { env: { ...process.env, ...(password ? { MYSQL_PWD: String(password) } : {}) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-2000)));
  child.stdout.pipe(output);
  const code = await new Promise<number | null>((done, fail) => {
    child.on('error', fail);
    child.on('close', done);
  });
  await new Promise<void>((done) => (output.closed ? done() : output.on('close', () => done())));
  if (code !== 0) {
    rmSync(file, { force: true });
    throw new Error(`mariadb-dump failed (exit ${code}): ${stderr.trim()}`);
  }
}
