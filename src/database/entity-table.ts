import type { EntityMetadata, ValueTransformer } from 'typeorm';
import { readDatetime, readNullableDatetime } from './hot-sql.js';

/** The column types a fixed statement reads as the driver gives them (integers, text). */
const PLAIN_TYPES = new Set<unknown>(['integer', 'int', 'varchar', 'text', 'mediumtext', Number, String]);
const DATETIME_TYPES = new Set<unknown>(['datetime', Date]);

type ColumnMetadata = EntityMetadata['columns'][number];
type Read = (value: unknown) => unknown;
interface ReadColumn {
  property: string;
  column: string;
  read: Read;
}
interface WriteColumn {
  property: string;
  write: Read;
}

/**
 * The fixed statements' view of one entity's table, built once from its TypeORM metadata (at
 * boot, in the owning repository's constructor), so the entity stays the only list of its
 * columns: the SELECT and INSERT column lists, the INSERT's values in the same order, the column of
 * a property for an UPDATE, and the hydration of a driver row into the entity exactly as TypeORM
 * does it (datetimes as Date through `readDatetime`, a column's transformer applied). Per row it
 * walks the precomputed column arrays; nothing here reads metadata per request.
 */
export class EntityTable<E extends object> {
  /** The quoted table name (TABLE_PREFIX included). */
  readonly table: string;
  /** Every column, quoted: `\`id\`, \`form_id\`, …` */
  readonly selectList: string;
  /** `INSERT INTO <table> (<every column but generated ones>) VALUES (?, …)`: values from `insertValues`. */
  readonly insertSql: string;
  private readonly create: () => E;
  private readonly reads: readonly ReadColumn[];
  private readonly writes: readonly WriteColumn[];
  /** The columns with a transformer: what a write stores differs from what it was given. */
  private readonly transformed: ReadonlyMap<string, ValueTransformer | ValueTransformer[]>;
  private readonly columns: ReadonlyMap<string, string>;
  private readonly nullable: readonly string[];

  constructor(metadata: EntityMetadata) {
    const quote = (name: string) => `\`${name}\``;
    const columns = metadata.columns;
    for (const column of columns) {
      if (column.embeddedMetadata || column.relationMetadata) throw new Error(`${metadata.name}.${column.propertyName}: embedded and relation columns are not mapped by EntityTable`);
    }
    this.table = quote(metadata.tableName);
    this.selectList = columns.map((column) => quote(column.databaseName)).join(', ');
    const inserted = columns.filter((column) => !column.isGenerated);
    this.insertSql = `INSERT INTO ${this.table} (${inserted.map((column) => quote(column.databaseName)).join(', ')}) VALUES (${inserted.map(() => '?').join(', ')})`;
    const target = metadata.target as new () => E;
    this.create = () => new target();
    this.reads = columns.map((column) => ({ property: column.propertyName, column: column.databaseName, read: reader(metadata.name, column) }));
    this.writes = inserted.map((column) => ({ property: column.propertyName, write: writer(column) }));
    this.transformed = new Map(columns.filter((column) => column.transformer).map((column) => [column.propertyName, column.transformer!]));
    this.columns = new Map(columns.map((column) => [column.propertyName, column.databaseName]));
    this.nullable = columns.filter((column) => column.isNullable).map((column) => column.propertyName);
  }

  /** The entity TypeORM would hydrate from a row of `SELECT ${selectList}`. */
  hydrate(row: Record<string, unknown>): E {
    const entity = this.create() as Record<string, unknown>;
    for (const { property, column, read } of this.reads) entity[property] = read(row[column]);
    return entity as E;
  }

  /**
   * `hydrate` for a statement that selects only the columns of `properties` (each by `column(property)`):
   * a reader of those, each read exactly as `hydrate` reads it. For wide reads of many rows, where
   * every column the driver turns into a property costs (better-sqlite3 builds each row object
   * property by property: 38 columns took twice the time of the 21 the CSV export needs).
   */
  projection<K extends keyof E & string>(properties: readonly K[]): (row: Record<string, unknown>) => Pick<E, K> {
    const reads = properties.map((property) => {
      const read = this.reads.find((each) => each.property === property);
      if (!read) throw new Error(`${this.table} has no column for the property ${property}`);
      return read;
    });
    return (row) => {
      const picked: Record<string, unknown> = {};
      for (const { property, column, read } of reads) picked[property] = read(row[column]);
      return picked as Pick<E, K>;
    };
  }

  /** The values of `insertSql` for `entity`, in its column order (a transformer applied as TypeORM's insert applies it). */
  insertValues(entity: E): unknown[] {
    const source = entity as Record<string, unknown>;
    return this.writes.map(({ property, write }) => write(source[property]));
  }

  /** The column of a property (for an UPDATE's SET list); throws for a property that is no column. */
  column(property: string): string {
    const column = this.columns.get(property);
    if (column === undefined) throw new Error(`${this.table} has no column for the property ${property}`);
    return column;
  }

  /** The value written for `property`, as the driver gives it to an UPDATE (a transformer applied). */
  writeValue(property: string, value: unknown): unknown {
    const transformer = this.transformed.get(property);
    return transformer ? transformTo(transformer, value) : value;
  }

  /** `value` as it reads back once stored: the same value unless the column has a transformer (e.g. one that bounds it). */
  asStored(property: string, value: unknown): unknown {
    const transformer = this.transformed.get(property);
    return transformer ? transformFrom(transformer, transformTo(transformer, value)) : value;
  }

  /** Replaces, on `entity`, each transformed column's value by what a read of it gives once stored (`asStored`). */
  readBack(entity: E): void {
    const target = entity as Record<string, unknown>;
    for (const [property, transformer] of this.transformed) target[property] = transformFrom(transformer, transformTo(transformer, target[property]));
  }

  /** Every nullable column's property set to null: the start of a new row whose optional columns are empty. */
  emptyNullables(): Partial<E> {
    const empty: Record<string, null> = {};
    for (const property of this.nullable) empty[property] = null;
    return empty as Partial<E>;
  }
}

/** How a column's value is read from the driver's row: refuses, at boot, a type it does not know how TypeORM hydrates. */
function reader(entity: string, column: ColumnMetadata): Read {
  let read: Read;
  if (DATETIME_TYPES.has(column.type)) read = column.isNullable ? readNullableDatetime : readDatetime;
  else if (PLAIN_TYPES.has(column.type)) read = (value) => value;
  else throw new Error(`${entity}.${column.propertyName}: EntityTable does not know how TypeORM hydrates the column type ${String(column.type)}`);
  const transformer = column.transformer;
  return transformer ? (value) => transformFrom(transformer, read(value)) : read;
}

function writer(column: ColumnMetadata): Read {
  const transformer = column.transformer;
  return transformer ? (value) => transformTo(transformer, value) : (value) => value;
}

/** TypeORM's ApplyValueTransformers (not exported by the package): `to` in order, `from` in reverse. */
function transformTo(transformer: ValueTransformer | ValueTransformer[], value: unknown): unknown {
  return Array.isArray(transformer) ? transformer.reduce((current, each) => each.to(current), value) : transformer.to(value);
}

function transformFrom(transformer: ValueTransformer | ValueTransformer[], value: unknown): unknown {
  return Array.isArray(transformer) ? transformer.reduceRight((current, each) => each.from(current), value) : transformer.from(value);
}
