import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import { idColumn, integer, longText, prefixed, timestampColumn, varchar } from './schema-helpers.js';

/**
 * Host slice: the page content type that full-page layouts are imported into (as drafts, for the
 * page-builder plugin), and the host capabilities to install and activate plugins.
 */
export class CreatePages1764115500000 implements MigrationInterface {
  name = 'CreatePages1764115500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const pages = prefixed(queryRunner, 'pages');
    await queryRunner.createTable(
      new Table({
        name: pages,
        columns: [
          idColumn(),
          varchar('title', 200),
          varchar('status', 10),
          integer('author_id'),
          varchar('layout_id', 100),
          longText(queryRunner, 'content', false),
          timestampColumn(queryRunner, 'created_at'),
          timestampColumn(queryRunner, 'updated_at'),
        ],
        indices: [{ name: `IDX_${pages}_author`, columnNames: ['author_id'] }],
      }),
    );

    const roleCapabilities = queryRunner.connection.driver.escape(prefixed(queryRunner, 'role_capabilities'));
    for (const capability of ['install_plugins', 'activate_plugins']) {
      await queryRunner.query(`INSERT INTO ${roleCapabilities} (role, capability) VALUES (?, ?)`, ['administrator', capability]);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const roleCapabilities = queryRunner.connection.driver.escape(prefixed(queryRunner, 'role_capabilities'));
    await queryRunner.query(`DELETE FROM ${roleCapabilities} WHERE role = ? AND capability IN (?, ?)`, ['administrator', 'install_plugins', 'activate_plugins']);
    await queryRunner.dropTable(prefixed(queryRunner, 'pages'));
  }
}
