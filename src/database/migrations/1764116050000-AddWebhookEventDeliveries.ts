import { type MigrationInterface, type QueryRunner, TableColumn } from 'typeorm';
import { prefixed } from './schema-helpers.js';

/** How many deliveries of each provider event arrived (redeliveries answer `duplicate` and only count here). */
export class AddWebhookEventDeliveries1764116050000 implements MigrationInterface {
  name = 'AddWebhookEventDeliveries1764116050000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const events = prefixed(queryRunner, 'checkout_webhook_events');
    await queryRunner.addColumn(events, new TableColumn({ name: 'deliveries', type: 'integer', isNullable: false, default: 1 }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const events = prefixed(queryRunner, 'checkout_webhook_events');
    await queryRunner.dropColumn(events, 'deliveries');
  }
}
