import type { EntityManager } from 'typeorm';
import { readCapabilities } from './role-capabilities-sql.js';

describe('readCapabilities', () => {
  const manager = (rows: Array<{ capability: string }>) => {
    const query = jest.fn().mockResolvedValue(rows);
    return { query, manager: { connection: { options: { type: 'better-sqlite3' } }, query } as unknown as EntityManager };
  };

  it('takes the listed capabilities when the list holds as many as the count', async () => {
    const { query, manager: m } = manager([]);
    await expect(readCapabilities({ capabilities: 'checkout_settings,read_checkout_payments', capability_count: '2' }, 'viewer', m, '`wp_role_capabilities`')).resolves.toEqual(
      new Set(['checkout_settings', 'read_checkout_payments']),
    );
    await expect(readCapabilities({ capabilities: null, capability_count: 0 }, 'nobody', m, '`wp_role_capabilities`')).resolves.toEqual(new Set());
    expect(query).not.toHaveBeenCalled();
  });

  it("reads the role's rows when the database cut the list short (group_concat_max_len)", async () => {
    const { query, manager: m } = manager([{ capability: 'checkout_settings' }, { capability: 'read_checkout_payments' }, { capability: 'view_checkout_dashboard' }]);
    const capabilities = await readCapabilities({ capabilities: 'checkout_settings,read_checkout_paym', capability_count: 3 }, 'viewer', m, '`wp_role_capabilities`');
    expect(capabilities).toEqual(new Set(['checkout_settings', 'read_checkout_payments', 'view_checkout_dashboard']));
    expect(query).toHaveBeenCalledWith('SELECT `capability` FROM `wp_role_capabilities` WHERE `role` = ?', ['viewer']);
  });
});
