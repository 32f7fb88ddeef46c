import { CORE_FIELDS as CONSOLE_CORE_FIELDS, MODES, PAYMENT_STATUSES as CONSOLE_PAYMENT_STATUSES, WEBHOOK_EVENT_TYPES } from '../../console/src/api/vocabulary';
import { CORE_FIELDS } from '../../src/modules/forms/index';
import { GATEWAY_MODES } from '../../src/modules/gateways/index';
import { OUTGOING_EVENT_TYPES } from '../../src/modules/outgoing-webhooks/index';
import { PAYMENT_STATUSES } from '../../src/modules/payments/index';

/**
 * The console's word lists against the service's own. The console's type check already holds
 * the enums to the generated client; the payer fields have no type of their own in the client.
 */
describe('console vocabulary ↔ server', () => {
  it('lists the payer fields every form may have, in the service order', () => {
    expect([...CONSOLE_CORE_FIELDS]).toEqual([...CORE_FIELDS]);
  });

  it('offers the modes and payment statuses the service knows', () => {
    expect([...MODES].sort()).toEqual([...GATEWAY_MODES].sort());
    expect([...CONSOLE_PAYMENT_STATUSES].sort()).toEqual([...PAYMENT_STATUSES].sort());
  });

  it('offers the outgoing event types the service sends, in its order', () => {
    expect([...WEBHOOK_EVENT_TYPES]).toEqual([...OUTGOING_EVENT_TYPES]);
  });
});
