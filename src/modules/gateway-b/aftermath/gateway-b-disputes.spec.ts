import { type FakeGatewayB, startFakeGatewayB } from '../../../../test/fakes/gateway-b/index.js';
import { GatewayBClient } from '../client/gateway-b-client.js';
import { toGatewayBAmount } from '../client/gateway-b-money.js';
import { MalformedAnswer, parseDisputePage } from '../client/gateway-b-wire.js';
import { GATEWAY_B_DISPUTE_PAGES, GatewayBDisputes, gatewayBDisputeStatus, gatewayBDisputeUrl } from './gateway-b-disputes.js';

describe('gateway B disputes: PayPal\'s states in the card gateway\'s words', () => {
  const status = (value: string, stage = 'CHARGEBACK', outcome?: string, amountRefunded?: string) =>
    gatewayBDisputeStatus({
      status: value,
      dispute_life_cycle_stage: stage,
      ...(outcome || amountRefunded ? { dispute_outcome: { ...(outcome ? { outcome_code: outcome } : {}), ...(amountRefunded ? { amount_refunded: { currency_code: 'USD', value: amountRefunded } } : {}) } } : {}),
    });

  it.each([
    ['OPEN', 'needs_response'],
    ['WAITING_FOR_SELLER_RESPONSE', 'needs_response'],
    ['WAITING_FOR_BUYER_RESPONSE', 'under_review'],
    ['UNDER_REVIEW', 'under_review'],
    ['OTHER', 'needs_response'],
    ['A_STATUS_PAYPAL_ADDS_LATER', 'needs_response'],
  ])('open %s → %s, with warning_ at the inquiry stage', (value, expected) => {
    expect(status(value)).toBe(expected);
    expect(status(value, 'INQUIRY')).toBe(`warning_${expected}`);
  });

  it.each([
    ['RESOLVED_BUYER_FAVOUR', 'CHARGEBACK', 'lost'],
    ['RESOLVED_BUYER_FAVOUR', 'INQUIRY', 'lost'],
    ['ACCEPTED', 'CHARGEBACK', 'lost'],
    ['RESOLVED_SELLER_FAVOUR', 'CHARGEBACK', 'won'],
    ['RESOLVED_WITH_PAYOUT', 'CHARGEBACK', 'won'],
    ['DENIED', 'PRE_ARBITRATION', 'won'],
    ['CANCELED_BY_BUYER', 'CHARGEBACK', 'won'],
    ['CANCELED_BY_BUYER', 'INQUIRY', 'warning_closed'],
    ['NONE', 'CHARGEBACK', 'won'],
    ['NONE', 'INQUIRY', 'warning_closed'],
  ])('RESOLVED with %s at %s → %s', (outcome, stage, expected) => {
    expect(status('RESOLVED', stage, outcome)).toBe(expected);
  });

  it('RESOLVED without a named outcome: lost when money went back to the buyer', () => {
    expect(status('RESOLVED', 'CHARGEBACK', undefined, '5.00')).toBe('lost');
    expect(status('RESOLVED', 'CHARGEBACK', 'NONE', '0.00')).toBe('won');
    expect(status('RESOLVED', 'CHARGEBACK')).toBe('won');
  });

  it('the list\'s next page: only the token of the next link (absolute or relative, a raw + kept); a next link without one is malformed', () => {
    const page = (href: string) => parseDisputePage({ items: [{ dispute_id: 'PP-D-1' }], links: [{ href: 'https://api-m.paypal.com/v1/customer/disputes', rel: 'self' }, { href, rel: 'next' }] });
    expect(page('https://api-m.paypal.com/v1/customer/disputes?page_size=50&next_page_token=b2Zm%2Bc2V0=')).toEqual({ disputeIds: ['PP-D-1'], nextPageToken: 'b2Zm+c2V0=' });
    expect(page('/v1/customer/disputes?next_page_token=b2Zm+c2V0=').nextPageToken).toBe('b2Zm+c2V0=');
    expect(() => page('https://api-m.paypal.com/v1/customer/disputes?page_size=50')).toThrow(MalformedAnswer);
    expect(parseDisputePage({ links: [{ href: 'https://api-m.paypal.com/v1/customer/disputes', rel: 'self' }] })).toEqual({ disputeIds: [] });
  });

  it('the Resolution Center page: sandbox for test mode, the id encoded', () => {
    expect(gatewayBDisputeUrl('test', 'PP-D-27803')).toBe('https://www.sandbox.paypal.com/resolutioncenter/view/PP-D-27803');
    expect(gatewayBDisputeUrl('live', 'PP-D-27803')).toBe('https://www.paypal.com/resolutioncenter/view/PP-D-27803');
  });
});

describe('gateway B disputes: one payment\'s disputes read from the fake', () => {
  let fake: FakeGatewayB;
  let client: GatewayBClient;
  const disputes = new GatewayBDisputes();
  const now = new Date('2026-11-28T12:00:00Z');
  let sequence = 0;

  beforeAll(async () => {
    fake = await startFakeGatewayB();
  });
  afterAll(() => fake.stop());
  beforeEach(() => {
    fake.clearFaults();
    client = new GatewayBClient({ baseUrl: fake.url, clientId: fake.clientId, clientSecret: fake.clientSecret }, { retryDelayMs: 5 });
  });

  async function captured(minor = 1999, currency = 'USD') {
    sequence += 1;
    const order = await client.createOrder({ amount: toGatewayBAmount(minor, currency), customId: String(sequence), requestId: `disputes-spec-${sequence}` });
    fake.approveOrder(order.id);
    const done = await client.captureOrder(order.id, `disputes-spec-capture-${sequence}`);
    const captureId = done.purchase_units[0].payments!.captures[0].id;
    return { orderId: order.id, payment: { id: sequence, mode: 'test' as const, currency, captureId, amountReceived: minor, refunded: 0 } };
  }

  it('maps an open dispute: minor units, reason, due date, the provider\'s page; a capture without disputes has none', async () => {
    const { orderId, payment } = await captured();
    expect(await disputes.read(client, payment, now)).toEqual({ disputes: [], read: 1 });
    const opened = fake.openDispute(orderId, { value: '5.00', reason: 'UNAUTHORISED', dueDate: new Date('2026-12-05T00:00:00Z') }).dispute;
    expect(await disputes.read(client, payment, now)).toEqual({
      read: 2,
      disputes: [
        {
          providerDisputeId: opened.dispute_id,
          amount: 500,
          currency: 'USD',
          status: 'needs_response',
          reason: 'unauthorised',
          evidenceDueBy: new Date('2026-12-05T00:00:00Z'),
          dashboardUrl: `https://www.sandbox.paypal.com/resolutioncenter/view/${opened.dispute_id as string}`,
          createdAt: new Date(opened.create_time as string),
        },
      ],
    });
  });

  it('amounts in a currency without decimals at PayPal (HUF) become the money module\'s minor units', async () => {
    const { orderId, payment } = await captured(150_000, 'HUF');
    fake.openDispute(orderId, { value: '1500' });
    expect((await disputes.read(client, payment, now)).disputes).toEqual([expect.objectContaining({ amount: 150_000, currency: 'HUF' })]);
  });

  it('a lost dispute takes what went back to the buyer, never more than the refunds left of the payment', async () => {
    const { orderId, payment } = await captured();
    const opened = fake.openDispute(orderId).dispute;
    fake.resolveDispute(opened.dispute_id as string, 'RESOLVED_BUYER_FAVOUR', { amountRefunded: '15.00' });
    expect((await disputes.read(client, payment, now)).disputes).toEqual([expect.objectContaining({ status: 'lost', amount: 1500, evidenceDueBy: null })]);
    // Settled by a refund in the Resolution Center, which the order's refunds already count: nothing more.
    expect((await disputes.read(client, { ...payment, refunded: 1999 }, now)).disputes).toEqual([expect.objectContaining({ status: 'lost', amount: 0 })]);
    expect((await disputes.read(client, { ...payment, refunded: 999 }, now)).disputes).toEqual([expect.objectContaining({ status: 'lost', amount: 1000 })]);
  });

  it('leaves out a dispute that names another capture, or another currency', async () => {
    const { orderId, payment } = await captured();
    const opened = fake.openDispute(orderId).dispute;
    // The provider lists it for this capture, but its details name another transaction.
    fake.fault({ method: 'GET', path: `/v1/customer/disputes/${opened.dispute_id as string}`, body: { ...opened, disputed_transactions: [{ seller_transaction_id: 'ANOTHERCAPTURE00' }] } });
    expect(await disputes.read(client, payment, now)).toEqual({ disputes: [], read: 2 });
    fake.fault({ method: 'GET', path: `/v1/customer/disputes/${opened.dispute_id as string}`, body: { ...opened, dispute_amount: { currency_code: 'EUR', value: '19.99' } } });
    expect((await disputes.read(client, payment, now)).disputes).toEqual([]);
    expect((await disputes.read(client, payment, now)).disputes).toHaveLength(1);
  });

  it('follows the list\'s pages, at most GATEWAY_B_DISPUTE_PAGES', async () => {
    const { orderId, payment } = await captured();
    const opened = fake.openDispute(orderId).dispute.dispute_id as string;
    const next = Buffer.from('offset:50', 'utf8').toString('base64');
    const page = (ids: string[], more: boolean) => ({
      items: ids.map((dispute_id) => ({ dispute_id })),
      links: [{ href: `${fake.url}/v1/customer/disputes`, rel: 'self', method: 'GET' }, ...(more ? [{ href: `https://elsewhere.example/v1/customer/disputes?next_page_token=${next}`, rel: 'next', method: 'GET' }] : [])],
    });
    fake.fault({ method: 'GET', path: '/v1/customer/disputes', body: page([opened], true), times: GATEWAY_B_DISPUTE_PAGES + 1 });
    const result = await disputes.read(client, payment, now);
    expect(result.disputes).toHaveLength(1);
    expect(result.read).toBe(GATEWAY_B_DISPUTE_PAGES + 1);
    const listed = fake.callsTo('GET', '/v1/customer/disputes').slice(-GATEWAY_B_DISPUTE_PAGES);
    // Only the token is taken from the next link: every page is asked of the mode's own base URL.
    expect(listed.slice(1).map((call) => call.query.next_page_token)).toEqual(Array(GATEWAY_B_DISPUTE_PAGES - 1).fill(next));
    fake.clearFaults();
  });
});
