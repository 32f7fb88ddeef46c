import { isCurrentSubscriptionEvent, type SubscriptionEventFacts } from './subscription-state.repository.js';

const at = (seconds: number) => new Date(seconds * 1000);
const event = (status: string, seconds: number, eventId = `evt_${status}_${seconds}`): SubscriptionEventFacts => ({
  gateway: 'gateway_a',
  subscriptionRef: 'sub_1',
  paymentId: 1,
  status,
  eventId,
  eventCreatedAt: at(seconds),
});
const stored = (status: string, seconds: number, eventId = 'evt_stored') => ({ status, eventId, eventCreatedAt: at(seconds) });

describe('isCurrentSubscriptionEvent', () => {
  it.each([
    ['the first event of a subscription', null, event('incomplete', 100), true],
    ['a newer event', stored('incomplete', 100), event('active', 101), true],
    ['an older event', stored('past_due', 200), event('active', 100), false],
    ['the same event again (a redelivery after a failure)', stored('active', 100, 'evt_same'), event('active', 100, 'evt_same'), true],
    ['same second, further along (created incomplete, updated active)', stored('incomplete', 100), event('active', 100), true],
    ['same second, less far along (a late created after updated)', stored('active', 100), event('incomplete', 100), false],
    ['same second, same progress: the later delivery wins', stored('active', 100), event('past_due', 100), true],
    ['anything after canceled, even newer', stored('canceled', 100), event('active', 500), false],
    ['anything after incomplete_expired', stored('incomplete_expired', 100), event('active', 500), false],
    ['canceled in the same second as active', stored('active', 100), event('canceled', 100), true],
  ])('%s → %p', (_name, current, incoming, expected) => {
    expect(isCurrentSubscriptionEvent(current, incoming)).toBe(expected);
  });
});
