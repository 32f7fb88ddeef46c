import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import { idColumn, isMysql, prefixed, timestampColumn, varchar } from './schema-helpers.js';

/**
 * `Idempotency-Key` of the public creating POSTs (docs/payments.md, "Idempotent creation"): one
 * row per (client, route, key) holding the hash of the request and, once it succeeded, the ids of
 * what it created; never a secret. A running row is a lease until `expires_at`; a finished one
 * answers repeats until `expires_at` (24 hours after the first request).
 */
export class CreateIdempotencyKeys1764116400000 implements MigrationInterface {
  name = 'CreateIdempotencyKeys1764116400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const keys = prefixed(queryRunner, 'checkout_idempotency_keys');
    // Keys are compared byte for byte (`abc` and `ABC` are two keys), as on SQLite.
    const exactAscii = isMysql(queryRunner) ? { charset: 'ascii', collation: 'ascii_bin' } : {};
    await queryRunner.createTable(
      new Table({
        name: keys,
        columns: [
          idColumn(),
          { ...varchar('client_hash', 64), ...exactAscii },
          { ...varchar('route', 64), ...exactAscii },
          { ...varchar('idempotency_key', 255), ...exactAscii },
          { ...varchar('request_hash', 64), ...exactAscii },
          varchar('state', 10),
          varchar('lease_token', 36, true),
          varchar('result', 255, true),
          timestampColumn(queryRunner, 'created_at'),
          timestampColumn(queryRunner, 'expires_at'),
        ],
        uniques: [{ name: `UQ_${keys}_client_route_key`, columnNames: ['client_hash', 'route', 'idempotency_key'] }],
        indices: [{ name: `IDX_${keys}_expires_at`, columnNames: ['expires_at'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable(prefixed(queryRunner, 'checkout_idempotency_keys'));
  }
}
