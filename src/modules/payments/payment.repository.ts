import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type EntityManager, In, IsNull, LessThan, MoreThan, MoreThanOrEqual, Not, Repository } from 'typeorm';
import { runStatement, selectRows } from '../../database/index.js';
import { PaymentEntity } from './payment.entity.js';
import { type PaymentRow, paymentInsertColumns, paymentInsertValues, paymentSelectList, toPaymentEntity } from './payment-row.js';
import { PaymentTransactions } from './payment-transactions.js';

/** The columns a new payment row must be given; the rest default to empty. */
export type NewPaymentRow = Pick<PaymentEntity, 'gateway' | 'paymentMethod' | 'mode' | 'status' | 'amount' | 'currency' | 'frequency' | 'secretNonce'> &
  Partial<Omit<PaymentEntity, 'id'>>;

/** Queries of the payments table. Methods taking a manager run inside PaymentTransactions.run. */
@Injectable()
export class PaymentRepository {
  /** The hot statements, fixed texts (docs/benchmarks.md, recommendation 3); the table name carries TABLE_PREFIX. */
  private readonly sql: { byId: string; lockById: string; insert: string };

  constructor(
    @InjectRepository(PaymentEntity) private readonly payments: Repository<PaymentEntity>,
    private readonly transactions: PaymentTransactions,
  ) {
    const table = `\`${payments.metadata.tableName}\``;
    const byId = `SELECT ${paymentSelectList} FROM ${table} WHERE \`id\` = ? LIMIT 1`;
    this.sql = {
      byId,
      // FOR UPDATE only where the driver has row locks; on SQLite the access gate serialises transactions.
      lockById: this.transactions.locksRows ? `${byId} FOR UPDATE` : byId,
      insert: `INSERT INTO ${table} (${paymentInsertColumns}) VALUES (${paymentInsertColumns.split(',').map(() => '?').join(', ')})`,
    };
  }

  async findById(id: number): Promise<PaymentEntity | null> {
    const rows = await selectRows<PaymentRow>(this.payments.manager, this.sql.byId, [id]);
    return rows.length ? toPaymentEntity(rows[0]) : null;
  }

  /** The row, locked until the transaction ends (FOR UPDATE where the driver has it). */
  async lockById(manager: EntityManager, id: number): Promise<PaymentEntity | null> {
    const rows = await selectRows<PaymentRow>(manager, this.sql.lockById, [id]);
    return rows.length ? toPaymentEntity(rows[0]) : null;
  }

  /** Inserts a row; every optional column not given starts empty (null, `{}` custom fields, now). */
  async insert(manager: EntityManager, values: NewPaymentRow): Promise<PaymentEntity> {
    const now = new Date();
    const row = Object.assign(new PaymentEntity(), {
      formId: null,
      parentPaymentId: null,
      applicationFeeAmount: null,
      amountReceived: null,
      setupAmount: null,
      planIndex: null,
      priceIndex: null,
      emailAddress: null,
      firstName: null,
      lastName: null,
      customFields: '{}',
      providerPaymentRef: null,
      providerCustomerRef: null,
      providerSubscriptionRef: null,
      providerCaptureRef: null,
      subscriptionStatus: null,
      clientIp: null,
      createdAt: now,
      updatedAt: now,
      ...values,
    });
    const { insertId } = await runStatement(manager, this.sql.insert, paymentInsertValues(row));
    row.id = insertId;
    return row;
  }

  save(manager: EntityManager, row: PaymentEntity): Promise<PaymentEntity> {
    return manager.getRepository(PaymentEntity).save(row);
  }

  findByProviderRef(gateway: string, ref: string): Promise<PaymentEntity | null> {
    return this.payments.findOne({ where: { gateway, providerPaymentRef: ref } });
  }

  /** A subscription's first payment (its renewal rows carry the same subscription id). */
  findBySubscriptionRef(gateway: string, ref: string): Promise<PaymentEntity | null> {
    return this.payments.findOne({ where: { gateway, providerSubscriptionRef: ref, parentPaymentId: IsNull() }, order: { id: 'ASC' } });
  }

  /** `findByProviderRef` inside a transaction. */
  findByProviderRefIn(manager: EntityManager, gateway: string, ref: string): Promise<PaymentEntity | null> {
    return manager.getRepository(PaymentEntity).findOne({ where: { gateway, providerPaymentRef: ref } });
  }

  /**
   * Section B's transaction id: the provider's payment id (newest match first), or the local id
   * of a record the provider does not know yet.
   */
  async findByTransactionId(transactionId: string): Promise<PaymentEntity | null> {
    const byRef = await this.payments.findOne({ where: { providerPaymentRef: transactionId }, order: { id: 'DESC' } });
    if (byRef) return byRef;
    if (!/^[1-9]\d{0,9}$/.test(transactionId)) return null;
    return this.payments.findOne({ where: { id: Number(transactionId), providerPaymentRef: IsNull() } });
  }

  /**
   * Records still waiting for their provider (pending or processing with a provider object), not
   * touched since `olderThan`, created since `since`; oldest id first, after `afterId`.
   */
  findWaiting(criteria: { olderThan: Date; since: Date; afterId: number; limit: number }): Promise<PaymentEntity[]> {
    return this.payments.find({
      where: {
        status: In(['pending', 'processing']),
        providerPaymentRef: Not(IsNull()),
        updatedAt: LessThan(criteria.olderThan),
        createdAt: MoreThanOrEqual(criteria.since),
        id: MoreThan(criteria.afterId),
      },
      order: { id: 'ASC' },
      take: criteria.limit,
    });
  }

  /** Newest first. */
  page(offset: number, limit: number): Promise<[PaymentEntity[], number]> {
    return this.payments.findAndCount({ order: { createdAt: 'DESC', id: 'DESC' }, skip: offset, take: limit });
  }
}
