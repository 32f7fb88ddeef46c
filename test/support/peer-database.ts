import { createConnection } from 'mysql2/promise';

/**
 * A second, separate database for a second installation in the same test: a fresh in-memory
 * SQLite, or on MySQL/MariaDB a sibling of the test database (created when missing; the test app
 * empties it at start like its own).
 */
export async function peerDatabaseUrl(suffix = 'peer'): Promise<string> {
  const base = process.env.DATABASE_URL;
  if (!base || !base.startsWith('mysql')) return 'sqlite::memory:';
  const url = new URL(base);
  const name = `${url.pathname.replace(/^\//, '')}_${suffix}`;
  const connection = await createConnection({ host: url.hostname, port: Number(url.port || 3306), user: decodeURIComponent(url.username), password: decodeURIComponent(url.password) });
  try {
    await connection.query(`CREATE DATABASE IF NOT EXISTS \`${name}\``);
  } finally {
    await connection.end();
  }
  url.pathname = `/${name}`;
  return url.toString();
}
