import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import { idColumn, integer, prefixed, timestampColumn, varchar } from './schema-helpers.js';

/** The disputes of payments as their providers report them (docs/payments.md, "Refunds and disputes made at the provider"). */
export class CreatePaymentDisputes1764116910000 implements MigrationInterface {
  name = 'CreatePaymentDisputes1764116910000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const table = prefixed(queryRunner, 'checkout_payment_disputes');
    await queryRunner.createTable(
      new Table({
        name: table,
        columns: [
          idColumn(),
          integer('payment_id'),
          varchar('gateway', 20),
          varchar('provider_dispute_id', 191),
          varchar('status', 40),
          integer('amount'),
          varchar('currency', 3),
          varchar('reason', 64, true),
          timestampColumn(queryRunner, 'evidence_due_by', true),
          varchar('dashboard_url', 500),
          timestampColumn(queryRunner, 'opened_at'),
          timestampColumn(queryRunner, 'updated_at'),
        ],
        uniques: [{ name: `UQ_${table}_provider`, columnNames: ['gateway', 'provider_dispute_id'] }],
        indices: [{ name: `IDX_${table}_payment`, columnNames: ['payment_id'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable(prefixed(queryRunner, 'checkout_payment_disputes'));
  }
}
