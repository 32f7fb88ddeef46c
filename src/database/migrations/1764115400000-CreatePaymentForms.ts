import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import { idColumn, integer, longText, prefixed, timestampColumn, varchar } from './schema-helpers.js';

/** The `checkout_form` content type: payment forms with their JSON settings. */
export class CreatePaymentForms1764115400000 implements MigrationInterface {
  name = 'CreatePaymentForms1764115400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const forms = prefixed(queryRunner, 'checkout_forms');
    await queryRunner.createTable(
      new Table({
        name: forms,
        columns: [
          idColumn(),
          varchar('title', 200),
          varchar('status', 10),
          integer('author_id'),
          longText(queryRunner, 'settings', false),
          timestampColumn(queryRunner, 'created_at'),
          timestampColumn(queryRunner, 'updated_at'),
        ],
        indices: [
          { name: `IDX_${forms}_author`, columnNames: ['author_id'] },
          { name: `IDX_${forms}_status`, columnNames: ['status'] },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable(prefixed(queryRunner, 'checkout_forms'));
  }
}
