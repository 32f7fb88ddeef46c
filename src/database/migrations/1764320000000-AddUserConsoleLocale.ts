import { type MigrationInterface, type QueryRunner, TableColumn } from 'typeorm';
import { prefixed, varchar } from './schema-helpers.js';

/**
 * Each user's console language (issue 32): `en`, `de` or null (follow the browser). Nullable, no
 * default: the previous release's INSERT of a user names its own columns during a rolling deploy.
 */
export class AddUserConsoleLocale1764320000000 implements MigrationInterface {
  name = 'AddUserConsoleLocale1764320000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(prefixed(queryRunner, 'users'), new TableColumn(varchar('console_locale', 10, true)));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn(prefixed(queryRunner, 'users'), 'console_locale');
  }
}
