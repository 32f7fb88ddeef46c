import { afterFrom, filterValuesFrom, pageFrom } from '../../../components/list/list-params';
import { PAYMENT_FILTER_NAMES, paymentQueryOf } from './payment-list-model';

describe('payments list: the API query of the address', () => {
  const queryOf = (address: string) => {
    const params = new URLSearchParams(address);
    return paymentQueryOf(filterValuesFrom(params, PAYMENT_FILTER_NAMES), pageFrom(params), afterFrom(params));
  };

  it('passes the filters on as written, the form id as a number, the page from 2 on', () => {
    expect(queryOf('status=completed&mode=test&form_id=7&search=%20ada%20&page=2')).toEqual({ status: 'completed', mode: 'test', form_id: 7, search: 'ada', page: 2 });
    expect(queryOf('gateway=&page=1')).toEqual({});
    expect(queryOf('refunded=partial&disputed=true')).toEqual({ refunded: 'partial', disputed: 'true' });
    expect(queryOf('currency=eur&refunded=any')).toEqual({ currency: 'EUR', refunded: 'any' });
  });

  it('pages deep by the keyset cursor Next put in the address: after without the page number (the API takes one or the other)', () => {
    expect(queryOf('status=completed&page=7&after=MTc2NzIyNTYwMDAwMC40Mg')).toEqual({ status: 'completed', after: 'MTc2NzIyNTYwMDAwMC40Mg' });
    expect(queryOf('page=2&after=')).toEqual({ page: 2 });
  });
});
