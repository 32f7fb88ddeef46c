import { DataSource, type EntityTarget, type ObjectLiteral } from 'typeorm';
import { FormsService } from '../../src/modules/forms/index.js';
import { PaymentFormEntity } from '../../src/modules/forms/payment-form.entity.js';
import { toPaymentForm } from '../../src/modules/forms/forms.service.js';
import { IdentityService } from '../../src/modules/identity/index.js';
import { PaymentLogEntity } from '../../src/modules/payments/payment-log.entity.js';
import { PaymentLogRepository } from '../../src/modules/payments/payment-log.repository.js';
import { PaymentEntity } from '../../src/modules/payments/payment.entity.js';
import { PaymentRepository } from '../../src/modules/payments/payment.repository.js';
import { OptionsService } from '../../src/modules/settings/index.js';
import { OptionEntity } from '../../src/modules/settings/option.entity.js';
import { WebhookEventEntity } from '../../src/modules/webhooks/webhook-event.entity.js';
import { WebhookEventRepository } from '../../src/modules/webhooks/webhook-event.repository.js';
import { createPaymentForm } from '../support/payment-fixtures.js';
import { startTestApp, TEST_ADMIN_PASSWORD, type TestApp } from '../support/test-app.js';

/**
 * The hot-path statements (fixed SQL through `manager.query`, docs/benchmarks.md recommendation 3)
 * against TypeORM itself, on the database the suite runs on (SQLite, or MariaDB with DATABASE_URL):
 * what they read equals TypeORM's entity, and what they write is stored exactly as TypeORM's
 * insert/update of the same values stores it (every column's value, and on SQLite its storage class).
 */
describe('hot-path SQL equals TypeORM', () => {
  let t: TestApp;
  let dataSource: DataSource;
  let mysql: boolean;

  beforeAll(async () => {
    t = await startTestApp();
    dataSource = t.dataSource;
    mysql = dataSource.options.type === 'mysql';
  });
  afterAll(() => t.close());

  /** A stored row as the driver returns it, every column but `skip`; on SQLite with each column's storage class. */
  async function stored(entity: EntityTarget<ObjectLiteral>, id: number, skip: string[] = ['id']): Promise<Record<string, unknown>> {
    const metadata = dataSource.getMetadata(entity);
    const columns = metadata.columns.map((column) => column.databaseName).filter((name) => !skip.includes(name));
    const select = columns.flatMap((name) => (mysql ? [`\`${name}\``] : [`\`${name}\``, `typeof(\`${name}\`) AS \`${name}:type\``]));
    const rows = (await dataSource.query(`SELECT ${select.join(', ')} FROM \`${metadata.tableName}\` WHERE \`id\` = ?`, [id])) as Record<string, unknown>[];
    expect(rows).toHaveLength(1);
    return { ...rows[0] };
  }

  describe('payments', () => {
    let payments: PaymentRepository;
    beforeAll(() => {
      payments = t.app.get(PaymentRepository);
    });

    const full = {
      formId: 3,
      parentPaymentId: 2,
      gateway: 'gateway_a',
      paymentMethod: 'ccard',
      mode: 'test',
      status: 'processing',
      amount: 1999,
      currency: 'USD',
      applicationFeeAmount: 40,
      amountReceived: 0,
      setupAmount: 500,
      planIndex: 1,
      priceIndex: 0,
      frequency: 'month',
      emailAddress: 'payer@example.test',
      firstName: 'Ada',
      lastName: 'L’ovelace',
      customFields: '{"company":"Ü \\"quoted\\""}',
      secretNonce: 'n'.repeat(43),
      providerPaymentRef: 'pi_full',
      providerCustomerRef: 'cus_1',
      providerSubscriptionRef: 'sub_1',
      providerCaptureRef: 'cap_1',
      subscriptionStatus: 'active',
      clientIp: '2001:db8::1',
      createdAt: new Date('2026-11-26T09:05:03.007Z'),
      updatedAt: new Date('2026-11-26T10:00:00.090Z'),
    };
    const minimal = { gateway: 'gateway_b', paymentMethod: 'paypal', mode: 'live', status: 'pending', amount: 0, currency: 'JPY', frequency: 'once', secretNonce: 'm'.repeat(43) };

    it.each([
      ['every column set', full],
      ['only the required columns (the rest empty, now)', minimal],
    ])('insert, findById and lockById with %s', async (_name, values) => {
      const inserted = await dataSource.transaction((manager) => payments.insert(manager, values));
      expect(inserted).toBeInstanceOf(PaymentEntity);
      expect(inserted.id).toEqual(expect.any(Number));

      // Reads: the entity TypeORM hydrates, field for field (types included: toStrictEqual).
      const viaTypeorm = await dataSource.getRepository(PaymentEntity).findOneByOrFail({ id: inserted.id });
      expect(await payments.findById(inserted.id)).toStrictEqual(viaTypeorm);
      expect(await dataSource.transaction((manager) => payments.lockById(manager, inserted.id))).toStrictEqual(viaTypeorm);
      expect(inserted).toStrictEqual(viaTypeorm);

      // Writes: the same values saved by TypeORM are stored identically.
      const repository = dataSource.getRepository(PaymentEntity);
      const { id: _id, ...same } = viaTypeorm;
      // The twin needs a provider ref or a nonce of its own: one of them is unique per payment
      // (MariaDB: the key `provider_ref_key`, migration KeyProviderRefsWithoutNulls).
      const twin = await repository.save(
        repository.create({ ...same, providerPaymentRef: same.providerPaymentRef ? `${same.providerPaymentRef}_twin` : null, secretNonce: 't'.repeat(43) }),
      );
      const mine = await stored(PaymentEntity, inserted.id);
      const theirs = await stored(PaymentEntity, twin.id);
      if (values === full) theirs.provider_payment_ref = 'pi_full';
      theirs.secret_nonce = values.secretNonce;
      expect(mine).toEqual(theirs);
      if (!mysql) expect(mine).toMatchObject({ 'amount:type': 'integer', 'created_at:type': 'text', 'first_name:type': values === full ? 'text' : 'null' });
    });

    it('finds nothing for an unknown id', async () => {
      expect(await payments.findById(999_999)).toBeNull();
      expect(await dataSource.transaction((manager) => payments.lockById(manager, 999_999))).toBeNull();
    });

    it('rolls an insert back with its transaction', async () => {
      let id = 0;
      await expect(
        dataSource.transaction(async (manager) => {
          id = (await payments.insert(manager, { ...minimal, secretNonce: 'r'.repeat(43) })).id;
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(id).toBeGreaterThan(0);
      expect(await payments.findById(id)).toBeNull();
    });

    it('lockById holds the row lock until the transaction ends (MariaDB: FOR UPDATE)', async () => {
      if (!mysql) return; // SQLite: the access gate runs transactions one at a time instead (sqlite-access-gate.spec.ts)
      const { id } = await dataSource.transaction((manager) => payments.insert(manager, { ...minimal, secretNonce: 'l'.repeat(43) }));
      const table = dataSource.getMetadata(PaymentEntity).tableName;
      await dataSource.transaction(async (manager) => {
        expect(await payments.lockById(manager, id)).not.toBeNull();
        await expect(dataSource.query(`SELECT id FROM \`${table}\` WHERE id = ? FOR UPDATE NOWAIT`, [id])).rejects.toThrow(/lock/i);
      });
      await expect(dataSource.query(`SELECT id FROM \`${table}\` WHERE id = ? FOR UPDATE NOWAIT`, [id])).resolves.toHaveLength(1);
    });
  });

  describe('payment log', () => {
    it.each([
      ['with a payment and context', { paymentId: 7, level: 'info' as const, event: 'status_changed', message: 'Status pending → processing (webhook).', context: { from: 'pending', n: 1, none: null } }],
      ['without payment or context', { paymentId: null, level: 'warning' as const, event: 'e'.repeat(70), message: 'm'.repeat(600) }],
    ])('record %s stores what TypeORM’s insert stored', async (_name, entry) => {
      const logs = t.app.get(PaymentLogRepository);
      await logs.record(entry);
      await dataSource.transaction((manager) => logs.record(entry, manager));
      const table = dataSource.getMetadata(PaymentLogEntity).tableName;
      // The two rows just written: the newest two ids, not MAX(id) and the one before it (a Galera
      // node steps ids by the cluster size).
      const newest = (await dataSource.query(`SELECT id FROM \`${table}\` ORDER BY id DESC LIMIT 2`)) as Array<{ id: number }>;
      const ids = newest.map((row) => Number(row.id)).reverse();
      const repository = dataSource.getRepository(PaymentLogEntity);
      for (const id of ids) {
        const row = await repository.findOneByOrFail({ id });
        expect(row.createdAt).toBeInstanceOf(Date);
        expect(Math.abs(row.createdAt.getTime() - Date.now())).toBeLessThan(60_000);
        // TypeORM's insert of the same values, at the same time.
        const twin = await repository.insert({
          paymentId: entry.paymentId,
          level: entry.level,
          event: entry.event.slice(0, 60),
          message: entry.message.slice(0, 500),
          context: 'context' in entry ? JSON.stringify(entry.context) : null,
          createdAt: row.createdAt,
        });
        expect(await stored(PaymentLogEntity, id)).toEqual(await stored(PaymentLogEntity, Number(twin.identifiers[0].id)));
      }
    });
  });

  describe('webhook events', () => {
    let events: WebhookEventRepository;
    beforeAll(() => {
      events = t.app.get(WebhookEventRepository);
    });
    const now = new Date('2026-11-26T11:00:00.123Z');

    it('records, claims and marks an event exactly as TypeORM’s insert and updates stored it', async () => {
      const recorded = await events.recordEventOnce({ provider: 'gateway_a', eventId: 'evt_hot_1', type: 'payment_intent.processing', mode: 'test' }, undefined, now);
      expect(recorded.recorded).toBe(true);
      if (!recorded.recorded) return;
      const repository = dataSource.getRepository(WebhookEventEntity);
      expect(recorded.event).toStrictEqual(await repository.findOneByOrFail({ id: recorded.event.id }));

      const twin = await repository.insert({
        provider: 'gateway_a',
        eventId: 'evt_hot_1_twin',
        eventType: 'payment_intent.processing',
        mode: 'test',
        status: 'received',
        paymentId: null,
        receivedAt: now,
        processedAt: null,
        claimedBy: null,
        claimExpiresAt: null,
        reason: null,
      });
      const twinId = Number(twin.identifiers[0].id);
      const compare = async () => expect(await stored(WebhookEventEntity, recorded.event.id, ['id', 'event_id'])).toEqual(await stored(WebhookEventEntity, twinId, ['id', 'event_id']));
      await compare();

      const expires = new Date(now.getTime() + 300_000);
      expect(await events.claim(recorded.event.id, 'owner-1', now, expires)).toBe(true);
      await repository.update({ id: twinId }, { status: 'processing', claimedBy: 'owner-1', claimExpiresAt: expires });
      await compare();
      // Held and not lapsed: a second claim loses; once lapsed (compared as stored datetimes) it wins.
      expect(await events.claim(recorded.event.id, 'owner-2', now, expires)).toBe(false);
      expect(await events.claim(recorded.event.id, 'owner-2', new Date(expires.getTime()), expires)).toBe(false);
      const later = new Date(expires.getTime() + 1);
      expect(await events.claim(recorded.event.id, 'owner-2', later, new Date(later.getTime() + 300_000))).toBe(true);
      await repository.update({ id: twinId }, { claimedBy: 'owner-2', claimExpiresAt: new Date(later.getTime() + 300_000) });
      await compare();

      // markOutcome of a former owner changes nothing; the holder's does.
      await events.markOutcome(recorded.event.id, 'processed', 42, undefined, later, null, 'owner-1');
      await compare();
      await events.markOutcome(recorded.event.id, 'rejected', 42, undefined, later, 'r'.repeat(300), 'owner-2');
      await repository.update({ id: twinId }, { status: 'rejected', paymentId: 42, processedAt: later, claimedBy: null, claimExpiresAt: null, reason: 'r'.repeat(255) });
      await compare();
      // Without an owner, inside a transaction, with a null payment.
      await dataSource.transaction((manager) => events.markOutcome(recorded.event.id, 'ignored', null, manager, now, null));
      await repository.update({ id: twinId }, { status: 'ignored', paymentId: null, processedAt: now, reason: null });
      await compare();
      expect(await repository.findOneByOrFail({ id: recorded.event.id })).toMatchObject({ status: 'ignored', paymentId: null, processedAt: now, claimedBy: null, claimExpiresAt: null, reason: null });
    });

    it('stores an event without a mode (section B) as NULL', async () => {
      const recorded = await events.recordEventOnce({ provider: 'generic', eventId: 'evt_hot_generic', type: 'payment.completed', mode: null }, undefined, now);
      if (!recorded.recorded) throw new Error('not recorded');
      expect(await stored(WebhookEventEntity, recorded.event.id)).toMatchObject({ mode: null, payment_id: null, processed_at: null });
      expect(recorded.event.mode).toBeNull();
    });
  });

  describe('reads', () => {
    it('options: get and getMany equal TypeORM’s rows; missing names fall back', async () => {
      const options = t.app.get(OptionsService);
      await options.set('hot_sql_a', { nested: [1, 'two'], flag: true });
      await options.set('hot_sql_b', 'text');
      await options.set('hot_sql_c', 0);
      const repository = dataSource.getRepository(OptionEntity);
      for (const name of ['hot_sql_a', 'hot_sql_b', 'hot_sql_c']) {
        const row = await repository.findOneByOrFail({ name });
        expect(await options.get(name, 'fallback')).toEqual(JSON.parse(row.value));
        expect(await dataSource.transaction((manager) => options.get(name, 'fallback', manager))).toEqual(JSON.parse(row.value));
      }
      expect(await options.get('hot_sql_missing', 'fallback')).toBe('fallback');
      expect(await options.getMany(['hot_sql_a', 'hot_sql_missing', 'hot_sql_c', 'hot_sql_b'])).toEqual(
        new Map<string, unknown>([
          ['hot_sql_a', { nested: [1, 'two'], flag: true }],
          ['hot_sql_b', 'text'],
          ['hot_sql_c', 0],
        ]),
      );
      expect(await options.getMany(['hot_sql_b'])).toEqual(new Map([['hot_sql_b', 'text']]));
      expect(await options.getMany([])).toEqual(new Map());
    });

    it('forms: findById equals the form mapped from TypeORM’s entity', async () => {
      const form = await createPaymentForm(t);
      const forms = t.app.get(FormsService);
      const entity = await dataSource.getRepository(PaymentFormEntity).findOneByOrFail({ id: form.id });
      expect(await forms.findById(form.id)).toStrictEqual(toPaymentForm(entity));
      expect(await forms.findById(999_999)).toBeNull();
    });

    it('identity: the credential join gives the user and exactly the role’s capabilities', async () => {
      const identity = t.app.get(IdentityService);
      const admin = await identity.authenticate('admin', TEST_ADMIN_PASSWORD, '127.0.0.1');
      expect(admin).toEqual({ id: t.admin.id, login: 'admin', role: 'administrator', capabilities: await identity.capabilitiesOf('administrator') });
      expect(admin!.capabilities).toContain('checkout_settings');
      const editor = await t.createUser('editor', 'hot_sql_editor');
      expect(await identity.authenticate(editor.login, editor.password, '127.0.0.1')).toEqual({ id: editor.id, login: 'hot_sql_editor', role: 'editor', capabilities: new Set(['checkout_settings', 'edit_checkout_forms', 'edit_others_checkout_forms']) });
      expect(await identity.authenticate(editor.login, TEST_ADMIN_PASSWORD, '127.0.0.1')).toBeNull();
      expect(await identity.authenticate('nobody', TEST_ADMIN_PASSWORD, '127.0.0.1')).toBeNull();
    });
  });
});
