import { type MigrationInterface, type QueryRunner, TableIndex } from 'typeorm';
import { isMysql, prefixed } from './schema-helpers.js';

/**
 * The dashboard's 30-day money at a million payments (issue 36): one index that holds every column
 * the ledger's sums read (`PaymentRepository.ledgerSums`), so a period is one range of it and no
 * payment row is fetched. Before, each of the period's payments (~42,000 of 1,000,000 in the size
 * run) was found through `created_at` and then read from the table for its amounts.
 *
 * Whether a payment has a dispute is the one fact no plain index can hold: `dispute` is TEXT.
 * - MySQL/MariaDB: a virtual generated column `has_dispute` (`dispute IS NOT NULL`), indexed; no
 *   row is rewritten, the index is built in place. Like `provider_ref_key` it is the database's
 *   alone: the entity does not map it, and only the ledger's query names it. Plain statements, as
 *   in migration 1764300000100 (TypeORM's index helpers cannot read a table with a generated
 *   column there).
 * - SQLite: `dispute` itself is the index's last column (SQLite indexes TEXT whole; it is NULL on
 *   almost every payment), and the query's `dispute IS NOT NULL` is answered from the index.
 */
export class CoverDashboardLedger1764340000000 implements MigrationInterface {
  name = 'CoverDashboardLedger1764340000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const payments = prefixed(queryRunner, 'checkout_payments');
    const leading = ['created_at', 'mode', 'currency', 'status', 'amount_received', 'amount_refunded', 'application_fee_amount'];
    if (isMysql(queryRunner)) {
      await queryRunner.query(
        `ALTER TABLE \`${payments}\` ADD COLUMN \`has_dispute\` tinyint(1) GENERATED ALWAYS AS (\`dispute\` IS NOT NULL) VIRTUAL,` +
          ` ADD INDEX \`IDX_${payments}_ledger\` (${[...leading, 'has_dispute'].map((column) => `\`${column}\``).join(', ')})`,
      );
      return;
    }
    await queryRunner.createIndex(payments, new TableIndex({ name: `IDX_${payments}_ledger`, columnNames: [...leading, 'dispute'] }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const payments = prefixed(queryRunner, 'checkout_payments');
    if (isMysql(queryRunner)) {
      await queryRunner.query(`ALTER TABLE \`${payments}\` DROP INDEX \`IDX_${payments}_ledger\`, DROP COLUMN \`has_dispute\``);
      return;
    }
    await queryRunner.dropIndex(payments, `IDX_${payments}_ledger`);
  }
}
