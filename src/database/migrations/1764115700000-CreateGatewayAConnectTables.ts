import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import { idColumn, integer, prefixed, timestampColumn, varchar } from './schema-helpers.js';

/**
 * Gateway A's connect flow and webhook bookkeeping:
 * - connect states already used (a unique nonce makes reuse detection race-free),
 * - task leases (one runner of a background task across instances),
 * - received webhook events (unique provider + event id: a redelivery changes nothing).
 */
export class CreateGatewayAConnectTables1764115700000 implements MigrationInterface {
  name = 'CreateGatewayAConnectTables1764115700000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const states = prefixed(queryRunner, 'checkout_connect_states');
    const leases = prefixed(queryRunner, 'checkout_task_leases');
    const events = prefixed(queryRunner, 'checkout_webhook_events');

    await queryRunner.createTable(
      new Table({
        name: states,
        columns: [
          { ...varchar('nonce', 64), isPrimary: true },
          integer('user_id'),
          varchar('mode', 4),
          timestampColumn(queryRunner, 'expires_at'),
          timestampColumn(queryRunner, 'used_at'),
        ],
        indices: [{ name: `IDX_${states}_expires`, columnNames: ['expires_at'] }],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: leases,
        columns: [
          { ...varchar('name', 100), isPrimary: true },
          varchar('owner', 64),
          timestampColumn(queryRunner, 'acquired_at'),
          timestampColumn(queryRunner, 'expires_at'),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: events,
        columns: [
          idColumn(),
          varchar('provider', 20),
          varchar('event_id', 191),
          varchar('event_type', 100),
          varchar('mode', 4),
          varchar('status', 20),
          integer('payment_id', true),
          timestampColumn(queryRunner, 'received_at'),
          timestampColumn(queryRunner, 'processed_at', true),
        ],
        uniques: [{ name: `UQ_${events}_provider_event`, columnNames: ['provider', 'event_id'] }],
        indices: [{ name: `IDX_${events}_received`, columnNames: ['received_at'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const name of ['checkout_webhook_events', 'checkout_task_leases', 'checkout_connect_states']) {
      await queryRunner.dropTable(prefixed(queryRunner, name));
    }
  }
}
