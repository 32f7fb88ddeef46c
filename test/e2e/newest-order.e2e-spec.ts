import type { DataSource } from 'typeorm';
import { FormsService } from '../../src/modules/forms/index.js';
import { PaymentFormEntity } from '../../src/modules/forms/payment-form.entity.js';
import { ConsoleSessionEntity } from '../../src/modules/identity/console-session.entity.js';
import { ConsoleSessionService, MAX_SESSIONS_PER_PASSWORD } from '../../src/modules/identity/console-session.service.js';
import { PaymentLogEntity } from '../../src/modules/payments/payment-log.entity.js';
import { PaymentLogRepository } from '../../src/modules/payments/payment-log.repository.js';
import type { PaymentEntity } from '../../src/modules/payments/payment.entity.js';
import { PaymentRepository } from '../../src/modules/payments/payment.repository.js';
import { formSettings } from '../support/payment-fixtures.js';
import { startTestApp, TEST_ADMIN_PASSWORD, type TestApp } from '../support/test-app.js';

/**
 * "Newest" is the latest creation time, then the highest id, never the highest id alone: on a
 * distributed engine AUTO_INCREMENT ids are unique but handed out in batches per server, so a
 * row created later can have a lower id (docs/scaling.md). Each case writes rows whose ids run
 * against their creation times, as two TiDB servers would, and reads them through the service.
 */
describe('newest by creation time, not by id', () => {
  let t: TestApp;
  let dataSource: DataSource;
  let payments: PaymentRepository;
  let nonce = 0;
  const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

  beforeAll(async () => {
    t = await startTestApp();
    dataSource = t.dataSource;
    payments = t.app.get(PaymentRepository);
  });
  afterAll(() => t.close());

  const newPayment = (values: Partial<PaymentEntity>) =>
    dataSource.transaction((manager) =>
      payments.insert(manager, {
        gateway: 'gateway_a',
        paymentMethod: 'ccard',
        mode: 'test',
        status: 'pending',
        amount: 1000,
        currency: 'USD',
        frequency: 'one-time',
        secretNonce: String(++nonce).padStart(43, 'o'),
        ...values,
      }),
    );

  it('a payment’s log: its tail and its whole log are in time order', async () => {
    const logs = dataSource.getRepository(PaymentLogEntity);
    // Ids ascending, times descending: the line written first (lowest id) is the newest.
    for (const [event, minutes] of [
      ['third', 1],
      ['second', 2],
      ['first', 3],
    ] as const) {
      await logs.insert({ paymentId: 424_242, level: 'info', event, message: event, context: null, createdAt: minutesAgo(minutes) });
    }
    const repository = t.app.get(PaymentLogRepository);
    expect((await repository.forPayment(424_242)).map((line) => line.event)).toEqual(['first', 'second', 'third']);
    const tail = await repository.tailOf(424_242, 2);
    expect(tail.total).toBe(3);
    expect(tail.entries.map((line) => line.event)).toEqual(['second', 'third']);
  });

  it('section B’s transaction id names the newest payment holding that provider id', async () => {
    const newer = await newPayment({ gateway: 'gateway_a', providerPaymentRef: 'shared_ref_1', createdAt: minutesAgo(1) });
    await newPayment({ gateway: 'gateway_b', providerPaymentRef: 'shared_ref_1', createdAt: minutesAgo(5) });
    expect((await payments.findByTransactionId('shared_ref_1'))?.id).toBe(newer.id);
  });

  it('a subscription’s first payment is the oldest one holding the subscription id', async () => {
    await newPayment({ providerSubscriptionRef: 'sub_order_1', createdAt: minutesAgo(1) });
    const first = await newPayment({ providerSubscriptionRef: 'sub_order_1', createdAt: minutesAgo(5) });
    expect((await payments.findBySubscriptionRef('gateway_a', 'sub_order_1'))?.id).toBe(first.id);
  });

  it('the admin forms list, newest first', async () => {
    const forms = t.app.get(FormsService);
    const made = [];
    for (const title of ['made third', 'made second', 'made first']) made.push(await forms.create({ title, status: 'draft', authorId: t.admin.id, settings: formSettings() }));
    const rows = dataSource.getRepository(PaymentFormEntity);
    for (const [index, minutes] of [1, 2, 3].entries()) await rows.update({ id: made[index].id }, { createdAt: minutesAgo(minutes) });
    const page = await forms.list({ page: 1, perPage: 3, status: 'draft' });
    expect(page.items.map((form) => form.title)).toEqual(['made third', 'made second', 'made first']);
  });

  it('console sessions beyond the limit per application password: the oldest by sign-in time end', async () => {
    const service = t.app.get(ConsoleSessionService);
    const sessions = dataSource.getRepository(ConsoleSessionEntity);
    const { session: first } = await service.signIn(t.admin.login, TEST_ADMIN_PASSWORD, '127.0.0.1');
    const applicationPasswordId = (await sessions.findOneByOrFail({ id: first.id })).applicationPasswordId!;
    // Fill up to the limit with later ids; the last one inserted is the oldest sign-in of all.
    const filler: number[] = [];
    for (let index = 1; index < MAX_SESSIONS_PER_PASSWORD; index += 1) {
      const oldest = index === MAX_SESSIONS_PER_PASSWORD - 1;
      const at = oldest ? minutesAgo(120) : minutesAgo(60 - index);
      const inserted = await sessions.insert({ tokenHash: `hash-${String(index).padStart(4, '0')}`.padEnd(64, 'x'), userId: t.admin.id, applicationPasswordId, createdAt: at, lastSeenAt: at, expiresAt: new Date(Date.now() + 3_600_000) });
      filler.push(Number(inserted.identifiers[0].id));
    }
    await service.signIn(t.admin.login, TEST_ADMIN_PASSWORD, '127.0.0.1');
    const left = (await sessions.find({ where: { applicationPasswordId } })).map((row) => row.id);
    expect(left).toHaveLength(MAX_SESSIONS_PER_PASSWORD);
    expect(left).toContain(first.id);
    expect(left).not.toContain(filler[filler.length - 1]);
  });
});
