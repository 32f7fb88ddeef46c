import type { DataSource } from 'typeorm';
import { type FailureReason, PaymentLedgerService, PaymentQueriesService } from '../../src/modules/payments/index.js';
import { PaymentEntity } from '../../src/modules/payments/payment.entity.js';
import { PaymentRepository } from '../../src/modules/payments/payment.repository.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * `failure_reason` (migration 1764116510000) on the database the suite runs on: the ledger stores
 * the provider's reason a move to `failed` carries in its patch, bounded on write, read the same
 * through the fixed statements and through TypeORM.
 */
describe('payment failure reason', () => {
  let t: TestApp;
  let dataSource: DataSource;
  let ledger: PaymentLedgerService;
  let payments: PaymentRepository;
  let nonce = 0;

  beforeAll(async () => {
    t = await startTestApp();
    dataSource = t.dataSource;
    ledger = t.app.get(PaymentLedgerService);
    payments = t.app.get(PaymentRepository);
  });
  afterAll(() => t.close());

  const newPayment = (values: Partial<PaymentEntity> = {}) =>
    dataSource.transaction((manager) =>
      payments.insert(manager, {
        gateway: 'gateway_a',
        paymentMethod: 'ccard',
        mode: 'test',
        status: 'pending',
        amount: 1000,
        currency: 'USD',
        frequency: 'one-time',
        secretNonce: String(++nonce).padStart(43, 'f'),
        ...values,
      }),
    );

  const storedText = async (id: number): Promise<unknown> => {
    const table = dataSource.getMetadata(PaymentEntity).tableName;
    const [row] = (await dataSource.query(`SELECT \`failure_reason\` FROM \`${table}\` WHERE \`id\` = ?`, [id])) as Array<{ failure_reason: unknown }>;
    return row.failure_reason;
  };

  it('starts empty', async () => {
    const { id } = await newPayment();
    expect((await t.app.get(PaymentQueriesService).findById(id))?.failure_reason).toBeNull();
    expect(await storedText(id)).toBeNull();
  });

  it('stores the reason a move to failed carries, bounded, and reads it back the same every way', async () => {
    const { id } = await newPayment();
    const reason: FailureReason = { code: 'card_declined', decline_code: 'insufficient_funds', message: `Your card has insufficient funds. ${'x'.repeat(700)}` };
    const result = await ledger.transition(id, 'failed', { source: 'test', patch: { failureReason: reason } });
    const bounded = { code: 'card_declined', decline_code: 'insufficient_funds', message: reason.message!.slice(0, 500) };
    expect(result).toMatchObject({ outcome: 'applied', payment: { status: 'failed', failure_reason: bounded } });
    expect(result.payment.failure_reason!.message).toHaveLength(500);
    expect(JSON.parse(String(await storedText(id)))).toEqual(bounded);
    expect((await t.app.get(PaymentQueriesService).findById(id))?.failure_reason).toEqual(bounded);
    expect((await payments.findById(id))?.failureReason).toEqual(bounded);
    expect((await dataSource.getRepository(PaymentEntity).findOneByOrFail({ id })).failureReason).toEqual(bounded);

    // The same reason again is no change: nothing is written (updated_at stays).
    const before = (await payments.findById(id))!.updatedAt;
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await ledger.transition(id, 'failed', { source: 'test', patch: { failureReason: reason } })).toMatchObject({ outcome: 'unchanged' });
    expect((await payments.findById(id))!.updatedAt).toEqual(before);

    // A retry (failed → pending) keeps the last failure's reason; a new failure replaces it.
    await ledger.transition(id, 'pending', { source: 'test' });
    expect((await payments.findById(id))?.failureReason).toEqual(bounded);
    const second: FailureReason = { code: 'expired_card', decline_code: null, message: null };
    expect((await ledger.transition(id, 'failed', { source: 'test', patch: { failureReason: second } })).payment.failure_reason).toEqual(second);
    expect((await payments.findById(id))?.failureReason).toEqual(second);
  });

  it('a new row given a reason stores it as TypeORM does', async () => {
    const reason = { code: 'c'.repeat(150), decline_code: null, message: 'declined' };
    const inserted = await newPayment({ status: 'failed', failureReason: reason });
    const viaTypeorm = await dataSource.getRepository(PaymentEntity).findOneByOrFail({ id: inserted.id });
    expect(viaTypeorm.failureReason).toEqual({ code: 'c'.repeat(100), decline_code: null, message: 'declined' });
    expect(inserted).toStrictEqual(viaTypeorm);
    expect(await payments.findById(inserted.id)).toStrictEqual(viaTypeorm);
  });
});
