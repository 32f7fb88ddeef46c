import { type MigrationInterface, type QueryRunner, TableColumn } from 'typeorm';
import { prefixed, timestampColumn } from './schema-helpers.js';

/**
 * A subscription's scheduled end, on its first payment: `subscription_cancel_at_period_end` (0/1,
 * "Cancel at period end" was asked here or at the provider) and `subscription_cancels_at` (the
 * provider's `cancel_at`), stored from the cancel route's answer and from `customer.subscription.*`
 * events, so the payment detail says when an active subscription ends.
 */
export class AddSubscriptionCancelSchedule1764116940000 implements MigrationInterface {
  name = 'AddSubscriptionCancelSchedule1764116940000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns(prefixed(queryRunner, 'checkout_payments'), [
      new TableColumn({ name: 'subscription_cancel_at_period_end', type: 'integer', isNullable: false, default: 0 }),
      new TableColumn(timestampColumn(queryRunner, 'subscription_cancels_at', true)),
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const payments = prefixed(queryRunner, 'checkout_payments');
    await queryRunner.dropColumn(payments, 'subscription_cancels_at');
    await queryRunner.dropColumn(payments, 'subscription_cancel_at_period_end');
  }
}
