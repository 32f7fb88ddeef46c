import { type MigrationInterface, type QueryRunner, TableColumn } from 'typeorm';
import { prefixed } from './schema-helpers.js';

/**
 * Why a payment failed, as the provider said it (code, decline code, message; JSON text bounded
 * on write by the entity's transformer). Nullable with no default: the previous release's fixed
 * INSERT names its own columns and keeps working during a rolling deploy.
 */
export class AddPaymentFailureReason1764116510000 implements MigrationInterface {
  name = 'AddPaymentFailureReason1764116510000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(prefixed(queryRunner, 'checkout_payments'), new TableColumn({ name: 'failure_reason', type: 'text', isNullable: true }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn(prefixed(queryRunner, 'checkout_payments'), 'failure_reason');
  }
}
