import { type MigrationInterface, type QueryRunner, TableColumn } from 'typeorm';
import { prefixed, varchar } from './schema-helpers.js';

/**
 * Section B's `POST /webhook/receive` stores its events in the webhook event store like the
 * gateway callbacks do, but it has no `{mode}`: the column takes null for those events.
 */
export class AllowWebhookEventsWithoutMode1764116200000 implements MigrationInterface {
  name = 'AllowWebhookEventsWithoutMode1764116200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const events = prefixed(queryRunner, 'checkout_webhook_events');
    await queryRunner.changeColumn(events, 'mode', new TableColumn(varchar('mode', 4, true)));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const events = prefixed(queryRunner, 'checkout_webhook_events');
    // Events without a mode cannot stay in a column that requires one.
    await queryRunner.query(`DELETE FROM ${queryRunner.connection.driver.escape(events)} WHERE mode IS NULL`);
    await queryRunner.changeColumn(events, 'mode', new TableColumn(varchar('mode', 4)));
  }
}
