import { type MigrationInterface, type QueryRunner, TableIndex } from 'typeorm';
import { isMysql, prefixed } from './schema-helpers.js';

/**
 * The reconciliation sweeps bounded at size (issue 36): gateway B's refund and dispute sweep reads
 * a gateway's completed payments of the refund window in (created_at, id) order from its cursor,
 * an ordered range of `(gateway, status, created_at)` (the id follows: InnoDB's and SQLite's
 * index entries end with the primary key); every sweep first reads the payments holding a pending
 * refund, a range of `(gateway, refund_reserved)` above 0. Before these both walked the primary
 * key from the start of history (the pending-refund read the whole table on every sweep). The
 * waiting-payments sweep uses the existing `(status, created_at)`.
 *
 * MySQL/MariaDB: plain statements, as in migration 1764300000100 (TypeORM's index helpers cannot
 * read a table with a generated column there).
 */
export class IndexReconciliationSweeps1764330000000 implements MigrationInterface {
  name = 'IndexReconciliationSweeps1764330000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const payments = prefixed(queryRunner, 'checkout_payments');
    if (isMysql(queryRunner)) {
      await queryRunner.query(
        `ALTER TABLE \`${payments}\` ADD INDEX \`IDX_${payments}_gateway_status_created\` (\`gateway\`, \`status\`, \`created_at\`),` +
          ` ADD INDEX \`IDX_${payments}_gateway_refund_reserved\` (\`gateway\`, \`refund_reserved\`)`,
      );
      return;
    }
    await queryRunner.createIndex(payments, new TableIndex({ name: `IDX_${payments}_gateway_status_created`, columnNames: ['gateway', 'status', 'created_at'] }));
    await queryRunner.createIndex(payments, new TableIndex({ name: `IDX_${payments}_gateway_refund_reserved`, columnNames: ['gateway', 'refund_reserved'] }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const payments = prefixed(queryRunner, 'checkout_payments');
    if (isMysql(queryRunner)) {
      await queryRunner.query(`ALTER TABLE \`${payments}\` DROP INDEX \`IDX_${payments}_gateway_refund_reserved\`, DROP INDEX \`IDX_${payments}_gateway_status_created\``);
      return;
    }
    await queryRunner.dropIndex(payments, `IDX_${payments}_gateway_refund_reserved`);
    await queryRunner.dropIndex(payments, `IDX_${payments}_gateway_status_created`);
  }
}
