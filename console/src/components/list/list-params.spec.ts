import { afterFrom, filterValuesFrom, pageFrom, searchParamsFor, withPage } from './list-params';

const NAMES = ['gateway', 'mode', 'outcome', 'event_type', 'received_to'] as const;

describe('list screens: filters and page in the address', () => {
  it('reads the filters trimmed, empty and unknown ones dropped', () => {
    const params = new URLSearchParams('gateway=gateway_a&mode=&outcome=rejected&event_type=%20charge.refunded%20&other=1&page=3');
    expect(filterValuesFrom(params, NAMES)).toEqual({ gateway: 'gateway_a', outcome: 'rejected', event_type: 'charge.refunded' });
  });

  it('reads the page from 2 on, anything else is page 1', () => {
    expect(pageFrom(new URLSearchParams('page=3'))).toBe(3);
    for (const page of ['1', '0', '-2', 'abc', '2.5', '']) expect(pageFrom(new URLSearchParams(`page=${page}`))).toBe(1);
    expect(pageFrom(new URLSearchParams())).toBe(1);
  });

  it('writes a filter form back in a fixed order, without empty values (and so on page 1)', () => {
    const params = searchParamsFor({ outcome: 'failed', gateway: ' ', received_to: '2026-01-31', event_type: 'x' }, NAMES);
    expect(params.toString()).toBe('outcome=failed&event_type=x&received_to=2026-01-31');
    expect(filterValuesFrom(params, NAMES)).toEqual({ outcome: 'failed', event_type: 'x', received_to: '2026-01-31' });
  });

  it('changes the page and keeps every filter', () => {
    expect(withPage(new URLSearchParams('mode=test&page=2'), 3).toString()).toBe('mode=test&page=3');
    // A keyset page: the cursor goes into the address with the page number; a numbered page drops it.
    expect(withPage(new URLSearchParams('mode=test&page=2'), 3, 'abc_-').toString()).toBe('mode=test&page=3&after=abc_-');
    expect(withPage(new URLSearchParams('mode=test&page=3&after=abc'), 2).toString()).toBe('mode=test&page=2');
    expect(afterFrom(new URLSearchParams('after=%20abc%20'))).toBe('abc');
    expect(afterFrom(new URLSearchParams('after='))).toBeUndefined();
  });
});
