import { type MigrationInterface, type QueryRunner, TableIndex } from 'typeorm';
import { isMysql, prefixed } from './schema-helpers.js';

/**
 * The admin payments list filtered by form (issue 36): `(form_id, created_at)` instead of
 * `form_id` alone, so the newest payments of a form are an index range read in the list's order
 * (with `form_id` alone, each request read and sorted all of a form's payments: 100,000 of the
 * million measured, 0.2 s on SQLite). The new index serves every lookup the old one did (its first
 * column is the same), so the old one goes.
 *
 * MySQL/MariaDB: plain statements. The payments table holds a generated column (migration
 * 1764116500000), and TypeORM's index helpers read such a table through its `typeorm_metadata`
 * table, which this schema does not have (as migration 1764119000000 says).
 */
export class IndexPaymentFormByCreation1764300000100 implements MigrationInterface {
  name = 'IndexPaymentFormByCreation1764300000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    const payments = prefixed(queryRunner, 'checkout_payments');
    if (isMysql(queryRunner)) {
      await queryRunner.query(`ALTER TABLE \`${payments}\` ADD INDEX \`IDX_${payments}_form_created\` (\`form_id\`, \`created_at\`), DROP INDEX \`IDX_${payments}_form\``);
      return;
    }
    await queryRunner.createIndex(payments, new TableIndex({ name: `IDX_${payments}_form_created`, columnNames: ['form_id', 'created_at'] }));
    await queryRunner.dropIndex(payments, `IDX_${payments}_form`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const payments = prefixed(queryRunner, 'checkout_payments');
    if (isMysql(queryRunner)) {
      await queryRunner.query(`ALTER TABLE \`${payments}\` ADD INDEX \`IDX_${payments}_form\` (\`form_id\`), DROP INDEX \`IDX_${payments}_form_created\``);
      return;
    }
    await queryRunner.createIndex(payments, new TableIndex({ name: `IDX_${payments}_form`, columnNames: ['form_id'] }));
    await queryRunner.dropIndex(payments, `IDX_${payments}_form_created`);
  }
}
