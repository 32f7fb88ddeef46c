import { type MigrationInterface, type QueryRunner, Table, TableColumn } from 'typeorm';
import { idColumn, integer, prefixed, timestampColumn, varchar } from './schema-helpers.js';

/**
 * Invitations of new teammates (POST /administration/users without a password): the keyed hash of
 * the set-password link's token (written when the email is sent, never the token), when it ends
 * (7 days) and when it was used (single use). Deleting the user deletes them. And each user's last
 * console sign-in, for the team screen (nullable, no default: the previous release's INSERT names
 * its own columns during a rolling deploy).
 */
export class CreateUserInvitations1764117210000 implements MigrationInterface {
  name = 'CreateUserInvitations1764117210000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const invitations = prefixed(queryRunner, 'checkout_user_invitations');
    const users = prefixed(queryRunner, 'users');
    await queryRunner.createTable(
      new Table({
        name: invitations,
        columns: [
          idColumn(),
          integer('user_id'),
          integer('invited_by', true),
          varchar('token_hash', 64, true),
          timestampColumn(queryRunner, 'created_at'),
          timestampColumn(queryRunner, 'sent_at', true),
          timestampColumn(queryRunner, 'expires_at'),
          timestampColumn(queryRunner, 'used_at', true),
        ],
        uniques: [{ name: `UQ_${invitations}_token_hash`, columnNames: ['token_hash'] }],
        indices: [{ name: `IDX_${invitations}_user`, columnNames: ['user_id'] }],
        foreignKeys: [
          { name: `FK_${invitations}_user`, columnNames: ['user_id'], referencedTableName: users, referencedColumnNames: ['id'], onDelete: 'CASCADE' },
        ],
      }),
    );
    await queryRunner.addColumn(users, new TableColumn({ ...timestampColumn(queryRunner, 'last_sign_in_at', true) }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn(prefixed(queryRunner, 'users'), 'last_sign_in_at');
    await queryRunner.dropTable(prefixed(queryRunner, 'checkout_user_invitations'));
  }
}
