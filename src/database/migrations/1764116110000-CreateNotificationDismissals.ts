import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import { idColumn, integer, prefixed, timestampColumn, varchar } from './schema-helpers.js';

/**
 * Per-user dismissals of the dashboard's notifications: one row per (user, notification id),
 * holding the fingerprint of the condition that was dismissed (a changed condition shows again).
 */
export class CreateNotificationDismissals1764116110000 implements MigrationInterface {
  name = 'CreateNotificationDismissals1764116110000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const dismissals = prefixed(queryRunner, 'checkout_notification_dismissals');
    await queryRunner.createTable(
      new Table({
        name: dismissals,
        columns: [idColumn(), integer('user_id'), varchar('notification_id', 100), varchar('fingerprint', 64), timestampColumn(queryRunner, 'dismissed_at')],
        uniques: [{ name: `UQ_${dismissals}_user_notification`, columnNames: ['user_id', 'notification_id'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable(prefixed(queryRunner, 'checkout_notification_dismissals'));
  }
}
