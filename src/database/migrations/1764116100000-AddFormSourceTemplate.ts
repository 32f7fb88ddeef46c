import { type MigrationInterface, type QueryRunner, TableColumn } from 'typeorm';
import { prefixed } from './schema-helpers.js';

/**
 * Which catalog item a payment form was imported from (`form_template:<slug>` or `layout:<id>`),
 * written by `POST /administration/import-template`; null for a form built by hand. The
 * dashboard's `select_template` quick-setup step reads it. Forms that exist before this migration
 * stay null: whether they came from a template was never recorded.
 */
export class AddFormSourceTemplate1764116100000 implements MigrationInterface {
  name = 'AddFormSourceTemplate1764116100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      prefixed(queryRunner, 'checkout_forms'),
      new TableColumn({ name: 'source_template', type: 'varchar', length: '120', isNullable: true }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn(prefixed(queryRunner, 'checkout_forms'), 'source_template');
  }
}
