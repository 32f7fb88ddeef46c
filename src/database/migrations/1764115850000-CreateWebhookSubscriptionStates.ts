import { type MigrationInterface, type QueryRunner, Table, TableIndex } from 'typeorm';
import { idColumn, integer, prefixed, timestampColumn, varchar } from './schema-helpers.js';

/**
 * Webhook bookkeeping for subscriptions:
 * - the last subscription event applied per provider subscription (its `created` time), so a late
 *   `customer.subscription.updated` never overwrites a newer status;
 * - an index to find a subscription's first payment by the provider's subscription id (invoices).
 */
export class CreateWebhookSubscriptionStates1764115850000 implements MigrationInterface {
  name = 'CreateWebhookSubscriptionStates1764115850000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const states = prefixed(queryRunner, 'checkout_webhook_subscription_states');
    const payments = prefixed(queryRunner, 'checkout_payments');
    await queryRunner.createTable(
      new Table({
        name: states,
        columns: [
          idColumn(),
          varchar('gateway', 20),
          varchar('subscription_ref', 191),
          integer('payment_id'),
          varchar('status', 30),
          varchar('event_id', 191),
          timestampColumn(queryRunner, 'event_created_at'),
          timestampColumn(queryRunner, 'updated_at'),
        ],
        uniques: [{ name: `UQ_${states}_subscription`, columnNames: ['gateway', 'subscription_ref'] }],
      }),
    );
    await queryRunner.createIndex(payments, new TableIndex({ name: `IDX_${payments}_subscription_ref`, columnNames: ['gateway', 'provider_subscription_ref'] }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const payments = prefixed(queryRunner, 'checkout_payments');
    await queryRunner.dropIndex(payments, `IDX_${payments}_subscription_ref`);
    await queryRunner.dropTable(prefixed(queryRunner, 'checkout_webhook_subscription_states'));
  }
}
