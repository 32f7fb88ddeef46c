import type { DataSource } from 'typeorm';

/**
 * MariaDB Galera Cluster (docs/scaling.md "MariaDB Galera"): what the service does differently when
 * the server it talks to is a Galera node (`wsrep_on` = ON).
 *
 * - Causal reads: every pooled connection sets `wsrep_sync_wait = 1` for its session, so a read
 *   (SELECT, SHOW, BEGIN) first waits until this node has applied every write-set the cluster
 *   committed before it. Nearly every read of the service feeds a decision (a status check before
 *   a move, a webhook or idempotency replay lookup, the read-back after a claim, the migrations
 *   table after another node migrated); picking the few that do not is error-prone, and on a
 *   healthy cluster the wait is one round of the group's messages. Writes need no wait: a write
 *   made against a stale row fails certification (1213) and is run again (conflict-retry.ts).
 * - Readiness reads the node's own status variables with the wait switched off for that one
 *   statement (a causal read blocks during a view change, and fails on a node cut off from the
 *   primary component, which is exactly when readiness must answer at once).
 * - Migrations take a lock row instead of GET_LOCK, which Galera keeps node-local
 *   (migration-lock.ts, ClusterMigrationLock).
 */

/** The session setting each new pooled connection gets on a Galera node; harmless elsewhere. */
export const GALERA_SESSION_SQL = 'SET SESSION wsrep_sync_wait = IF(@@global.wsrep_on, 1, @@session.wsrep_sync_wait)';

/** wsrep_local_state: 4 is Synced (1 Joining, 2 Donor/Desynced, 3 Joined). */
export const WSREP_SYNCED = 4;

const galeraDataSources = new WeakMap<DataSource, Promise<boolean>>();

/** Whether the data source's server is a Galera node (`wsrep_on` = ON); asked once per data source. */
export function isGalera(dataSource: DataSource): Promise<boolean> {
  if (dataSource.options.type !== 'mysql' && dataSource.options.type !== 'mariadb') return Promise.resolve(false);
  let known = galeraDataSources.get(dataSource);
  if (!known) {
    known = dataSource
      .query("SHOW GLOBAL VARIABLES LIKE 'wsrep_on'")
      .then((rows: Array<{ Value?: string }>) => String(rows[0]?.Value ?? '').toUpperCase() === 'ON')
      // MySQL, TiDB and MariaDB builds without wsrep have no such variable: not Galera.
      .catch(() => false);
    galeraDataSources.set(dataSource, known);
    // A failed probe (server down at that moment) is asked again next time.
    void known.then((galera) => {
      if (!galera) galeraDataSources.delete(dataSource);
    });
  }
  return known;
}

interface PooledConnection {
  query(sql: string, callback: (error: { errno?: number; message?: string } | null) => void): void;
}
interface Pool {
  on(event: 'connection', listener: (connection: PooledConnection) => void): void;
}

/**
 * Sets GALERA_SESSION_SQL on every connection the mysql2 pool opens, before anything else runs on
 * it (mysql2 queues a connection's commands in order, and emits `connection` before handing it
 * out). Call before `initialize()`. `warn` hears about a connection that could not be set (it
 * keeps the server's default).
 */
export function installGaleraSession(dataSource: DataSource, warn: (message: string) => void): void {
  const driver = dataSource.driver as unknown as { createPool?: (options: unknown) => Promise<Pool> };
  const createPool = driver.createPool?.bind(driver);
  if (!createPool) return;
  driver.createPool = async (options: unknown) => {
    const pool = await createPool(options);
    pool.on('connection', (connection) =>
      connection.query(GALERA_SESSION_SQL, (error) => {
        // 1193: no such variable (MySQL, TiDB, a MariaDB without wsrep): nothing to set.
        if (error && error.errno !== 1193) warn(`wsrep_sync_wait not set on a new database connection: ${error.message ?? String(error)}`);
      }),
    );
    return pool;
  };
}

export interface DatabaseReadiness {
  ready: boolean;
  /** Why not, for the probe's answer (no secrets: status variable values only). */
  reason?: string;
}

/**
 * Whether the database can serve: on a Galera node its status variables (`wsrep_ready` = ON and
 * `wsrep_local_state` = 4 Synced) read without a causal wait, elsewhere `SELECT 1`.
 */
export async function databaseReadiness(dataSource: DataSource): Promise<DatabaseReadiness> {
  try {
    if (!(await isGalera(dataSource))) {
      await dataSource.query('SELECT 1');
      return { ready: true };
    }
    const rows = (await dataSource.query(
      "SET STATEMENT wsrep_sync_wait = 0 FOR SHOW GLOBAL STATUS WHERE Variable_name IN ('wsrep_ready', 'wsrep_local_state', 'wsrep_local_state_comment')",
    )) as Array<{ Variable_name: string; Value: string }>;
    const status = Object.fromEntries(rows.map((row) => [row.Variable_name.toLowerCase(), row.Value]));
    if (String(status.wsrep_ready).toUpperCase() === 'ON' && Number(status.wsrep_local_state) === WSREP_SYNCED) return { ready: true };
    return { ready: false, reason: `the Galera node is ${status.wsrep_local_state_comment ?? 'not synced'} (wsrep_ready ${status.wsrep_ready ?? 'unknown'})` };
  } catch {
    return { ready: false };
  }
}
