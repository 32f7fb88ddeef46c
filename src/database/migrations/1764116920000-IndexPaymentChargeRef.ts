import { type MigrationInterface, type QueryRunner, TableIndex } from 'typeorm';
import { prefixed } from './schema-helpers.js';

/**
 * An index on `(gateway, provider_charge_ref)`: refunds and disputes read back from a provider name
 * the object that took the money, which for a subscription's payments is the invoice's payment
 * (`provider_charge_ref`), not `provider_payment_ref`; each one is looked up by it.
 */
export class IndexPaymentChargeRef1764116920000 implements MigrationInterface {
  name = 'IndexPaymentChargeRef1764116920000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const payments = prefixed(queryRunner, 'checkout_payments');
    await queryRunner.createIndex(payments, new TableIndex({ name: `IDX_${payments}_charge_ref`, columnNames: ['gateway', 'provider_charge_ref'] }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const payments = prefixed(queryRunner, 'checkout_payments');
    await queryRunner.dropIndex(payments, `IDX_${payments}_charge_ref`);
  }
}
