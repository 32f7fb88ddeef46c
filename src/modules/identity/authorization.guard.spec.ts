import { mayUse } from './authorization.guard.js';

describe('mayUse (checkout_settings and the route’s finer capability)', () => {
  const user = (...capabilities: string[]) => ({ capabilities: new Set(capabilities) });

  it('needs both the interface’s admin capability and one of the route’s', () => {
    expect(mayUse(user('checkout_settings', 'read_checkout_payments'), { capabilities: ['read_checkout_payments'] })).toBe(true);
    expect(mayUse(user('read_checkout_payments'), { capabilities: ['read_checkout_payments'] })).toBe(false);
    expect(mayUse(user('checkout_settings'), { capabilities: ['read_checkout_payments'] })).toBe(false);
  });

  it('takes any one capability of a list, and grants nothing for an empty one', () => {
    const catalog = { capabilities: ['manage_checkout_settings', 'edit_checkout_forms', 'read_checkout_payments'] };
    expect(mayUse(user('checkout_settings', 'edit_checkout_forms'), catalog)).toBe(true);
    expect(mayUse(user('checkout_settings', 'view_checkout_dashboard'), catalog)).toBe(false);
    expect(mayUse(user('checkout_settings', 'manage_checkout_settings'), { capabilities: [] })).toBe(false);
  });
});
