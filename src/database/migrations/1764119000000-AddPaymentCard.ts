import { type MigrationInterface, type QueryRunner, TableColumn } from 'typeorm';
import { prefixed, varchar } from './schema-helpers.js';

/**
 * The brand and last four digits of the card that paid (the payment log's "with a Visa card ending
 * 4242"), read from the provider's charge when the payment succeeds. Nullable, no default: older
 * rows and the previous release's INSERT during a rolling deploy give them no value.
 */
export class AddPaymentCard1764119000000 implements MigrationInterface {
  name = 'AddPaymentCard1764119000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const table = prefixed(queryRunner, 'checkout_payments');
    await queryRunner.addColumns(table, [new TableColumn(varchar('card_brand', 32, true)), new TableColumn(varchar('card_last4', 4, true))]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const table = prefixed(queryRunner, 'checkout_payments');
    await queryRunner.dropColumn(table, 'card_last4');
    await queryRunner.dropColumn(table, 'card_brand');
  }
}
