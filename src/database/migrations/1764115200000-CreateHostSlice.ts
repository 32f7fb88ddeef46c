import { type MigrationInterface, type QueryRunner, Table, TableForeignKey } from 'typeorm';
import { idColumn, longText, prefixed, timestampColumn, varchar } from './schema-helpers.js';

/** Activation of the plugin is modelled by this migration: the roles get their capabilities here. */
const ROLE_CAPABILITIES: Record<string, string[]> = {
  administrator: ['checkout_settings', 'edit_checkout_forms', 'edit_others_checkout_forms'],
  editor: ['edit_checkout_forms'],
  author: [],
  subscriber: [],
};

/** Users, roles, capabilities, application passwords and options: the host platform's slice. */
export class CreateHostSlice1764115200000 implements MigrationInterface {
  name = 'CreateHostSlice1764115200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const roles = prefixed(queryRunner, 'roles');
    const roleCapabilities = prefixed(queryRunner, 'role_capabilities');
    const users = prefixed(queryRunner, 'users');
    const passwords = prefixed(queryRunner, 'application_passwords');
    const options = prefixed(queryRunner, 'options');

    await queryRunner.createTable(
      new Table({
        name: roles,
        columns: [{ ...varchar('name', 50), isPrimary: true }, varchar('display_name', 100)],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: roleCapabilities,
        columns: [idColumn(), varchar('role', 50), varchar('capability', 100)],
        uniques: [{ name: `UQ_${roleCapabilities}_role_capability`, columnNames: ['role', 'capability'] }],
        foreignKeys: [
          { name: `FK_${roleCapabilities}_role`, columnNames: ['role'], referencedTableName: roles, referencedColumnNames: ['name'], onDelete: 'CASCADE' },
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: users,
        columns: [
          idColumn(),
          varchar('user_login', 60),
          varchar('user_email', 100),
          varchar('display_name', 250),
          varchar('role', 50),
          timestampColumn(queryRunner, 'created_at'),
        ],
        uniques: [{ name: `UQ_${users}_login`, columnNames: ['user_login'] }],
        foreignKeys: [
          { name: `FK_${users}_role`, columnNames: ['role'], referencedTableName: roles, referencedColumnNames: ['name'] },
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: passwords,
        columns: [
          idColumn(),
          varchar('uuid', 36),
          { name: 'user_id', type: 'integer' },
          varchar('name', 100),
          varchar('password_hash', 64),
          timestampColumn(queryRunner, 'created_at'),
          timestampColumn(queryRunner, 'last_used_at', true),
          varchar('last_ip', 45, true),
        ],
        uniques: [
          { name: `UQ_${passwords}_uuid`, columnNames: ['uuid'] },
          { name: `UQ_${passwords}_hash`, columnNames: ['password_hash'] },
        ],
        indices: [{ name: `IDX_${passwords}_user`, columnNames: ['user_id'] }],
      }),
    );
    await queryRunner.createForeignKey(
      passwords,
      new TableForeignKey({ name: `FK_${passwords}_user`, columnNames: ['user_id'], referencedTableName: users, referencedColumnNames: ['id'], onDelete: 'CASCADE' }),
    );

    await queryRunner.createTable(
      new Table({
        name: options,
        columns: [idColumn('option_id'), varchar('option_name', 191), longText(queryRunner, 'option_value', false), timestampColumn(queryRunner, 'updated_at')],
        uniques: [{ name: `UQ_${options}_name`, columnNames: ['option_name'] }],
      }),
    );

    const escape = (name: string) => queryRunner.connection.driver.escape(name);
    for (const [role, capabilities] of Object.entries(ROLE_CAPABILITIES)) {
      // Raw SQL: the entities map these tables by property name, a migration must not depend on them.
      await queryRunner.query(`INSERT INTO ${escape(roles)} (name, display_name) VALUES (?, ?)`, [role, role[0].toUpperCase() + role.slice(1)]);
      for (const capability of capabilities) {
        await queryRunner.query(`INSERT INTO ${escape(roleCapabilities)} (role, capability) VALUES (?, ?)`, [role, capability]);
      }
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const name of ['options', 'application_passwords', 'users', 'role_capabilities', 'roles']) {
      await queryRunner.dropTable(prefixed(queryRunner, name));
    }
  }
}
