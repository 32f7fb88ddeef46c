import { type MigrationInterface, type QueryRunner, TableIndex } from 'typeorm';
import { isMysql, prefixed } from './schema-helpers.js';

/**
 * The dashboard's 30-day money (issue 36), SQLite: one index that holds every column the ledger's
 * sums read (`PaymentRepository.ledgerSums`), so a period is one range of it and no payment row is
 * fetched. Whether a payment has a dispute is the one fact a plain index holds only on SQLite:
 * `dispute` is TEXT, which SQLite indexes whole (it is NULL on almost every payment) and from which
 * it answers `dispute IS NOT NULL`.
 *
 * MySQL/MariaDB: nothing. MariaDB cannot index TEXT whole; the column it would need, a virtual
 * generated `dispute IS NOT NULL` with an index, was tried and taken out after a Galera run in which
 * a crashed node's `mariadbd --wsrep-recover` hung (docs/decisions.md §32). The dashboard
 * reads its period through `created_at` there and is within its budget at a million payments
 * (docs/benchmarks.md).
 */
export class CoverDashboardLedger1764340000000 implements MigrationInterface {
  name = 'CoverDashboardLedger1764340000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (isMysql(queryRunner)) return;
    const payments = prefixed(queryRunner, 'checkout_payments');
    const columns = ['created_at', 'mode', 'currency', 'status', 'amount_received', 'amount_refunded', 'application_fee_amount', 'dispute'];
    await queryRunner.createIndex(payments, new TableIndex({ name: `IDX_${payments}_ledger`, columnNames: columns }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (isMysql(queryRunner)) return;
    await queryRunner.dropIndex(prefixed(queryRunner, 'checkout_payments'), `IDX_${prefixed(queryRunner, 'checkout_payments')}_ledger`);
  }
}
