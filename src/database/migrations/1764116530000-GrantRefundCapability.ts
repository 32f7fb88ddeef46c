import type { MigrationInterface, QueryRunner } from 'typeorm';
import { prefixed } from './schema-helpers.js';

const CAPABILITY = 'refund_checkout_payments';

/** Refunding moves money: its own capability (CHECKOUT_REFUND_CAP), given to administrators as activation gives the others. */
export class GrantRefundCapability1764116530000 implements MigrationInterface {
  name = 'GrantRefundCapability1764116530000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const roleCapabilities = queryRunner.connection.driver.escape(prefixed(queryRunner, 'role_capabilities'));
    await queryRunner.query(`INSERT INTO ${roleCapabilities} (role, capability) VALUES (?, ?)`, ['administrator', CAPABILITY]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const roleCapabilities = queryRunner.connection.driver.escape(prefixed(queryRunner, 'role_capabilities'));
    await queryRunner.query(`DELETE FROM ${roleCapabilities} WHERE role = ? AND capability = ?`, ['administrator', CAPABILITY]);
  }
}
