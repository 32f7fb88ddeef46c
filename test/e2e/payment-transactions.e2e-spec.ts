import { Writable } from 'node:stream';
import type { DataSource, EntityManager } from 'typeorm';
import { PaymentTransactions } from '../../src/modules/payments/payment-transactions.js';
import { PaymentRepository } from '../../src/modules/payments/payment.repository.js';
import type { PaymentEntity } from '../../src/modules/payments/payment.entity.js';
import { SubscriptionStateEntity } from '../../src/modules/gateway-a/webhook/subscription-state.entity.js';
import { SubscriptionStateRepository } from '../../src/modules/gateway-a/webhook/subscription-state.repository.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Payment transactions on the database the suite runs on: a deadlock victim (MariaDB: two
 * transactions locking two payment rows in opposite order) runs again and commits; the rows a
 * locked decision depends on are read as committed, not from the transaction's snapshot; a status
 * move is one UPDATE that requires the status it was read with. On SQLite the access gate runs
 * transactions one at a time, so the same contention cannot deadlock and nothing is retried.
 */
describe('payment transactions', () => {
  let t: TestApp;
  let dataSource: DataSource;
  let transactions: PaymentTransactions;
  let payments: PaymentRepository;
  let mysql: boolean;
  const lines: Array<{ level: number; msg?: string; errno?: number; attempt?: number; context?: string }> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as (typeof lines)[number]);
      done();
    },
  });
  let nonce = 0;

  beforeAll(async () => {
    t = await startTestApp({ LOG_LEVEL: 'warn' }, { logStream: sink });
    dataSource = t.dataSource;
    transactions = t.app.get(PaymentTransactions);
    payments = t.app.get(PaymentRepository);
    mysql = dataSource.options.type === 'mysql';
  });
  afterAll(() => t.close());
  beforeEach(() => {
    lines.length = 0;
  });

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
        secretNonce: String(++nonce).padStart(43, 'n'),
        ...values,
      }),
    );

  /** Resolves once both parties arrived, or after `timeoutMs` (SQLite: the second cannot start while the first runs). */
  function barrier(timeoutMs: number): () => Promise<void> {
    let arrived = 0;
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    return async () => {
      arrived += 1;
      if (arrived === 2) open();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([opened, new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
      clearTimeout(timer);
    };
  }

  it('runs a deadlock victim again: two transactions locking two payments in opposite order both commit, no update is lost', async () => {
    const a = await newPayment();
    const b = await newPayment();
    const bothHoldTheirFirstRow = barrier(2_000);
    let runs = 0;
    /** Locks `first`, waits for the other transaction to lock its first row, then locks `second`; adds 1 to both amounts. */
    const crossLock = (first: number, second: number) => {
      let firstRun = true;
      return transactions.run(async (manager: EntityManager) => {
        runs += 1;
        const one = (await payments.lockById(manager, first))!;
        if (firstRun) {
          firstRun = false;
          await bothHoldTheirFirstRow();
        }
        const two = (await payments.lockById(manager, second))!;
        await payments.update(manager, one.id, { amount: one.amount + 1, updatedAt: new Date() });
        await payments.update(manager, two.id, { amount: two.amount + 1, updatedAt: new Date() });
      });
    };

    await Promise.all([crossLock(a.id, b.id), crossLock(b.id, a.id)]);

    // Each transaction added 1 to each row: the victim re-read the rows on its second run.
    expect((await payments.findById(a.id))!.amount).toBe(1002);
    expect((await payments.findById(b.id))!.amount).toBe(1002);
    const retries = lines.filter((line) => line.msg?.startsWith('payment transaction aborted by the database'));
    if (mysql) {
      // MariaDB found the deadlock at once and rolled one transaction back (error 1213); it ran again.
      expect(runs).toBe(3);
      expect(retries).toEqual([expect.objectContaining({ level: 40, errno: 1213, attempt: 1 })]);
    } else {
      expect(runs).toBe(2);
      expect(retries).toEqual([]);
    }
  });

  it('gives up after three runs and fails with the database’s error', async () => {
    if (!mysql) return; // SQLite: no deadlock to provoke (one transaction at a time)
    const a = await newPayment();
    let runs = 0;
    const table = dataSource.getMetadata('PaymentEntity').tableName;
    // Another connection holds the row for the whole test, and the lock wait is cut to 1 s: every run times out (1205).
    const holder = dataSource.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    await holder.query(`SELECT id FROM \`${table}\` WHERE id = ? FOR UPDATE`, [a.id]);
    try {
      const error = await transactions
        .run(async (manager) => {
          runs += 1;
          await manager.query('SET SESSION innodb_lock_wait_timeout = 1');
          await payments.lockById(manager, a.id);
        })
        .catch((caught: unknown) => caught);
      expect((error as { driverError?: { errno?: number } }).driverError?.errno).toBe(1205);
      expect(runs).toBe(3);
      expect(lines.filter((line) => line.msg?.startsWith('payment transaction aborted by the database')).map((line) => line.errno)).toEqual([1205, 1205]);
    } finally {
      await holder.rollbackTransaction();
      await holder.release();
    }
  });

  describe('reads under the lock see the latest committed row, not the transaction’s snapshot', () => {
    // TiDB's plain reads inside a pessimistic transaction read the snapshot of its start; InnoDB's
    // read the snapshot of the transaction's first plain read. A plain SELECT first makes MariaDB
    // behave like TiDB here. SQLite: another writer cannot commit while a transaction runs.
    const withEarlySnapshot = async <T>(work: (manager: EntityManager) => Promise<T>, meanwhile: () => Promise<unknown>): Promise<T> =>
      dataSource.transaction(async (manager) => {
        await manager.query(`SELECT COUNT(*) FROM \`${dataSource.getMetadata('PaymentEntity').tableName}\``);
        await meanwhile();
        return work(manager);
      });

    it('the invoice row of a renewal (lockByProviderRef) and the payment row (lockById)', async () => {
      if (!mysql) return;
      const parent = await newPayment({ providerSubscriptionRef: 'sub_snapshot' });
      let renewalId = 0;
      const seen = await withEarlySnapshot(
        async (manager) => ({ byRef: await payments.lockByProviderRef(manager, 'gateway_a', 'in_snapshot'), byId: await payments.lockById(manager, parent.id) }),
        async () => {
          renewalId = (await newPayment({ parentPaymentId: parent.id, providerPaymentRef: 'in_snapshot', status: 'completed' })).id;
          await dataSource.transaction((manager) => payments.update(manager, parent.id, { status: 'processing', updatedAt: new Date() }));
        },
      );
      expect(seen.byRef?.id).toBe(renewalId);
      expect(seen.byId?.status).toBe('processing');
    });

    it('the stored subscription state: an older event does not overwrite one committed meanwhile', async () => {
      if (!mysql) return;
      const states = t.app.get(SubscriptionStateRepository);
      const payment = await newPayment({ providerSubscriptionRef: 'sub_state_snapshot' });
      const event = (eventId: string, status: string, at: string) => ({
        gateway: 'gateway_a',
        subscriptionRef: 'sub_state_snapshot',
        paymentId: payment.id,
        status,
        eventId,
        eventCreatedAt: new Date(at),
      });
      const current = await withEarlySnapshot(
        (manager) => states.claimIfCurrent(manager, event('evt_older', 'incomplete', '2026-11-26T10:00:00Z')),
        () => dataSource.transaction((manager) => states.claimIfCurrent(manager, event('evt_newer', 'canceled', '2026-11-26T10:05:00Z'))),
      );
      expect(current).toBe(false);
      const stored = await dataSource.getRepository(SubscriptionStateEntity).findOneByOrFail({ gateway: 'gateway_a', subscriptionRef: 'sub_state_snapshot' });
      expect(stored).toMatchObject({ eventId: 'evt_newer', status: 'canceled' });
    });
  });

  describe('PaymentRepository.update', () => {
    it('writes only the columns it is given, and only while the row has the expected status', async () => {
      const row = await newPayment({ emailAddress: 'before@example.test' });
      // Another writer changed a column this update does not set: it is kept (a re-read save would not know).
      await dataSource.transaction((manager) => payments.update(manager, row.id, { emailAddress: 'other@example.test' }));
      expect(await dataSource.transaction((manager) => payments.update(manager, row.id, { status: 'processing', updatedAt: new Date() }, 'failed'))).toBe(false);
      expect((await payments.findById(row.id))!.status).toBe('pending');
      const at = new Date('2026-11-26T12:00:00.123Z');
      expect(await dataSource.transaction((manager) => payments.update(manager, row.id, { status: 'processing', providerCaptureRef: null, updatedAt: at }, 'pending'))).toBe(true);
      expect(await payments.findById(row.id)).toMatchObject({ status: 'processing', emailAddress: 'other@example.test', amount: 1000, updatedAt: at });
    });

    it('refuses an empty change', async () => {
      const row = await newPayment();
      await expect(dataSource.transaction((manager) => payments.update(manager, row.id, { emailAddress: undefined }))).rejects.toThrow(/at least one column/);
    });
  });
});
