import { type MigrationInterface, type QueryRunner, TableColumn } from 'typeorm';
import { prefixed, timestampColumn } from './schema-helpers.js';

/**
 * Each user's last console sign-in, for the team screen (nullable, no default: the previous
 * release's INSERT names its own columns during a rolling deploy). Invitations are account tokens
 * (`checkout_account_tokens`, purpose `invite`): no table of their own.
 */
export class AddUserLastSignIn1764117210000 implements MigrationInterface {
  name = 'AddUserLastSignIn1764117210000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(prefixed(queryRunner, 'users'), new TableColumn({ ...timestampColumn(queryRunner, 'last_sign_in_at', true) }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn(prefixed(queryRunner, 'users'), 'last_sign_in_at');
  }
}
