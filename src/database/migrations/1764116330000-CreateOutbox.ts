import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import { idColumn, integer, prefixed, timestampColumn, varchar } from './schema-helpers.js';

/**
 * The transactional outbox: work due after a commit (payment emails, the tagging forward) is
 * written in the transaction it follows, then done by a worker on any instance, which claims an
 * item with a lease (`claimed_by`, `claim_expires_at`) before it does it.
 */
export class CreateOutbox1764116330000 implements MigrationInterface {
  name = 'CreateOutbox1764116330000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const outbox = prefixed(queryRunner, 'checkout_outbox');
    await queryRunner.createTable(
      new Table({
        name: outbox,
        columns: [
          idColumn(),
          varchar('topic', 60),
          varchar('item_key', 150),
          { name: 'payload', type: 'text', isNullable: false },
          varchar('status', 16),
          { ...integer('attempts'), default: 0 },
          varchar('progress', 255, true),
          timestampColumn(queryRunner, 'next_attempt_at'),
          varchar('claimed_by', 64, true),
          timestampColumn(queryRunner, 'claim_expires_at', true),
          varchar('last_error', 255, true),
          timestampColumn(queryRunner, 'created_at'),
          timestampColumn(queryRunner, 'updated_at'),
          timestampColumn(queryRunner, 'finished_at', true),
        ],
        uniques: [{ name: `UQ_${outbox}_topic_key`, columnNames: ['topic', 'item_key'] }],
        indices: [{ name: `IDX_${outbox}_due`, columnNames: ['status', 'next_attempt_at'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable(prefixed(queryRunner, 'checkout_outbox'));
  }
}
