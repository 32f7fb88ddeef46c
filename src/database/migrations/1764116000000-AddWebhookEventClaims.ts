import { type MigrationInterface, type QueryRunner, TableColumn } from 'typeorm';
import { prefixed, timestampColumn, varchar } from './schema-helpers.js';

/**
 * Webhook events are claimed before they are applied (one delivery applies an event, across
 * instances) and keep the reason of their outcome. Rejected events were stored as `failed`;
 * they are `rejected` from now on, `failed` no longer being an outcome.
 */
export class AddWebhookEventClaims1764116000000 implements MigrationInterface {
  name = 'AddWebhookEventClaims1764116000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const events = prefixed(queryRunner, 'checkout_webhook_events');
    await queryRunner.addColumns(events, [
      new TableColumn(varchar('claimed_by', 64, true)),
      new TableColumn(timestampColumn(queryRunner, 'claim_expires_at', true)),
      new TableColumn(varchar('reason', 255, true)),
    ]);
    await queryRunner.query(`UPDATE ${queryRunner.connection.driver.escape(events)} SET status = 'rejected' WHERE status = 'failed'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const events = prefixed(queryRunner, 'checkout_webhook_events');
    await queryRunner.query(`UPDATE ${queryRunner.connection.driver.escape(events)} SET status = 'failed' WHERE status = 'rejected'`);
    await queryRunner.query(`UPDATE ${queryRunner.connection.driver.escape(events)} SET status = 'received' WHERE status = 'processing'`);
    for (const column of ['reason', 'claim_expires_at', 'claimed_by']) await queryRunner.dropColumn(events, column);
  }
}
