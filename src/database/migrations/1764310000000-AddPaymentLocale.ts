import { type MigrationInterface, type QueryRunner, TableColumn } from 'typeorm';
import { isMysql, prefixed, varchar } from './schema-helpers.js';

/**
 * The payer's language the payment's page was shown in (issue 32: `de`, `pt-BR`, …), which later
 * emails to the payer use. Nullable, no default: older rows and the previous release's INSERT
 * during a rolling deploy have none (their emails use the site's default language).
 *
 * MySQL/MariaDB: one plain ALTER TABLE, as migration 1764119000000 explains (the generated column
 * of the payments table).
 */
export class AddPaymentLocale1764310000000 implements MigrationInterface {
  name = 'AddPaymentLocale1764310000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const table = prefixed(queryRunner, 'checkout_payments');
    if (isMysql(queryRunner)) {
      await queryRunner.query(`ALTER TABLE \`${table}\` ADD COLUMN \`locale\` varchar(10) NULL`);
      return;
    }
    await queryRunner.addColumn(table, new TableColumn(varchar('locale', 10, true)));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const table = prefixed(queryRunner, 'checkout_payments');
    if (isMysql(queryRunner)) {
      await queryRunner.query(`ALTER TABLE \`${table}\` DROP COLUMN \`locale\``);
      return;
    }
    await queryRunner.dropColumn(table, 'locale');
  }
}
