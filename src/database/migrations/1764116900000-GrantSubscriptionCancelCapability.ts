import type { MigrationInterface, QueryRunner } from 'typeorm';
import { prefixed } from './schema-helpers.js';

/** The capability to cancel a payer's subscription (POST /administration/payments/{id}/subscription/cancel), for administrators. */
export class GrantSubscriptionCancelCapability1764116900000 implements MigrationInterface {
  name = 'GrantSubscriptionCancelCapability1764116900000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const roleCapabilities = queryRunner.connection.driver.escape(prefixed(queryRunner, 'role_capabilities'));
    await queryRunner.query(`INSERT INTO ${roleCapabilities} (role, capability) VALUES (?, ?)`, ['administrator', 'cancel_checkout_subscriptions']);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const roleCapabilities = queryRunner.connection.driver.escape(prefixed(queryRunner, 'role_capabilities'));
    await queryRunner.query(`DELETE FROM ${roleCapabilities} WHERE role = ? AND capability = ?`, ['administrator', 'cancel_checkout_subscriptions']);
  }
}
