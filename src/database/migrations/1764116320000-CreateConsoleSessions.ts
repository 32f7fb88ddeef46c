import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import { idColumn, integer, prefixed, timestampColumn, varchar } from './schema-helpers.js';

/**
 * Admin console sessions (POST /auth/session): the keyed hash of each session token, whose user
 * and application password it was opened with, and when it ends. Deleting the application password
 * (revoking it) or the user deletes its sessions.
 */
export class CreateConsoleSessions1764116320000 implements MigrationInterface {
  name = 'CreateConsoleSessions1764116320000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const sessions = prefixed(queryRunner, 'checkout_console_sessions');
    const users = prefixed(queryRunner, 'users');
    const passwords = prefixed(queryRunner, 'application_passwords');
    await queryRunner.createTable(
      new Table({
        name: sessions,
        columns: [
          idColumn(),
          varchar('token_hash', 64),
          integer('user_id'),
          integer('application_password_id'),
          timestampColumn(queryRunner, 'created_at'),
          timestampColumn(queryRunner, 'last_seen_at'),
          timestampColumn(queryRunner, 'expires_at'),
        ],
        uniques: [{ name: `UQ_${sessions}_token_hash`, columnNames: ['token_hash'] }],
        indices: [
          { name: `IDX_${sessions}_expires_at`, columnNames: ['expires_at'] },
          { name: `IDX_${sessions}_password`, columnNames: ['application_password_id'] },
          { name: `IDX_${sessions}_user`, columnNames: ['user_id'] },
        ],
        foreignKeys: [
          { name: `FK_${sessions}_user`, columnNames: ['user_id'], referencedTableName: users, referencedColumnNames: ['id'], onDelete: 'CASCADE' },
          {
            name: `FK_${sessions}_password`,
            columnNames: ['application_password_id'],
            referencedTableName: passwords,
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable(prefixed(queryRunner, 'checkout_console_sessions'));
  }
}
