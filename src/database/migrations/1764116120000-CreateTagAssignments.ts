import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import { idColumn, integer, prefixed, timestampColumn, varchar } from './schema-helpers.js';

/**
 * Answers of the tagging areas (the admin UI's feature-interest questions): one row per user and
 * area, replaced when the user answers again.
 */
export class CreateTagAssignments1764116120000 implements MigrationInterface {
  name = 'CreateTagAssignments1764116120000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const assignments = prefixed(queryRunner, 'checkout_tag_assignments');
    await queryRunner.createTable(
      new Table({
        name: assignments,
        columns: [
          idColumn(),
          integer('user_id'),
          varchar('area_slug', 40),
          { name: 'tags', type: 'text', isNullable: false },
          varchar('email_address', 254),
          varchar('first_name', 100),
          varchar('last_name', 100),
          timestampColumn(queryRunner, 'created_at'),
          timestampColumn(queryRunner, 'updated_at'),
        ],
        uniques: [{ name: `UQ_${assignments}_user_area`, columnNames: ['user_id', 'area_slug'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable(prefixed(queryRunner, 'checkout_tag_assignments'));
  }
}
