import { type MigrationInterface, type QueryRunner, Table, TableColumn } from 'typeorm';
import { idColumn, integer, prefixed, timestampColumn, varchar } from './schema-helpers.js';

/**
 * Account passwords and two-factor sign-in (docs/security.md "Accounts"): on each user the scrypt
 * hash of their account password and their TOTP secret (sealed with the installation's key); the
 * single-use account tokens (set-password links of a reset, an invitation or the first setup, and
 * two-factor sign-in challenges, with the application password the first step used, if any), stored as keyed hashes; the hashed recovery codes. A console
 * session opened with an account password names no application password, so that column may be
 * empty from now on.
 */
export class CreateAccountCredentials1764117000000 implements MigrationInterface {
  name = 'CreateAccountCredentials1764117000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const users = prefixed(queryRunner, 'users');
    const sessions = prefixed(queryRunner, 'checkout_console_sessions');
    const tokens = prefixed(queryRunner, 'checkout_account_tokens');
    const recoveryCodes = prefixed(queryRunner, 'checkout_recovery_codes');
    await queryRunner.addColumns(users, [
      new TableColumn(varchar('password_hash', 255, true)),
      new TableColumn(timestampColumn(queryRunner, 'password_changed_at', true)),
      new TableColumn({ name: 'two_factor_secret', type: 'text', isNullable: true }),
      new TableColumn({ name: 'two_factor_pending_secret', type: 'text', isNullable: true }),
      new TableColumn(timestampColumn(queryRunner, 'two_factor_enabled_at', true)),
      new TableColumn(integer('two_factor_last_step', true)),
    ]);
    const table = await queryRunner.getTable(sessions);
    const column = table?.findColumnByName('application_password_id');
    if (!column) throw new Error(`${sessions}.application_password_id is missing`);
    const nullable = column.clone();
    nullable.isNullable = true;
    await queryRunner.changeColumn(sessions, column, nullable);
    await queryRunner.createTable(
      new Table({
        name: tokens,
        columns: [
          idColumn(),
          varchar('token_hash', 64),
          integer('user_id'),
          varchar('purpose', 16),
          integer('application_password_id', true),
          { ...integer('attempts'), default: 0 },
          timestampColumn(queryRunner, 'created_at'),
          timestampColumn(queryRunner, 'expires_at'),
          timestampColumn(queryRunner, 'used_at', true),
        ],
        uniques: [{ name: `UQ_${tokens}_token_hash`, columnNames: ['token_hash'] }],
        indices: [
          { name: `IDX_${tokens}_user_purpose`, columnNames: ['user_id', 'purpose', 'created_at'] },
          { name: `IDX_${tokens}_expires_at`, columnNames: ['expires_at'] },
        ],
        foreignKeys: [{ name: `FK_${tokens}_user`, columnNames: ['user_id'], referencedTableName: users, referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: recoveryCodes,
        columns: [idColumn(), integer('user_id'), varchar('code_hash', 64), timestampColumn(queryRunner, 'created_at'), timestampColumn(queryRunner, 'used_at', true)],
        uniques: [{ name: `UQ_${recoveryCodes}_user_code`, columnNames: ['user_id', 'code_hash'] }],
        foreignKeys: [
          { name: `FK_${recoveryCodes}_user`, columnNames: ['user_id'], referencedTableName: users, referencedColumnNames: ['id'], onDelete: 'CASCADE' },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const users = prefixed(queryRunner, 'users');
    const sessions = prefixed(queryRunner, 'checkout_console_sessions');
    await queryRunner.dropTable(prefixed(queryRunner, 'checkout_recovery_codes'));
    await queryRunner.dropTable(prefixed(queryRunner, 'checkout_account_tokens'));
    // Sessions of an account password have no application password: they end with the downgrade.
    await queryRunner.query(`DELETE FROM ${queryRunner.connection.driver.escape(sessions)} WHERE application_password_id IS NULL`);
    const table = await queryRunner.getTable(sessions);
    const column = table?.findColumnByName('application_password_id');
    if (column) {
      const required = column.clone();
      required.isNullable = false;
      await queryRunner.changeColumn(sessions, column, required);
    }
    for (const name of ['two_factor_last_step', 'two_factor_enabled_at', 'two_factor_pending_secret', 'two_factor_secret', 'password_changed_at', 'password_hash']) {
      await queryRunner.dropColumn(users, name);
    }
  }
}
