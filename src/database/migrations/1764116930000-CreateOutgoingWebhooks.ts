import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import { idColumn, integer, prefixed, timestampColumn, varchar } from './schema-helpers.js';

/**
 * Outgoing webhooks (docs/outgoing-webhooks.md): the merchant's endpoints (signing secrets sealed),
 * the events told to them (one row per payment move, `sequence` unique per payment) and one row per
 * delivery of an event to an endpoint with its last attempt.
 */
export class CreateOutgoingWebhooks1764116930000 implements MigrationInterface {
  name = 'CreateOutgoingWebhooks1764116930000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const endpoints = prefixed(queryRunner, 'checkout_webhook_endpoints');
    const events = prefixed(queryRunner, 'checkout_outgoing_events');
    const deliveries = prefixed(queryRunner, 'checkout_webhook_deliveries');
    await queryRunner.createTable(
      new Table({
        name: endpoints,
        columns: [
          idColumn(),
          varchar('url', 2048),
          { name: 'events', type: 'text', isNullable: false },
          varchar('description', 255, true),
          varchar('status', 16),
          { name: 'secret_sealed', type: 'text', isNullable: false },
          { name: 'previous_secret_sealed', type: 'text', isNullable: true },
          timestampColumn(queryRunner, 'previous_secret_expires_at', true),
          timestampColumn(queryRunner, 'created_at'),
          timestampColumn(queryRunner, 'updated_at'),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: events,
        columns: [idColumn(), varchar('type', 60), integer('payment_id'), integer('sequence'), { name: 'data', type: 'text', isNullable: false }, timestampColumn(queryRunner, 'created_at')],
        uniques: [{ name: `UQ_${events}_payment_sequence`, columnNames: ['payment_id', 'sequence'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: deliveries,
        columns: [
          idColumn(),
          integer('endpoint_id'),
          integer('event_id'),
          varchar('event_type', 60),
          varchar('status', 16),
          { ...integer('attempts'), default: 0 },
          timestampColumn(queryRunner, 'first_attempt_at', true),
          timestampColumn(queryRunner, 'last_attempt_at', true),
          integer('status_code', true),
          integer('duration_ms', true),
          { name: 'response_excerpt', type: 'text', isNullable: true },
          varchar('error', 255, true),
          timestampColumn(queryRunner, 'created_at'),
        ],
        indices: [{ name: `IDX_${deliveries}_endpoint`, columnNames: ['endpoint_id', 'id'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const name of ['checkout_webhook_deliveries', 'checkout_outgoing_events', 'checkout_webhook_endpoints']) await queryRunner.dropTable(prefixed(queryRunner, name));
  }
}
