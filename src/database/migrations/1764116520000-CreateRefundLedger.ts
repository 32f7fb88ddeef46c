import { type MigrationInterface, type QueryRunner, Table, TableColumn } from 'typeorm';
import { idColumn, integer, isMysql, prefixed, timestampColumn, varchar } from './schema-helpers.js';

/**
 * The money after a payment (issue 29): the refunds table and, on the payment, the refunded and
 * reserved amounts, the dispute, and the provider object a refund goes to.
 *
 * - `amount_refunded` / `refund_reserved` are NOT NULL DEFAULT 0: the reservation is one
 *   conditional UPDATE (`amount_received - amount_refunded - refund_reserved >= :x`), which a NULL
 *   would make false; the default keeps the previous release's INSERT (which names neither) working
 *   during a rolling deploy.
 * - `provider_charge_ref`: the provider object that took the money when it is not the payment's
 *   own ref (gateway A: the PaymentIntent of the invoice that paid a subscription's first payment
 *   or a renewal, stored when `invoice.paid` is applied).
 * - `dispute`: JSON text `{status, amount, reason, evidence_due_by, provider_dispute_id}`, bounded
 *   by the entity's transformer.
 * - Refunds: one provider refund per (gateway, provider_refund_id). As in migration 1764116500000,
 *   MySQL/MariaDB key it on a stored generated column that is never NULL (`ref:<id>` or
 *   `none:<row nonce>`), because Galera's certification counts a NULL of a unique key as a value
 *   and a refund is written before the provider names it; SQLite keeps a plain unique key (NULLs
 *   are distinct there).
 */
export class CreateRefundLedger1764116520000 implements MigrationInterface {
  name = 'CreateRefundLedger1764116520000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const payments = prefixed(queryRunner, 'checkout_payments');
    await queryRunner.addColumns(payments, [
      new TableColumn({ ...integer('amount_refunded'), default: 0 }),
      new TableColumn({ ...integer('refund_reserved'), default: 0 }),
      new TableColumn({ name: 'dispute', type: 'text', isNullable: true }),
      new TableColumn(varchar('provider_charge_ref', 255, true)),
    ]);

    const refunds = prefixed(queryRunner, 'checkout_refunds');
    await queryRunner.createTable(
      new Table({
        name: refunds,
        columns: [
          idColumn(),
          integer('payment_id'),
          varchar('gateway', 20),
          varchar('mode', 4),
          integer('amount'),
          varchar('currency', 3),
          varchar('status', 16),
          varchar('reason', 30, true),
          { name: 'note', type: 'text', isNullable: true },
          varchar('source', 16),
          varchar('provider_refund_id', 255, true),
          integer('application_fee_refunded', true),
          integer('created_by', true),
          varchar('failure_code', 100, true),
          varchar('failure_message', 500, true),
          varchar('row_nonce', 43),
          timestampColumn(queryRunner, 'created_at'),
          timestampColumn(queryRunner, 'updated_at'),
        ],
        uniques: isMysql(queryRunner) ? [] : [{ name: `UQ_${refunds}_provider_refund`, columnNames: ['gateway', 'provider_refund_id'] }],
        indices: [
          { name: `IDX_${refunds}_payment`, columnNames: ['payment_id', 'id'] },
          { name: `IDX_${refunds}_status`, columnNames: ['status', 'updated_at'] },
        ],
      }),
    );
    if (isMysql(queryRunner)) {
      await queryRunner.query(
        `ALTER TABLE \`${refunds}\`` +
          " ADD COLUMN `provider_refund_key` varchar(260) GENERATED ALWAYS AS (IF(`provider_refund_id` IS NULL, CONCAT('none:', `row_nonce`), CONCAT('ref:', `provider_refund_id`))) STORED," +
          ` ADD UNIQUE INDEX \`UQ_${refunds}_provider_refund_key\` (\`gateway\`, \`provider_refund_key\`)`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable(prefixed(queryRunner, 'checkout_refunds'));
    const payments = prefixed(queryRunner, 'checkout_payments');
    for (const column of ['provider_charge_ref', 'dispute', 'refund_reserved', 'amount_refunded']) await queryRunner.dropColumn(payments, column);
  }
}
