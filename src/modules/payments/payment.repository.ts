import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type EntityManager, IsNull, MoreThan, Not, Repository, type SelectQueryBuilder } from 'typeorm';
import { EntityTable, LIKE_ESCAPE, paymentSearchTerms, prefixPattern, runStatement, SEARCHABLE_PROPERTIES, searchWords, selectRows, sqlDialect } from '../../database/index.js';
import { PaymentDisputeEntity } from './payment-dispute.entity.js';
import { PaymentEntity } from './payment.entity.js';
import { PaymentTransactions } from './payment-transactions.js';
import { LOST_DISPUTE_STATUS } from './provider-aftermath.js';
import { RefundEntity } from './refunds/refund.entity.js';

/** What a new payment is given: the columns without an empty value, and any others; the rest start empty. */
export type NewPayment = Pick<PaymentEntity, 'gateway' | 'paymentMethod' | 'mode' | 'status' | 'amount' | 'currency' | 'frequency' | 'secretNonce'> &
  Partial<Omit<PaymentEntity, 'id'>>;

/** What an UPDATE of a payment may set: every column but the id, the secret nonce and the creation time. */
export type PaymentChanges = Partial<Omit<PaymentEntity, 'id' | 'secretNonce' | 'createdAt'>>;

/** What the admin payments list and its export filter by; every field optional (absent: no filter). */
export interface PaymentListFilter {
  status?: string;
  gateway?: string;
  mode?: string;
  /** ISO 4217 code */
  currency?: string;
  formId?: number;
  /** Created at or after */
  createdFrom?: Date;
  /** Created strictly before */
  createdBefore?: Date;
  /**
   * The admin search text (search-terms.ts): each of its words starts one of the payment's
   * normalised terms (provider reference, capture id, whole email, a word of a name), or the
   * whole text is the payment's id
   */
  search?: string;
  /** Only rows with an id up to this one: an export reads the rows that existed when it started */
  maxId?: number;
  /** none: no succeeded refund; partial: some, less than received; full: all that was received; any: partial or full */
  refunded?: 'none' | 'partial' | 'full' | 'any';
  /** Only rows with (true) or without (false) a dispute */
  disputed?: boolean;
}

/**
 * The ledger sums of one group of filtered payments (a mode and a currency, and a UTC day when
 * grouped by day), in minor units. The money sums count only payments that received something
 * (`amount_received` set), the rows whose net is defined.
 */
export interface LedgerSums {
  mode: string;
  currency: string;
  /** `YYYY-MM-DD` (UTC) when grouped by day, else null */
  day: string | null;
  /** Payments that matched the filters */
  matched: number;
  /** Of them, those that received something */
  paid: number;
  /** Of them, those whose status is `failed` */
  failed: number;
  received: number;
  refunded: number;
  /** The application fees kept: each payment's fee less what its succeeded refunds gave back (applicationFeeKept) */
  applicationFeesKept: number;
  lostDisputes: number;
}

/** Where a keyset page of the admin order (created_at DESC, id DESC) starts: after this row. */
export interface PaymentListCursor {
  createdAt: Date;
  id: number;
}

/** The columns the admin list shows of a payment (PaymentQueriesService's `toAdminPayment` reads these). */
const ADMIN_PAYMENT_PROPERTIES = [
  'id',
  'status',
  'amount',
  'currency',
  'gateway',
  'paymentMethod',
  'mode',
  'emailAddress',
  'firstName',
  'lastName',
  'formId',
  'parentPaymentId',
  'failureReason',
  'amountRefunded',
  'dispute',
  'createdAt',
  'updatedAt',
] as const satisfies ReadonlyArray<keyof PaymentEntity>;

/** A payment as the admin list reads it. */
export type AdminPaymentColumns = Pick<PaymentEntity, (typeof ADMIN_PAYMENT_PROPERTIES)[number]>;

/** The columns the CSV export reads of a payment: those of the admin list (`AdminPaymentColumns`) and the ledger's and provider's the file adds. */
const EXPORTED_PROPERTIES = [
  ...ADMIN_PAYMENT_PROPERTIES,
  'amountReceived',
  'applicationFeeAmount',
  'providerPaymentRef',
  'customFields',
] as const satisfies ReadonlyArray<keyof PaymentEntity>;

/** A payment as the CSV export reads it: only the columns its file needs. */
export type ExportedPayment = Pick<PaymentEntity, (typeof EXPORTED_PROPERTIES)[number]>;

/** A row of the CSV export's batch (`exportBatch`), with the sums of its refunds and disputes that the file's net needs. */
export interface PaymentExportBatchRow {
  payment: ExportedPayment;
  /** The application fee its succeeded refunds gave back, minor units */
  feeRefunded: number;
  /** What its lost disputes took back, minor units */
  lostDisputes: number;
}

/** Where a reconciliation sweep's next page starts (their order is created_at, then id, oldest first): after this row. */
export interface PaymentSweepCursor {
  createdAt: Date;
  id: number;
}

/** The statuses of a payment that still waits for its provider (reconciliation's candidates). */
const WAITING_STATUSES = ['pending', 'processing'] as const;

/** A SUM or COUNT as a driver answers it: a number (SQLite), a decimal string (MySQL), null over no row. */
type NumberLike = number | string | null;

/**
 * The admin search's common words (docs/decisions.md §32). A word is common when more than
 * `wordTerms` terms start with it (`müller` among a million payments; at most that many are read to
 * tell): an ordered read (a list page, an export batch) then probes each payment's terms for it
 * while walking the creation-time index newest first, within the next `walk` payments of the other
 * filters, and stops once the page is full, instead of reading every payment the word matches and
 * sorting them. A page the walk does not fill is read as before. The list's total of a search whose
 * words are all common is estimated from the newest `countSample` payments. An object, not
 * constants, so a test can make the walk short.
 */
export const COMMON_SEARCH_LIMITS = { wordTerms: 5_000, walk: 20_000, countSample: 5_000 };

/** Queries of the payments table. Methods taking a manager run inside PaymentTransactions.run. */
@Injectable()
export class PaymentRepository {
  /**
   * The hot statements, fixed texts built once here (docs/benchmarks.md, recommendation 3) with
   * their column lists from the entity's metadata (`EntityTable`); the table name carries TABLE_PREFIX.
   */
  private readonly sql: { byId: string; lockById: string; lockByProviderRef: string; searchFieldsById: string; deleteTerms: string };
  /** The search terms table (`{prefix}checkout_payment_search_terms`, migration 1764300000000). */
  private readonly termsTable: string;
  /** Each filter's common search words, told once per filter object (a list page and its count, an export's batches). */
  private readonly commonWordsOf = new WeakMap<PaymentListFilter, Promise<ReadonlySet<string>>>();
  /** UPDATE texts per set of changed columns (a handful in practice; bounded all the same). */
  private readonly updateSql = new Map<string, string>();
  /** The payments table as the fixed statements see it: the entity's columns, rows hydrated into the entity. */
  private readonly rows: EntityTable<PaymentEntity>;
  /** The CSV export's reading of its columns (`EXPORTED_PROPERTIES`). */
  private readonly exported: (row: Record<string, unknown>) => ExportedPayment;
  /** Where a common-word search's walk ends (`newest`): the last payment of its window. */
  private readonly walkEnd: (row: Record<string, unknown>) => Pick<PaymentEntity, 'createdAt' | 'id'>;

  constructor(
    @InjectRepository(PaymentEntity) private readonly payments: Repository<PaymentEntity>,
    private readonly transactions: PaymentTransactions,
  ) {
    this.rows = new EntityTable<PaymentEntity>(payments.metadata);
    this.exported = this.rows.projection(EXPORTED_PROPERTIES);
    this.walkEnd = this.rows.projection(['createdAt', 'id']);
    const { table, selectList } = this.rows;
    const byId = `SELECT ${selectList} FROM ${table} WHERE \`id\` = ? LIMIT 1`;
    // FOR UPDATE only where the driver has row locks; on SQLite the access gate serialises transactions.
    const locking = this.transactions.locksRows ? ' FOR UPDATE' : '';
    this.termsTable = `${payments.manager.connection.options.entityPrefix ?? ''}checkout_payment_search_terms`;
    this.sql = {
      searchFieldsById: `SELECT ${SEARCHABLE_PROPERTIES.map((property) => `\`${this.rows.column(property)}\``).join(', ')} FROM ${table} WHERE \`id\` = ?`,
      deleteTerms: `DELETE FROM \`${this.termsTable}\` WHERE \`payment_id\` = ?`,
      byId,
      lockById: `${byId}${locking}`,
      lockByProviderRef: `SELECT ${selectList} FROM ${table} WHERE \`gateway\` = ? AND \`provider_payment_ref\` = ? LIMIT 1${locking}`,
    };
  }

  async findById(id: number): Promise<PaymentEntity | null> {
    const rows = await selectRows<Record<string, unknown>>(this.payments.manager, this.sql.byId, [id]);
    return rows.length ? this.rows.hydrate(rows[0]) : null;
  }

  /** A payer's records (the address compared lower-cased), newest first, drafts (`pending`) left out: the payer's manage page. */
  findByPayerEmail(email: string, limit: number): Promise<PaymentEntity[]> {
    return this.payments
      .createQueryBuilder('payment')
      .where('LOWER(payment.emailAddress) = :email', { email: email.toLowerCase() })
      .andWhere('payment.status <> :pending', { pending: 'pending' })
      .orderBy('payment.id', 'DESC')
      .limit(limit)
      .getMany();
  }

  /** Records per gateway, mode and status: one grouped count (metrics, at scrape time). */
  async countByGatewayModeStatus(): Promise<Array<{ gateway: string; mode: string; status: string; count: number }>> {
    const rows = await selectRows<{ gateway: string; mode: string; status: string; n: number | string }>(
      this.payments.manager,
      `SELECT \`gateway\`, \`mode\`, \`status\`, COUNT(*) AS n FROM ${this.rows.table} GROUP BY \`gateway\`, \`mode\`, \`status\``,
      [],
    );
    return rows.map((row) => ({ gateway: row.gateway, mode: row.mode, status: row.status, count: Number(row.n) }));
  }

  /** The row, locked until the transaction ends (FOR UPDATE where the driver has it). */
  async lockById(manager: EntityManager, id: number): Promise<PaymentEntity | null> {
    const rows = await selectRows<Record<string, unknown>>(manager, this.sql.lockById, [id]);
    return rows.length ? this.rows.hydrate(rows[0]) : null;
  }

  /**
   * Inserts a row; every optional column not given starts empty (null, `{}` custom fields, now).
   * The returned entity holds what was stored (a column's transformer applied, as a read gives it).
   */
  async insert(manager: EntityManager, values: NewPayment): Promise<PaymentEntity> {
    const now = new Date();
    const row = Object.assign(new PaymentEntity(), this.rows.emptyNullables(), { customFields: '{}', amountRefunded: 0, refundReserved: 0, createdAt: now, updatedAt: now }, values);
    const { insertId } = await runStatement(manager, this.rows.insertSql, this.rows.insertValues(row));
    row.id = insertId;
    this.rows.readBack(row);
    await this.insertTerms(manager, row.id, row);
    return row;
  }

  /** A payment's search terms, in the statement (and transaction) that follows the write of its fields. */
  private async insertTerms(manager: EntityManager, id: number, fields: Pick<PaymentEntity, (typeof SEARCHABLE_PROPERTIES)[number]>): Promise<void> {
    const terms = paymentSearchTerms(fields);
    if (terms.length === 0) return;
    const insert = sqlDialect(manager) === 'mysql' ? 'INSERT IGNORE INTO' : 'INSERT OR IGNORE INTO';
    await runStatement(
      manager,
      `${insert} \`${this.termsTable}\` (\`payment_id\`, \`term\`) VALUES ${terms.map(() => '(?, ?)').join(', ')}`,
      terms.flatMap((term) => [id, term]),
    );
  }

  /**
   * Writes a payment's search terms again from its row as it is now: after an update that set a
   * searchable field, and by the sweep that catches up rows an older release wrote without terms.
   */
  async rewriteTerms(manager: EntityManager, id: number): Promise<void> {
    const rows = await selectRows<Record<string, string | null>>(manager, this.sql.searchFieldsById, [id]);
    await runStatement(manager, this.sql.deleteTerms, [id]);
    if (rows.length === 0) return;
    const row = rows[0];
    await this.insertTerms(manager, id, {
      emailAddress: row.email_address,
      firstName: row.first_name,
      lastName: row.last_name,
      providerPaymentRef: row.provider_payment_ref,
      providerCaptureRef: row.provider_capture_ref,
    });
  }

  /** `value` as it reads back once written to `property` (a column's transformer may bound it). */
  asStored<K extends keyof PaymentChanges>(property: K, value: PaymentChanges[K]): PaymentChanges[K] {
    return this.rows.asStored(property, value) as PaymentChanges[K];
  }

  /**
   * One explicit `UPDATE ... SET <the changed columns> WHERE id = ?`, with `AND status = ?` when
   * `expectedStatus` is given: true when the row matched. No read before it (TypeORM's `save`
   * reads the row again outside the lock and writes only what differs from that read, which on an
   * engine whose plain reads are snapshots can be an older row than the locked one).
   */
  async update(manager: EntityManager, id: number, changes: PaymentChanges, expectedStatus?: string): Promise<boolean> {
    const properties = (Object.keys(changes) as Array<keyof PaymentChanges>).filter((property) => changes[property] !== undefined);
    if (properties.length === 0) throw new Error('a payment update needs at least one column');
    const key = `${properties.join(',')}${expectedStatus === undefined ? '' : '|status'}`;
    let sql = this.updateSql.get(key);
    if (!sql) {
      const assignments = properties.map((property) => `\`${this.rows.column(property)}\` = ?`).join(', ');
      sql = `UPDATE ${this.rows.table} SET ${assignments} WHERE \`id\` = ?${expectedStatus === undefined ? '' : ' AND `status` = ?'}`;
      if (this.updateSql.size < 64) this.updateSql.set(key, sql);
    }
    const values = [...properties.map((property) => this.rows.writeValue(property, changes[property])), id, ...(expectedStatus === undefined ? [] : [expectedStatus])];
    const { affected } = await runStatement(manager, sql, values);
    if (affected > 0 && properties.some((property) => (SEARCHABLE_PROPERTIES as readonly string[]).includes(property))) await this.rewriteTerms(manager, id);
    return affected > 0;
  }

  findByProviderRef(gateway: string, ref: string): Promise<PaymentEntity | null> {
    return this.payments.findOne({ where: { gateway, providerPaymentRef: ref } });
  }

  /** The payment whose money an object of the provider took: its own payment object, else the one it is refunded on (`provider_charge_ref`). */
  async findByRefundTarget(gateway: string, ref: string): Promise<PaymentEntity | null> {
    return (await this.payments.findOne({ where: { gateway, providerPaymentRef: ref } })) ?? this.payments.findOne({ where: { gateway, providerChargeRef: ref } });
  }

  /**
   * A subscription's first payment (its renewal rows carry the same subscription id): the oldest by
   * creation time, then id (ids are not in creation order across the servers of a distributed
   * engine, docs/scaling.md).
   */
  findBySubscriptionRef(gateway: string, ref: string): Promise<PaymentEntity | null> {
    return this.payments.findOne({ where: { gateway, providerSubscriptionRef: ref, parentPaymentId: IsNull() }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** `findByProviderRef` inside a transaction, the row locked until it ends (FOR UPDATE where the driver has it). */
  async lockByProviderRef(manager: EntityManager, gateway: string, ref: string): Promise<PaymentEntity | null> {
    const rows = await selectRows<Record<string, unknown>>(manager, this.sql.lockByProviderRef, [gateway, ref]);
    return rows.length ? this.rows.hydrate(rows[0]) : null;
  }

  /**
   * Section B's transaction id: the provider's payment id (the newest match by creation time, then
   * id), or the local id of a record the provider does not know yet.
   */
  async findByTransactionId(transactionId: string): Promise<PaymentEntity | null> {
    const byRef = await this.payments.findOne({ where: { providerPaymentRef: transactionId }, order: { createdAt: 'DESC', id: 'DESC' } });
    if (byRef) return byRef;
    if (!/^[1-9]\d{0,9}$/.test(transactionId)) return null;
    return this.payments.findOne({ where: { id: Number(transactionId), providerPaymentRef: IsNull() } });
  }

  /**
   * Records still waiting for their provider (pending or processing with a provider object), not
   * touched since `olderThan`, created since `since`; oldest first by (created_at, id), after the
   * row `after` (keyset). One statement per status, each an ordered range of the
   * `(status, created_at)` index (InnoDB's and SQLite's index entries end with the primary key, so
   * the range is in (created_at, id) order), merged here: a page reads the rows of the window from
   * the cursor on, never the history before the window (docs/benchmarks.md, "Reconciliation sweeps").
   */
  async findWaiting(criteria: { olderThan: Date; since: Date; after: PaymentSweepCursor | null; limit: number }): Promise<PaymentEntity[]> {
    const pages: PaymentEntity[][] = [];
    for (const status of WAITING_STATUSES) {
      const query = this.payments
        .createQueryBuilder('payment')
        .where('payment.status = :status', { status })
        .andWhere('payment.providerPaymentRef IS NOT NULL')
        .andWhere('payment.updatedAt < :olderThan', { olderThan: criteria.olderThan });
      pages.push(await this.windowPage(query, criteria.since, criteria.after, criteria.limit));
    }
    return pages
      .flat()
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id)
      .slice(0, criteria.limit);
  }

  /**
   * Up to `limit` rows of `query` created at or after `since`, after `after`, in (created_at, id)
   * order: the sweeps' keyset page. The lower bound on `created_at` is the later of the window's
   * start and the cursor's time, so the index range starts at the cursor.
   */
  private windowPage(query: SelectQueryBuilder<PaymentEntity>, since: Date, after: PaymentSweepCursor | null, limit: number): Promise<PaymentEntity[]> {
    const from = after && after.createdAt.getTime() > since.getTime() ? after.createdAt : since;
    query.andWhere('payment.createdAt >= :from', { from });
    if (after) query.andWhere('(payment.createdAt > :afterAt OR (payment.createdAt = :afterAt AND payment.id > :afterId))', { afterAt: after.createdAt, afterId: after.id });
    return query.orderBy('payment.createdAt', 'ASC').addOrderBy('payment.id', 'ASC').limit(limit).getMany();
  }

  /** A subscription's renewal rows (their parent is its first payment), newest first, with their count. */
  renewalsOf(parentId: number, limit: number, manager: EntityManager = this.payments.manager): Promise<[PaymentEntity[], number]> {
    return manager.findAndCount(PaymentEntity, { where: { parentPaymentId: parentId }, order: { createdAt: 'DESC', id: 'DESC' }, take: limit });
  }

  /** The payment holding a provider capture (gateway B's capture id). */
  findByCaptureRef(gateway: string, ref: string): Promise<PaymentEntity | null> {
    return this.payments.findOne({ where: { gateway, providerCaptureRef: ref } });
  }

  /**
   * Completed payments of `gateway` with a capture, created since `since`, after the row `after`,
   * oldest first by (created_at, id): an ordered range of the `(status, created_at)` index from the
   * cursor on (the other gateways' completed payments in that range are read and left).
   */
  findCaptured(criteria: { gateway: string; since: Date; after: PaymentSweepCursor | null; limit: number }): Promise<PaymentEntity[]> {
    const query = this.payments
      .createQueryBuilder('payment')
      .where('payment.status = :status', { status: 'completed' })
      .andWhere('payment.gateway = :gateway', { gateway: criteria.gateway })
      .andWhere('payment.providerCaptureRef IS NOT NULL');
    return this.windowPage(query, criteria.since, criteria.after, criteria.limit);
  }

  /**
   * Completed payments of `gateway` with a capture holding a pending refund (`refund_reserved` > 0),
   * oldest id first: the refund sweep reads these before its rolling cursor, so a pending refund
   * settles on the next sweep rather than when the cursor comes round.
   */
  findHoldingPendingRefunds(criteria: { gateway: string; limit: number }): Promise<PaymentEntity[]> {
    return this.payments.find({
      where: { gateway: criteria.gateway, status: 'completed', providerCaptureRef: Not(IsNull()), refundReserved: MoreThan(0) },
      order: { id: 'ASC' },
      take: criteria.limit,
    });
  }

  /** Newest first. */
  page(offset: number, limit: number): Promise<[PaymentEntity[], number]> {
    return this.payments.findAndCount({ order: { createdAt: 'DESC', id: 'DESC' }, skip: offset, take: limit });
  }

  /** The admin list: `filter`ed, newest first with the id as tie-break (a stable order for paging). */
  listPage(filter: PaymentListFilter, offset: number, limit: number): Promise<PaymentEntity[]> {
    return this.newest(filter, null, offset, limit, (query) => query.getMany());
  }

  /** Up to `limit` rows of the admin order after `cursor` (keyset paging: deep pages of the list). */
  listAfter(filter: PaymentListFilter, cursor: PaymentListCursor | null, limit: number): Promise<PaymentEntity[]> {
    return this.newest(filter, cursor, 0, limit, (query) => query.getMany());
  }

  /**
   * One batch of the CSV export: `listAfter`'s rows and order in one statement, each row with the
   * application fee its succeeded refunds gave back and what its lost disputes took (correlated
   * sums on the refunds' and disputes' `payment_id` indexes), hydrated as the fixed statements
   * hydrate (`EntityTable`) rather than by TypeORM's entity transformer, which cost more than the
   * rest of the export together (docs/benchmarks.md, "The export at size").
   */
  async exportBatch(filter: PaymentListFilter, cursor: PaymentListCursor | null, limit: number): Promise<PaymentExportBatchRow[]> {
    const rows = await this.newest(filter, cursor, 0, limit, (query) => {
      query.select([]);
      for (const property of EXPORTED_PROPERTIES) query.addSelect(`payment.${property}`, this.rows.column(property));
      return query
        .addSelect(this.feeRefundedSum(), 'export_fee_refunded')
        .addSelect(this.lostDisputesSum(), 'export_lost_disputes')
        .getRawMany<Record<string, unknown> & { export_fee_refunded: NumberLike; export_lost_disputes: NumberLike }>();
    });
    return rows.map((row) => ({ payment: this.exported(row), feeRefunded: Number(row.export_fee_refunded ?? 0), lostDisputes: Number(row.export_lost_disputes ?? 0) }));
  }

  /**
   * The `filter`ed rows in the admin order after `cursor`, `offset` of them skipped, at most
   * `limit`, as `read` selects them. A search whose words are all common is first read within the
   * next `COMMON_SEARCH_LIMITS.walk` payments of the other filters, each probed for the words (one
   * bounded walk of an index finds where that window ends); only a page that window does not fill
   * reads the words' payments whole, as a rare word's always are. Without that bound, two common
   * words that no payment shares walked the whole table (2.7 s at a million; 0.35 s whole).
   */
  private async newest<T>(filter: PaymentListFilter, cursor: PaymentListCursor | null, offset: number, limit: number, read: (query: SelectQueryBuilder<PaymentEntity>) => Promise<T[]>): Promise<T[]> {
    const common = await this.commonWords(filter);
    const words = filter.search === undefined ? [] : searchWords(filter.search);
    const page = (query: SelectQueryBuilder<PaymentEntity>) => read(this.newestAfter(query, cursor).offset(offset).limit(limit));
    if (words.length === 0 || !words.every((word) => common.has(word))) return page(this.filtered(filter, common));
    const last = await this.newestAfter(this.filtered({ ...filter, search: undefined }), cursor)
      .select('payment.createdAt', this.rows.column('createdAt'))
      .addSelect('payment.id', this.rows.column('id'))
      .offset(COMMON_SEARCH_LIMITS.walk - 1)
      .limit(1)
      .getRawOne<Record<string, unknown>>();
    // Fewer payments than the window are left: the walk is bounded already.
    if (!last) return page(this.filtered(filter, common));
    const end = this.walkEnd(last);
    const within = this.filtered(filter, common).andWhere('payment.createdAt >= :walkAt AND (payment.createdAt > :walkAt OR payment.id >= :walkId)', { walkAt: end.createdAt, walkId: end.id });
    const rows = await page(within);
    return rows.length === limit ? rows : page(this.filtered(filter));
  }

  /**
   * The admin order (created_at DESC, id DESC) after `cursor`. `created_at <= t` comes first so that
   * both engines read a range of the creation index: from the OR alone SQLite walked that index
   * from the newest row on every page (100 ms a page 200,000 rows deep, and an export's batches
   * summed to minutes).
   */
  private newestAfter(query: SelectQueryBuilder<PaymentEntity>, cursor: PaymentListCursor | null): SelectQueryBuilder<PaymentEntity> {
    if (cursor) {
      query.andWhere('payment.createdAt <= :cursorAt AND (payment.createdAt < :cursorAt OR payment.id < :cursorId)', { cursorAt: cursor.createdAt, cursorId: cursor.id });
    }
    return query.orderBy('payment.createdAt', 'DESC').addOrderBy('payment.id', 'DESC');
  }

  count(filter: PaymentListFilter): Promise<number> {
    return this.filtered(filter).getCount();
  }

  /**
   * How many rows the filter matches, counted up to `cap` + 1 at most (a bounded read of index
   * entries): `capped` when there are more than `cap`. Past it, an unfiltered count is the table's
   * size as the engine's statistics estimate it (MariaDB), or an exact count (SQLite, whose
   * COUNT(*) walks its smallest index), and a filtered one is `cap` (at least that many).
   */
  async countUpTo(filter: PaymentListFilter, cap: number, options: { sampleCommonSearch?: boolean } = {}): Promise<{ total: number; estimated: boolean; capped: boolean }> {
    const common = await this.commonWords(filter);
    const words = filter.search === undefined ? [] : searchWords(filter.search);
    if (options.sampleCommonSearch && words.length > 0 && words.every((word) => common.has(word))) return this.sampledSearchCount(filter, words, cap);
    // A rare word bounds the matches (its terms are few): the common ones are probed on those alone.
    // Every word common (an export's exact count): each word's matches are read whole, as before.
    const [inner, parameters] = this.filtered(filter, words.some((word) => !common.has(word)) ? common : NO_WORDS).select('1', 'one').limit(cap + 1).getQueryAndParameters();
    const rows = await this.payments.manager.query<Array<{ n: number | string }>>(`SELECT COUNT(*) AS n FROM (${inner}) bounded`, parameters);
    const counted = Number(rows[0]?.n ?? 0);
    if (counted <= cap) return { total: counted, estimated: false, capped: false };
    const unfiltered = Object.values(filter).every((value) => value === undefined);
    if (!unfiltered) return { total: cap, estimated: true, capped: true };
    if (sqlDialect(this.payments.manager) !== 'mysql') return { total: await this.payments.count(), estimated: false, capped: true };
    const stats = await this.payments.manager.query<Array<{ n: number | string | null }>>(
      'SELECT TABLE_ROWS AS n FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?',
      [this.payments.metadata.tableName],
    );
    return { total: Math.max(cap + 1, Number(stats[0]?.n ?? 0)), estimated: true, capped: true };
  }

  /**
   * The admin list's total when every search word is common: counting every match up to the cap
   * would probe up to the whole table (two common words: 1.3 s at a million payments). The newest
   * `COMMON_SEARCH_LIMITS.countSample` payments of the other filters are probed instead, and their share
   * of matches is applied to those filters' own (bounded) count: exact when the sample is all of
   * them, else an estimate (`estimated`), never below the matches seen.
   */
  private async sampledSearchCount(filter: PaymentListFilter, words: string[], cap: number): Promise<{ total: number; estimated: boolean; capped: boolean }> {
    const unsearched: PaymentListFilter = { ...filter, search: undefined };
    const [newest, newestParameters] = this.newestAfter(this.filtered(unsearched), null).select('payment.id', 'id').limit(COMMON_SEARCH_LIMITS.countSample).getQueryAndParameters();
    const probes = words.map((_, index) => this.termProbe(`sw${index}`, 'newest.id', '?'));
    const rows = await this.payments.manager.query<Array<{ walked: NumberLike; matched: NumberLike }>>(
      `SELECT COUNT(*) AS walked, COALESCE(SUM(CASE WHEN ${probes.join(' AND ')} THEN 1 ELSE 0 END), 0) AS matched FROM (${newest}) newest`,
      [...words.map(prefixPattern), ...newestParameters],
    );
    const walked = Number(rows[0]?.walked ?? 0);
    const matched = Number(rows[0]?.matched ?? 0);
    if (walked < COMMON_SEARCH_LIMITS.countSample) return { total: Math.min(matched, cap), estimated: false, capped: matched > cap };
    const population = await this.countUpTo(unsearched, cap);
    const total = Math.max(matched, Math.round((matched / walked) * population.total));
    return { total, estimated: true, capped: total > cap };
  }

  /**
   * The ledger sums of the `filter`ed payments per mode and currency (and per UTC day with
   * `byDay`), aggregated by the database in one grouped read. The payments are found by the list's
   * own filter and indexes (`created_at`, `status, created_at`, `gateway, mode, created_at`, …);
   * only a payment that had a refund succeed with a fee, or a dispute, reads its refunds or disputes
   * (a correlated sum on their `payment_id` index): the payment's `amount_refunded` is above 0 once
   * a refund succeeded, and its `dispute` is set once it has a dispute. On SQLite a period alone
   * (the dashboard) is one range of the ledger index, which holds every column read here
   * (migration 1764340000000).
   */
  async ledgerSums(filter: PaymentListFilter, byDay: boolean): Promise<LedgerSums[]> {
    const mysql = sqlDialect(this.payments.manager) === 'mysql';
    // Times are stored in UTC on both engines (SQLite: 'YYYY-MM-DD HH:MM:SS.SSS' text; MySQL: timezone 'Z').
    const day = mysql ? "DATE_FORMAT(payment.createdAt, '%Y-%m-%d')" : 'substr(payment.createdAt, 1, 10)';
    const smaller = mysql ? 'LEAST' : 'MIN';
    const received = 'payment.amountReceived IS NOT NULL';
    const fee = 'COALESCE(payment.applicationFeeAmount, 0)';
    const feeRefunded = this.feeRefundedSum();
    const lost = this.lostDisputesSum();
    // The fee kept is applicationFeeKept's rule per payment: the fee less what refunds gave back, never below 0.
    const feeKept = `${fee} - (CASE WHEN ${fee} > 0 AND payment.amountRefunded > 0 THEN ${smaller}(${fee}, ${feeRefunded}) ELSE 0 END)`;
    const query = this.filtered(filter)
      .select('payment.mode', 'mode')
      .addSelect('payment.currency', 'currency')
      .addSelect('COUNT(*)', 'matched')
      .addSelect('COUNT(payment.amountReceived)', 'paid')
      .addSelect("SUM(CASE WHEN payment.status = 'failed' THEN 1 ELSE 0 END)", 'failed')
      .addSelect('SUM(payment.amountReceived)', 'received')
      .addSelect(`SUM(CASE WHEN ${received} THEN payment.amountRefunded ELSE 0 END)`, 'refunded')
      .addSelect(`SUM(CASE WHEN ${received} THEN ${feeKept} ELSE 0 END)`, 'fees_kept')
      .addSelect(`SUM(CASE WHEN ${received} AND payment.dispute IS NOT NULL THEN ${lost} ELSE 0 END)`, 'lost')
      .groupBy('payment.mode')
      .addGroupBy('payment.currency');
    if (byDay) query.addSelect(day, 'ledger_day').addGroupBy(day);
    const rows = await query.getRawMany<{ mode: string; currency: string; ledger_day?: string } & Record<'matched' | 'paid' | 'failed' | 'received' | 'refunded' | 'fees_kept' | 'lost', NumberLike>>();
    return rows.map((row) => ({
      mode: row.mode,
      currency: row.currency,
      day: byDay ? String(row.ledger_day) : null,
      matched: Number(row.matched),
      paid: Number(row.paid),
      failed: Number(row.failed ?? 0),
      received: Number(row.received ?? 0),
      refunded: Number(row.refunded ?? 0),
      applicationFeesKept: Number(row.fees_kept ?? 0),
      lostDisputes: Number(row.lost ?? 0),
    }));
  }

  /**
   * Reserves `amount` for a refund: one conditional UPDATE of the payment row, true when it took
   * (what is left covered it). Writing the row is what makes two instances, or two nodes of a
   * cluster, conflict; the condition is what keeps the sum of refunds within what was received.
   */
  async reserveRefund(manager: EntityManager, paymentId: number, amount: number, now: Date): Promise<boolean> {
    const { affected } = await runStatement(
      manager,
      `UPDATE ${this.rows.table} SET \`refund_reserved\` = \`refund_reserved\` + ?, \`updated_at\` = ? WHERE \`id\` = ? AND \`status\` = 'completed' AND COALESCE(\`amount_received\`, 0) - \`amount_refunded\` - \`refund_reserved\` >= ?`,
      [amount, now, paymentId, amount],
    );
    return affected === 1;
  }

  /**
   * Moves a payment's refund totals by a provider refund's change (PaymentAftermathService, the one
   * applier): one conditional UPDATE that never takes them below zero nor their sum past what was
   * received. False when it would (nothing written).
   */
  async moveRefundTotals(manager: EntityManager, paymentId: number, refunded: number, reserved: number, now: Date): Promise<boolean> {
    const { affected } = await runStatement(
      manager,
      `UPDATE ${this.rows.table} SET \`amount_refunded\` = \`amount_refunded\` + ?, \`refund_reserved\` = \`refund_reserved\` + ?, \`updated_at\` = ? ` +
        'WHERE `id` = ? AND `amount_refunded` + ? >= 0 AND `refund_reserved` + ? >= 0 AND COALESCE(`amount_received`, 0) - (`amount_refunded` + ?) - (`refund_reserved` + ?) >= 0',
      [refunded, reserved, now, paymentId, refunded, reserved, refunded, reserved],
    );
    return affected === 1;
  }

  /** Ids of the payments updated at or after `since`, after `afterId`, oldest id first (the search terms' catch-up). */
  async idsUpdatedSince(since: Date, afterId: number, limit: number): Promise<number[]> {
    const rows = await this.payments
      .createQueryBuilder('payment')
      .select('payment.id', 'id')
      .where('payment.updatedAt >= :since', { since })
      .andWhere('payment.id > :afterId', { afterId })
      .orderBy('payment.id', 'ASC')
      .limit(limit)
      .getRawMany<{ id: number | string }>();
    return rows.map((row) => Number(row.id));
  }

  /** The highest id so far (0 for an empty table). */
  async maxId(): Promise<number> {
    const row = await this.payments.createQueryBuilder('payment').select('MAX(payment.id)', 'max').getRawOne<{ max: number | string | null }>();
    return Number(row?.max ?? 0);
  }

  /**
   * The application fee the succeeded refunds of the outer query's `payment` gave back, a correlated
   * sum (0 without any). Fixed texts only (no parameter): a subquery's parameters would not reach
   * the outer query.
   */
  private feeRefundedSum(): string {
    return this.payments
      .createQueryBuilder()
      .subQuery()
      .select('COALESCE(SUM(refund.applicationFeeRefunded), 0)')
      .from(RefundEntity, 'refund')
      .where("refund.paymentId = payment.id AND refund.status = 'succeeded'")
      .getQuery();
  }

  /** What the lost disputes of the outer query's `payment` took back, a correlated sum (0 without any). */
  private lostDisputesSum(): string {
    return this.payments
      .createQueryBuilder()
      .subQuery()
      .select('COALESCE(SUM(dispute.amount), 0)')
      .from(PaymentDisputeEntity, 'dispute')
      .where(`dispute.paymentId = payment.id AND dispute.status = '${LOST_DISPUTE_STATUS}'`)
      .getQuery();
  }

  /**
   * The search words of `filter` that are common (more than `COMMON_SEARCH_LIMITS.wordTerms` terms start
   * so): one bounded read of the terms' key per word, once per filter object. A digits-only search
   * (also a payment id) keeps its own plan and has none.
   */
  private commonWords(filter: PaymentListFilter): Promise<ReadonlySet<string>> {
    if (filter.search === undefined || searchById(filter.search) !== null) return Promise.resolve(NO_WORDS);
    const search = filter.search;
    let told = this.commonWordsOf.get(filter);
    if (!told) {
      told = (async () => {
        const common = new Set<string>();
        for (const word of new Set(searchWords(search))) {
          const rows = await this.payments.manager.query<Array<{ n: NumberLike }>>(
            `SELECT COUNT(*) AS n FROM (SELECT 1 FROM \`${this.termsTable}\` WHERE term LIKE ? ESCAPE '${LIKE_ESCAPE}' LIMIT ${COMMON_SEARCH_LIMITS.wordTerms + 1}) bounded`,
            [prefixPattern(word)],
          );
          if (Number(rows[0]?.n ?? 0) > COMMON_SEARCH_LIMITS.wordTerms) common.add(word);
        }
        return common;
      })();
      this.commonWordsOf.set(filter, told);
    }
    return told;
  }

  /**
   * True when one of the terms of the payment `idColumn` names starts as the LIKE `pattern` (a bound
   * parameter) says: one probe of the terms' `payment_id` index (InnoDB's carries the key's `term`).
   */
  private termProbe(alias: string, idColumn: string, pattern: string): string {
    return `(SELECT 1 FROM \`${this.termsTable}\` ${alias} WHERE ${alias}.payment_id = ${idColumn} AND ${alias}.term LIKE ${pattern} ESCAPE '${LIKE_ESCAPE}' LIMIT 1) IS NOT NULL`;
  }

  /**
   * Every value is a bound parameter; the search is a LIKE with its wildcards escaped. A word in
   * `common` is probed per payment (a correlated subquery, which the engines evaluate row by row in
   * the order read, so an ordered page stops early); every other word selects its payments from
   * its terms' key range (a semi-join, read whole).
   */
  private filtered(filter: PaymentListFilter, common: ReadonlySet<string> = NO_WORDS): SelectQueryBuilder<PaymentEntity> {
    const query = this.payments.createQueryBuilder('payment');
    if (filter.status !== undefined) query.andWhere('payment.status = :status', { status: filter.status });
    if (filter.gateway !== undefined) query.andWhere('payment.gateway = :gateway', { gateway: filter.gateway });
    if (filter.mode !== undefined) query.andWhere('payment.mode = :mode', { mode: filter.mode });
    if (filter.currency !== undefined) query.andWhere('payment.currency = :currency', { currency: filter.currency });
    if (filter.formId !== undefined) query.andWhere('payment.formId = :formId', { formId: filter.formId });
    if (filter.createdFrom !== undefined) query.andWhere('payment.createdAt >= :createdFrom', { createdFrom: filter.createdFrom });
    if (filter.createdBefore !== undefined) query.andWhere('payment.createdAt < :createdBefore', { createdBefore: filter.createdBefore });
    if (filter.maxId !== undefined) query.andWhere('payment.id <= :maxId', { maxId: filter.maxId });
    if (filter.refunded === 'none') query.andWhere('payment.amountRefunded = 0');
    if (filter.refunded === 'partial') query.andWhere('payment.amountRefunded > 0 AND payment.amountRefunded < COALESCE(payment.amountReceived, 0)');
    if (filter.refunded === 'any') query.andWhere('payment.amountRefunded > 0');
    if (filter.refunded === 'full') query.andWhere('payment.amountRefunded > 0 AND payment.amountRefunded >= COALESCE(payment.amountReceived, 0)');
    if (filter.disputed !== undefined) query.andWhere(filter.disputed ? 'payment.dispute IS NOT NULL' : 'payment.dispute IS NULL');
    if (filter.search !== undefined) {
      // Each word starts one of the payment's terms: a prefix range of the terms table's key.
      const words = searchWords(filter.search);
      const byTerms = words.map((word, index) => {
        query.setParameter(`searchWord${index}`, prefixPattern(word));
        if (common.has(word)) return this.termProbe(`st${index}`, 'payment.id', `:searchWord${index}`);
        return `payment.id IN (SELECT st${index}.payment_id FROM \`${this.termsTable}\` st${index} WHERE st${index}.term LIKE :searchWord${index} ESCAPE '${LIKE_ESCAPE}')`;
      });
      const byId = searchById(filter.search);
      if (byTerms.length === 0) query.andWhere('1 = 0');
      else if (byId === null) query.andWhere(byTerms.join(' AND '));
      else {
        // Digits alone (one word): the payment of that id, or those with a term starting so. As a
        // join on the union of both (a few ids, each found by its key), not `id = ? OR id IN (…)`,
        // which no index serves: MariaDB then walked the whole creation-time index.
        query.innerJoin(
          `(SELECT st0.payment_id AS matched_id FROM \`${this.termsTable}\` st0 WHERE st0.term LIKE :searchWord0 ESCAPE '${LIKE_ESCAPE}' UNION SELECT :searchId)`,
          'search_match',
          'search_match.matched_id = payment.id',
          { searchId: byId },
        );
      }
    }
    return query;
  }
}

const NO_WORDS: ReadonlySet<string> = new Set();

/** The payment id a digits-only search also names (a positive 32-bit integer), else null. */
function searchById(search: string): number | null {
  const text = search.trim();
  return /^[1-9]\d{0,9}$/.test(text) && Number(text) <= 2147483647 ? Number(text) : null;
}
