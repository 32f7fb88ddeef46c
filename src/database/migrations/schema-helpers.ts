import type { QueryRunner, TableColumnOptions } from 'typeorm';

/** Table name with the configured TABLE_PREFIX, as entities get it through `entityPrefix`. */
export function prefixed(queryRunner: QueryRunner, name: string): string {
  return `${queryRunner.connection.options.entityPrefix ?? ''}${name}`;
}

export function isMysql(queryRunner: QueryRunner): boolean {
  return queryRunner.connection.options.type === 'mysql' || queryRunner.connection.options.type === 'mariadb';
}

export function idColumn(name = 'id'): TableColumnOptions {
  return { name, type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' };
}

/** UTC timestamp with millisecond precision on MySQL; SQLite keeps the ISO text TypeORM writes. */
export function timestampColumn(queryRunner: QueryRunner, name: string, nullable = false): TableColumnOptions {
  return isMysql(queryRunner)
    ? { name, type: 'datetime', precision: 3, isNullable: nullable }
    : { name, type: 'datetime', isNullable: nullable };
}

export function varchar(name: string, length: number, nullable = false): TableColumnOptions {
  return { name, type: 'varchar', length: String(length), isNullable: nullable };
}

export function integer(name: string, nullable = false): TableColumnOptions {
  return { name, type: 'integer', isNullable: nullable };
}

/** Long text: MEDIUMTEXT on MySQL (TEXT stops at 64 KiB), TEXT on SQLite. */
export function longText(queryRunner: QueryRunner, name: string, nullable = true): TableColumnOptions {
  return { name, type: isMysql(queryRunner) ? 'mediumtext' : 'text', isNullable: nullable };
}
