import { type MigrationInterface, type QueryRunner, TableIndex } from 'typeorm';
import { prefixed } from './schema-helpers.js';

/**
 * "Newest" is ordered by (created_at, id), not by id alone: AUTO_INCREMENT ids are unique but not
 * in insertion order across the servers of a distributed engine (docs/scaling.md). These indexes
 * serve the new orders where a list is read a page (or a tail) at a time, as the old id orders
 * were served by the primary key:
 * - a payment's log, oldest or newest first (the admin payment detail reads its tail): the
 *   `payment_id` index gains `created_at`, and replaces it (its prefix serves every old use);
 * - the admin forms list, newest first, with or without a status filter: `created_at`, and the
 *   `status` index gains `created_at` and replaces it.
 * The id needs no column of its own: InnoDB's secondary indexes and SQLite's carry the primary
 * key (the rowid) after their columns. Adding and dropping indexes is backwards compatible: the
 * previous release's queries run unchanged during a rolling deploy.
 */
export class IndexNewestByCreationTime1764116450000 implements MigrationInterface {
  name = 'IndexNewestByCreationTime1764116450000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const log = prefixed(queryRunner, 'checkout_log');
    const forms = prefixed(queryRunner, 'checkout_forms');
    await queryRunner.createIndex(log, new TableIndex({ name: `IDX_${log}_payment_created`, columnNames: ['payment_id', 'created_at'] }));
    await queryRunner.dropIndex(log, `IDX_${log}_payment`);
    await queryRunner.createIndex(forms, new TableIndex({ name: `IDX_${forms}_created`, columnNames: ['created_at'] }));
    await queryRunner.createIndex(forms, new TableIndex({ name: `IDX_${forms}_status_created`, columnNames: ['status', 'created_at'] }));
    await queryRunner.dropIndex(forms, `IDX_${forms}_status`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const log = prefixed(queryRunner, 'checkout_log');
    const forms = prefixed(queryRunner, 'checkout_forms');
    await queryRunner.createIndex(forms, new TableIndex({ name: `IDX_${forms}_status`, columnNames: ['status'] }));
    await queryRunner.dropIndex(forms, `IDX_${forms}_status_created`);
    await queryRunner.dropIndex(forms, `IDX_${forms}_created`);
    await queryRunner.createIndex(log, new TableIndex({ name: `IDX_${log}_payment`, columnNames: ['payment_id'] }));
    await queryRunner.dropIndex(log, `IDX_${log}_payment_created`);
  }
}
