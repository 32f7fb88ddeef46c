// A database per Jest worker on MySQL/MariaDB. Test files run in parallel workers, and each
// test file empties its database when it starts (test/support/test-app.ts), so two workers must
// never share one: worker N uses `<database>_w<N>` of the DATABASE_URL it was given. The
// database is created when missing (startTestApp). SQLite needs nothing: tests use in-memory
// databases or files of their own.

const MYSQL_URL = /^(mysql|mariadb):\/\//;

/**
 * The worker's own database URL for `url` (unchanged for SQLite or when not run by Jest).
 * `url` names the base database, e.g. mysql://root@127.0.0.1:3306/test -> .../test_w2.
 */
function workerDatabaseUrl(url, workerId) {
  if (!url || !MYSQL_URL.test(url) || !workerId) return url;
  const parsed = new URL(url);
  const base = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  if (!/^\w+$/.test(base)) throw new Error(`DATABASE_URL must name a database of letters, digits and _ (got "${base}")`);
  const name = `${base}_w${workerId}`;
  if (name.length > 64) throw new Error(`The worker database name ${name} is longer than 64 characters`);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

module.exports = { workerDatabaseUrl };
