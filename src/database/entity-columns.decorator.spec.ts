import { Column, DataSource, Entity, type EntityMetadata, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAtColumn, DatetimeColumn, IdColumn, IntegerColumn, JsonTextColumn, TextColumn, UpdatedAtColumn, VarcharColumn } from './entity-columns.decorator.js';
import { EntityTable } from './entity-table.js';

interface Note {
  text: string;
}
const boundNote = (note: Note): Note => ({ text: String(note.text).slice(0, 3) });

/** Each helper beside the plain `@Column` options it stands for (the entities' columns before the helpers). */
const COLUMNS: Array<[property: string, helper: PropertyDecorator, explicit: PropertyDecorator]> = [
  ['id', IdColumn(), PrimaryGeneratedColumn({ name: 'id' })],
  ['parentId', IntegerColumn('parent_id', { nullable: true }), Column({ name: 'parent_id', type: 'integer', nullable: true })],
  ['attempts', IntegerColumn('attempts', { default: 0 }), Column({ name: 'attempts', type: 'integer', default: 0 })],
  ['mode', VarcharColumn('mode', 4), Column({ name: 'mode', type: 'varchar', length: 4 })],
  ['reason', VarcharColumn('reason', 255, { nullable: true }), Column({ name: 'reason', type: 'varchar', length: 255, nullable: true })],
  ['payload', TextColumn('payload'), Column({ name: 'payload', type: 'text' })],
  ['context', TextColumn('context', { nullable: true }), Column({ name: 'context', type: 'text', nullable: true })],
  ['note', JsonTextColumn('note', boundNote), Column({ name: 'note', type: 'text', nullable: true, transformer: { to: () => null, from: () => null } })],
  ['expiresAt', DatetimeColumn('expires_at'), Column({ name: 'expires_at', type: 'datetime', precision: 3 })],
  ['finishedAt', DatetimeColumn('finished_at', { nullable: true }), Column({ name: 'finished_at', type: 'datetime', precision: 3, nullable: true })],
  ['createdAt', CreatedAtColumn(), Column({ name: 'created_at', type: 'datetime', precision: 3 })],
  ['updatedAt', UpdatedAtColumn(), Column({ name: 'updated_at', type: 'datetime', precision: 3 })],
];

interface Row {
  note: Note | null;
}
class HelperRow implements Row {
  note: Note | null;
}
class ExplicitRow implements Row {
  note: Note | null;
}
class NamedKeyRow {}
for (const [property, helper, explicit] of COLUMNS) {
  helper(HelperRow.prototype, property);
  explicit(ExplicitRow.prototype, property);
}
IdColumn('option_id')(NamedKeyRow.prototype, 'id');
Entity({ name: 'helper_rows' })(HelperRow);
Entity({ name: 'explicit_rows' })(ExplicitRow);
Entity({ name: 'named_key_rows' })(NamedKeyRow);

/** What the schema and EntityTable read of a column (everything but its owner and its transformer's code). */
function described(metadata: EntityMetadata) {
  return metadata.columns.map((column) => ({
    propertyName: column.propertyName,
    databaseName: column.databaseName,
    type: column.type,
    length: column.length,
    precision: column.precision,
    scale: column.scale,
    unsigned: column.unsigned,
    isNullable: column.isNullable,
    default: column.default,
    isPrimary: column.isPrimary,
    isGenerated: column.isGenerated,
    generationStrategy: column.generationStrategy,
    isSelect: column.isSelect,
    isInsert: column.isInsert,
    isUpdate: column.isUpdate,
    transformer: column.transformer ? 'yes' : 'no',
  }));
}

/** Builds the entities' metadata as the driver normalises it (no connection needed). */
async function metadataOf(options: ConstructorParameters<typeof DataSource>[0]): Promise<DataSource> {
  const dataSource = new DataSource(options);
  await (dataSource as unknown as { buildMetadatas(): Promise<void> }).buildMetadatas();
  return dataSource;
}

describe('entity column decorators', () => {
  const entities = [ExplicitRow, HelperRow, NamedKeyRow];
  const drivers = {
    sqlite: () => metadataOf({ type: 'better-sqlite3', database: ':memory:', entities }),
    mysql: () => metadataOf({ type: 'mysql', host: '127.0.0.1', database: 'unused', entities }),
  };

  it.each(Object.keys(drivers) as Array<keyof typeof drivers>)('give %s the same column metadata, and EntityTable the same statements, as the explicit @Column options', async (driver) => {
    const dataSource = await drivers[driver]();
    const explicit = dataSource.getMetadata(ExplicitRow);
    const helpers = dataSource.getMetadata(HelperRow);
    expect(described(helpers)).toEqual(described(explicit));
    const explicitTable = new EntityTable(explicit);
    const helperTable = new EntityTable(helpers);
    expect(helperTable.selectList).toBe(explicitTable.selectList);
    expect(helperTable.insertSql).toBe(explicitTable.insertSql.replace('explicit_rows', 'helper_rows'));
    expect(helperTable.emptyNullables()).toEqual(explicitTable.emptyNullables());
    expect(described(dataSource.getMetadata(NamedKeyRow))).toEqual([expect.objectContaining({ databaseName: 'option_id', isPrimary: true, isGenerated: true, generationStrategy: 'increment' })]);
  });

  it('JsonTextColumn stores the bounded value as JSON and reads it back; null and undefined pass through', async () => {
    const table = new EntityTable<HelperRow>((await drivers.sqlite()).getMetadata(HelperRow));
    expect(table.writeValue('note', { text: 'abcdef', extra: 1 })).toBe('{"text":"abc"}');
    expect(table.writeValue('note', null)).toBeNull();
    expect(table.writeValue('note', undefined)).toBeUndefined();
    expect(table.asStored('note', { text: 'abcdef' })).toEqual({ text: 'abc' });
    const row = { expires_at: '2026-11-28 10:00:00.000', created_at: '2026-11-28 10:00:00.000', updated_at: '2026-11-28 10:00:00.000' };
    expect(table.hydrate({ ...row, note: '{"text":"x"}' }).note).toEqual({ text: 'x' });
    expect(table.hydrate({ ...row, note: null }).note).toBeNull();
  });
});
