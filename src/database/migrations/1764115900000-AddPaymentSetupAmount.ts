import { type MigrationInterface, type QueryRunner, TableColumn } from 'typeorm';
import { prefixed } from './schema-helpers.js';

/**
 * The setup fee of a recurring price, fixed on the payment record when the payer's details are
 * synced, so the first invoice charges what the payer was shown even if the form changes later.
 */
export class AddPaymentSetupAmount1764115900000 implements MigrationInterface {
  name = 'AddPaymentSetupAmount1764115900000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(prefixed(queryRunner, 'checkout_payments'), new TableColumn({ name: 'setup_amount', type: 'integer', isNullable: true }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn(prefixed(queryRunner, 'checkout_payments'), 'setup_amount');
  }
}
