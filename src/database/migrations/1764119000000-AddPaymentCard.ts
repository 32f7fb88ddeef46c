import { type MigrationInterface, type QueryRunner, TableColumn } from 'typeorm';
import { isMysql, prefixed, varchar } from './schema-helpers.js';

/**
 * The brand and last four digits of the card that paid (the payment log's "with a Visa card ending
 * 4242"), read from the provider's charge when the payment succeeds. Nullable, no default: older
 * rows and the previous release's INSERT during a rolling deploy give them no value.
 *
 * MySQL/MariaDB: one plain ALTER TABLE. The payments table holds a generated column
 * (`provider_ref_key`, migration 1764116500000), and TypeORM's `addColumn` reads a table with a
 * generated column through its own `typeorm_metadata` table, which this schema does not have: on
 * an installation that upgrades (the table loaded afresh) it would fail.
 */
export class AddPaymentCard1764119000000 implements MigrationInterface {
  name = 'AddPaymentCard1764119000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const table = prefixed(queryRunner, 'checkout_payments');
    if (isMysql(queryRunner)) {
      await queryRunner.query(`ALTER TABLE \`${table}\` ADD COLUMN \`card_brand\` varchar(32) NULL, ADD COLUMN \`card_last4\` varchar(4) NULL`);
      return;
    }
    await queryRunner.addColumns(table, [new TableColumn(varchar('card_brand', 32, true)), new TableColumn(varchar('card_last4', 4, true))]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const table = prefixed(queryRunner, 'checkout_payments');
    if (isMysql(queryRunner)) {
      await queryRunner.query(`ALTER TABLE \`${table}\` DROP COLUMN \`card_last4\`, DROP COLUMN \`card_brand\``);
      return;
    }
    await queryRunner.dropColumn(table, 'card_last4');
    await queryRunner.dropColumn(table, 'card_brand');
  }
}
