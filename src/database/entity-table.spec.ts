import { Column, DataSource, Entity, PrimaryGeneratedColumn, type ValueTransformer } from 'typeorm';
import { EntityTable } from './entity-table.js';
import { runStatement, selectRows } from './hot-sql.js';
import { bindSqliteIntegerParameters } from './sqlite-integer-parameters.js';

const upper: ValueTransformer = { to: (value: string | null) => (value === null ? null : value.toUpperCase()), from: (value: string | null) => value };
const wrapped: ValueTransformer = { to: (value: string | null) => (value === null ? null : `<${value.slice(0, 4)}>`), from: (value: string | null) => (value === null ? null : value.slice(1, -1)) };

@Entity({ name: 'things' })
class ThingEntity {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @Column({ name: 'some_count', type: 'integer' })
  someCount: number;

  @Column({ name: 'label', type: 'varchar', length: 20, nullable: true })
  label: string | null;

  /** Two transformers: `to` in order (upper, then wrapped), `from` in reverse. */
  @Column({ name: 'code', type: 'text', nullable: true, transformer: [upper, wrapped] })
  code: string | null;

  @Column({ name: 'seen_at', type: 'datetime', nullable: true })
  seenAt: Date | null;

  @Column({ name: 'created_at', type: 'datetime' })
  createdAt: Date;
}

@Entity({ name: 'flags' })
class FlagEntity {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @Column({ name: 'on', type: 'boolean' })
  on: boolean;
}

describe('EntityTable', () => {
  let dataSource: DataSource;
  let table: EntityTable<ThingEntity>;

  beforeAll(async () => {
    dataSource = new DataSource({ type: 'better-sqlite3', database: ':memory:', entities: [ThingEntity, FlagEntity], entityPrefix: 'p_', synchronize: true });
    bindSqliteIntegerParameters(dataSource);
    await dataSource.initialize();
    table = new EntityTable<ThingEntity>(dataSource.getMetadata(ThingEntity));
  });
  afterAll(() => dataSource.destroy());

  it('builds the statements from the metadata (prefixed table, every column, no generated one inserted)', () => {
    expect(table.table).toBe('`p_things`');
    expect(table.selectList).toBe('`id`, `some_count`, `label`, `code`, `seen_at`, `created_at`');
    expect(table.insertSql).toBe('INSERT INTO `p_things` (`some_count`, `label`, `code`, `seen_at`, `created_at`) VALUES (?, ?, ?, ?, ?)');
    expect(table.column('someCount')).toBe('some_count');
    expect(() => table.column('nothing')).toThrow(/no column for the property nothing/);
    expect(table.emptyNullables()).toEqual({ label: null, code: null, seenAt: null });
  });

  it('writes and hydrates exactly as TypeORM does, transformers included', async () => {
    const entity = Object.assign(new ThingEntity(), { someCount: 3, label: 'a', code: 'abcdef', seenAt: null, createdAt: new Date('2026-11-26T09:05:03.007Z') });
    expect(table.insertValues(entity)).toEqual([3, 'a', '<ABCD>', null, entity.createdAt]);
    const { insertId } = await runStatement(dataSource.manager, table.insertSql, table.insertValues(entity));
    const [row] = await selectRows<Record<string, unknown>>(dataSource.manager, `SELECT ${table.selectList} FROM ${table.table} WHERE \`id\` = ?`, [insertId]);
    const hydrated = table.hydrate(row);
    const viaTypeorm = await dataSource.getRepository(ThingEntity).findOneByOrFail({ id: insertId });
    expect(hydrated).toStrictEqual(viaTypeorm);
    expect(hydrated).toBeInstanceOf(ThingEntity);
    expect(hydrated.code).toBe('ABCD');

    expect(table.asStored('code', 'xyzzy')).toBe('XYZZ');
    expect(table.asStored('label', 'as is')).toBe('as is');
    expect(table.writeValue('code', 'q')).toBe('<Q>');
    const readBack = Object.assign(new ThingEntity(), { code: 'hello' });
    table.readBack(readBack);
    expect(readBack.code).toBe('HELL');
  });

  it('reads a projection of some columns as hydrate reads them (transformers and datetimes included)', async () => {
    const entity = Object.assign(new ThingEntity(), { someCount: 4, label: null, code: 'wxyz', seenAt: new Date('2026-11-29T08:00:00.001Z'), createdAt: new Date('2026-11-29T08:00:00.002Z') });
    const { insertId } = await runStatement(dataSource.manager, table.insertSql, table.insertValues(entity));
    const [row] = await selectRows<Record<string, unknown>>(dataSource.manager, 'SELECT `id`, `code`, `seen_at` FROM `p_things` WHERE `id` = ?', [insertId]);
    const read = table.projection(['id', 'code', 'seenAt']);
    expect(read(row)).toStrictEqual({ id: insertId, code: 'WXYZ', seenAt: entity.seenAt });
    expect(() => table.projection(['id', 'nothing' as keyof ThingEntity & string])).toThrow(/no column for the property nothing/);
  });

  it('refuses at boot a column type whose hydration it does not know', () => {
    expect(() => new EntityTable(dataSource.getMetadata(FlagEntity))).toThrow(/FlagEntity\.on: EntityTable does not know how TypeORM hydrates the column type boolean/);
  });
});
