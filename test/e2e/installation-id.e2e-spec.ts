import { OptionEntity } from '../../src/modules/settings/option.entity.js';
import { InstallationService, OptionsService } from '../../src/modules/settings/index.js';
import { sharedDatabaseUrl } from '../support/shared-database.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function storedIds(t: TestApp): Promise<string[]> {
  const rows: Array<{ option_value: string }> = await t.dataSource.query(
    `SELECT option_value FROM ${t.config.tablePrefix}options WHERE option_name = 'checkout_installation_id'`,
  );
  return rows.map((row) => JSON.parse(row.option_value) as string);
}

describe('installation id', () => {
  const apps: TestApp[] = [];
  const boot = async (databaseUrl: string, keepDatabase: boolean) => {
    const t = await startTestApp({ DATABASE_URL: databaseUrl }, { keepDatabase });
    apps.push(t);
    return t;
  };
  const closeAll = async () => {
    for (const t of apps.splice(0)) await t.close();
  };
  afterEach(closeAll);

  it('is created at first boot, stored with the options and the same after a restart', async () => {
    const databaseUrl = sharedDatabaseUrl();
    const first = await boot(databaseUrl, false);
    const id = first.app.get(InstallationService).id();
    expect(id).toMatch(UUID_V4);
    expect(await storedIds(first)).toEqual([id]);
    await closeAll();

    const restarted = await boot(databaseUrl, true);
    expect(restarted.app.get(InstallationService).id()).toBe(id);
  });

  it('differs between installations (databases)', async () => {
    const a = await boot('sqlite::memory:', false);
    const b = await boot('sqlite::memory:', false);
    expect(a.app.get(InstallationService).id()).not.toBe(b.app.get(InstallationService).id());
  });

  it('is one id for instances that boot at once on one database', async () => {
    const databaseUrl = sharedDatabaseUrl();
    const setup = await boot(databaseUrl, false); // migrations run once
    await setup.app.get(OptionsService).delete('checkout_installation_id');
    await closeAll();

    const instances = await Promise.all([boot(databaseUrl, true), boot(databaseUrl, true), boot(databaseUrl, true)]);
    const ids = instances.map((t) => t.app.get(InstallationService).id());
    expect(new Set(ids).size).toBe(1);
    expect(await storedIds(instances[0])).toEqual([ids[0]]);
  });

  it('agrees when two instances both find no id and race to add one', async () => {
    const t = await boot(sharedDatabaseUrl(), false);
    const options = t.app.get(OptionsService);
    await options.delete('checkout_installation_id');
    // Both instances read "no id" before either writes: the worst interleaving, made certain.
    const repository = t.dataSource.getRepository(OptionEntity);
    const findOne = repository.findOne.bind(repository);
    let reads = 0;
    let bothRead!: () => void;
    const barrier = new Promise<void>((resolve) => (bothRead = resolve));
    jest.spyOn(repository, 'findOne').mockImplementation(async (...args) => {
      const row = await findOne(...args);
      if (reads < 2) {
        reads += 1;
        if (reads === 2) bothRead();
        await barrier;
      }
      return row;
    });
    const installations = [new InstallationService(options), new InstallationService(options)];
    const ids = await Promise.all(installations.map((installation) => installation.load()));
    expect(ids[0]).toMatch(UUID_V4);
    expect(ids[1]).toBe(ids[0]);
    expect(await storedIds(t)).toEqual([ids[0]]);
    jest.restoreAllMocks();
  });
});
