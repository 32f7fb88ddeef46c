import { Column, PrimaryGeneratedColumn, type ValueTransformer } from 'typeorm';

/**
 * The column decorators every entity uses, one per kind of column the tables have, so that a kind
 * is written once (its type, length rule, precision): each gives TypeORM exactly the options an
 * explicit `@Column({ name, type, … })` would, and EntityTable (entity-table.ts) reads the same
 * metadata either way. The database name is always explicit (snake_case), as CONTRIBUTING.md asks.
 * A column these do not cover (a varchar primary key, another type) keeps its plain `@Column`.
 */
export interface ColumnFlags {
  /** The column accepts NULL (the property is `T | null`). */
  nullable?: boolean;
}

/** The table's auto-increment integer key (the migrations' `idColumn`), named `id` unless told. */
export function IdColumn(name = 'id'): PropertyDecorator {
  return PrimaryGeneratedColumn({ name });
}

/** A UTC time to the millisecond (`datetime(3)` on MySQL/MariaDB; SQLite keeps TypeORM's text), read as a `Date`. */
export function DatetimeColumn(name: string, flags: ColumnFlags = {}): PropertyDecorator {
  return Column({ name, type: 'datetime', precision: 3, ...flags });
}

/** `created_at`: when the row was written (set by the code that inserts it). */
export function CreatedAtColumn(): PropertyDecorator {
  return DatetimeColumn('created_at');
}

/** `updated_at`: when the row last changed (set by the code that changes it). */
export function UpdatedAtColumn(): PropertyDecorator {
  return DatetimeColumn('updated_at');
}

/** A string of at most `length` characters. */
export function VarcharColumn(name: string, length: number, flags: ColumnFlags = {}): PropertyDecorator {
  return Column({ name, type: 'varchar', length, ...flags });
}

/** An integer (ids of other rows, counts, amounts in minor units); `default` as the migration gives it. */
export function IntegerColumn(name: string, options: ColumnFlags & { default?: number } = {}): PropertyDecorator {
  return Column({ name, type: 'integer', ...options });
}

/** Text without a length of its own (e.g. JSON the owning service writes and reads as a string). */
export function TextColumn(name: string, flags: ColumnFlags = {}): PropertyDecorator {
  return Column({ name, type: 'text', ...flags });
}

/**
 * A nullable text column holding one JSON value that the property holds as an object. `bound` is
 * the one place that shapes what is stored (only the known keys, strings cut to the column's
 * rules); every write goes through it, for TypeORM and the fixed statements alike (its
 * transformer). A read parses the stored text; NULL stays null.
 */
export function JsonTextColumn<T>(name: string, bound: (value: T) => T): PropertyDecorator {
  return Column({ name, type: 'text', nullable: true, transformer: jsonTextTransformer(bound) });
}

/** JsonTextColumn's transformer: `to` bounds and stringifies (null and undefined pass), `from` parses. */
function jsonTextTransformer<T>(bound: (value: T) => T): ValueTransformer {
  return {
    to: (value: T | null | undefined): string | null | undefined => (value === undefined ? undefined : value === null ? null : JSON.stringify(bound(value))),
    from: (text: string | null | undefined): T | null => (text === null || text === undefined ? null : (JSON.parse(text) as T)),
  };
}
