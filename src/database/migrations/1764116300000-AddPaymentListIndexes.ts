import { type MigrationInterface, type QueryRunner, TableIndex } from 'typeorm';
import { prefixed } from './schema-helpers.js';

/**
 * The admin payments list and its CSV export (GET /administration/payments, …/export.csv) read
 * newest first (created_at, then id) under a status or a gateway and mode filter: with these the
 * database walks the index in that order instead of sorting every payment of the status or
 * gateway. The id needs no column of its own: InnoDB's secondary indexes and SQLite's carry the
 * primary key (the rowid) after their columns. Form and date filters use the existing `form_id`
 * and `created_at` indexes; a search on email or name is a LIKE on a substring, which no index serves.
 */
export class AddPaymentListIndexes1764116300000 implements MigrationInterface {
  name = 'AddPaymentListIndexes1764116300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const payments = prefixed(queryRunner, 'checkout_payments');
    await queryRunner.createIndex(payments, new TableIndex({ name: `IDX_${payments}_status_created`, columnNames: ['status', 'created_at'] }));
    await queryRunner.createIndex(payments, new TableIndex({ name: `IDX_${payments}_gateway_mode_created`, columnNames: ['gateway', 'mode', 'created_at'] }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const payments = prefixed(queryRunner, 'checkout_payments');
    await queryRunner.dropIndex(payments, `IDX_${payments}_gateway_mode_created`);
    await queryRunner.dropIndex(payments, `IDX_${payments}_status_created`);
  }
}
