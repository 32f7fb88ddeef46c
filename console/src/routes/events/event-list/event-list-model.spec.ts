import { englishT } from '../../../i18n/english';
import { EVENT_OUTCOMES } from '../../../api/vocabulary';
import { filterValuesFrom, pageFrom } from '../../../components/list/list-params';
import { dayAfter, EVENT_FILTER_NAMES, eventQueryOf, filterFieldOfParam, OUTCOME_MEANING } from './event-list-model';

/** The API query of an address, as the screen reads it (the list kit, then this screen's model). */
function eventQueryFrom(params: URLSearchParams) {
  return eventQueryOf(filterValuesFrom(params, EVENT_FILTER_NAMES), pageFrom(params));
}

describe('provider events: filters in the address', () => {
  it('reads the API query from the address: trimmed, empty ones dropped, the page from 2 on', () => {
    const params = new URLSearchParams('gateway=gateway_a&mode=&outcome=rejected&event_type=%20charge.refunded%20&page=3');
    expect(eventQueryFrom(params)).toEqual({ gateway: 'gateway_a', outcome: 'rejected', event_type: 'charge.refunded', page: 3 });
    expect(eventQueryFrom(new URLSearchParams('page=1'))).toEqual({});
    expect(eventQueryFrom(new URLSearchParams('page=abc'))).toEqual({});
  });

  it('sends a payment id as a number, and anything else as written for the API to refuse at its field', () => {
    expect(eventQueryFrom(new URLSearchParams('payment_id=42'))).toEqual({ payment_id: 42 });
    expect(eventQueryFrom(new URLSearchParams('payment_id=4x'))).toEqual({ payment_id: '4x' });
  });

  it('turns the inclusive end date into the exclusive received_before of the next day (UTC)', () => {
    expect(eventQueryFrom(new URLSearchParams('received_from=2026-01-01&received_to=2026-01-31'))).toEqual({ received_from: '2026-01-01', received_before: '2026-02-01' });
    expect(eventQueryFrom(new URLSearchParams('received_to=2026-12-31'))).toEqual({ received_before: '2027-01-01' });
    // Not a date: passed on, so the API's message names the field.
    expect(eventQueryFrom(new URLSearchParams('received_to=soon'))).toEqual({ received_before: 'soon' });
  });

  it('knows the day after a date, across months, years and a leap day, and nothing else', () => {
    expect(dayAfter('2028-02-28')).toBe('2028-02-29');
    expect(dayAfter('2027-02-28')).toBe('2027-03-01');
    expect(dayAfter('2026-02-30')).toBeNull();
    expect(dayAfter('2026-1-3')).toBeNull();
    expect(dayAfter('')).toBeNull();
  });

  it('shows the API’s received_before message at the end date field, and ignores params it has no field for', () => {
    expect(filterFieldOfParam('received_before')).toBe('received_to');
    expect(filterFieldOfParam('outcome')).toBe('outcome');
    expect(filterFieldOfParam('per_page')).toBeNull();
  });

  it('explains every outcome the API can answer', () => {
    for (const outcome of EVENT_OUTCOMES) expect(englishT(OUTCOME_MEANING[outcome])).toMatch(/\w/);
  });
});
