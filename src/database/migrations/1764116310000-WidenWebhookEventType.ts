import { type MigrationInterface, type QueryRunner, TableColumn } from 'typeorm';
import { prefixed, varchar } from './schema-helpers.js';

/**
 * A webhook event's `event_type` holds up to 255 characters (was 100). PayPal's reference sets no
 * length on an event's `event_type`, and its names grow as products are added; on MariaDB an
 * authentic event with a longer type failed to insert and was answered 500 on every delivery.
 */
export class WidenWebhookEventType1764116310000 implements MigrationInterface {
  name = 'WidenWebhookEventType1764116310000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const events = prefixed(queryRunner, 'checkout_webhook_events');
    await queryRunner.changeColumn(events, 'event_type', new TableColumn(varchar('event_type', 255)));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const events = prefixed(queryRunner, 'checkout_webhook_events');
    // Longer types are cut to fit (a label; the event id identifies the event).
    await queryRunner.query(`UPDATE ${queryRunner.connection.driver.escape(events)} SET event_type = SUBSTR(event_type, 1, 100)`);
    await queryRunner.changeColumn(events, 'event_type', new TableColumn(varchar('event_type', 100)));
  }
}
