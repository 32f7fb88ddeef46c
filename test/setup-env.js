// Every test file runs in UTC with quiet logs; e2e helpers set the rest per app instance.
process.env.TZ = 'UTC';
process.env.LOG_LEVEL = process.env.LOG_LEVEL || 'silent';

// On MySQL/MariaDB each Jest worker uses a database of its own, derived from DATABASE_URL
// (test/support/worker-database.js). Each test file gets a fresh copy of the runner's
// environment; TEST_BASE_DATABASE_URL keeps the base URL, so this never derives twice.
const { workerDatabaseUrl } = require('./support/worker-database.js');

if (process.env.DATABASE_URL) {
  process.env.TEST_BASE_DATABASE_URL = process.env.TEST_BASE_DATABASE_URL || process.env.DATABASE_URL;
  process.env.DATABASE_URL = workerDatabaseUrl(process.env.TEST_BASE_DATABASE_URL, process.env.JEST_WORKER_ID);
}
