import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type EntityManager, In, type Repository } from 'typeorm';
import { runStatement } from '../../database/index.js';
import { PaymentLogEntity } from './payment-log.entity.js';

export type PaymentLogLevel = 'debug' | 'info' | 'warning' | 'error';

export interface PaymentLogEntry {
  paymentId: number | null;
  level: PaymentLogLevel;
  /** Stable machine name, e.g. `status_changed`, `transition_refused` */
  event: string;
  message: string;
  /** Details for people reading the log; never secrets, tokens or card data. */
  context?: Record<string, unknown>;
}

/** Writes and reads the payment log. Entries written with a manager commit with its transaction. */
@Injectable()
export class PaymentLogRepository {
  /** A fixed text instead of the query builder's insert: written on every payment write (docs/benchmarks.md). */
  private readonly insertSql: string;

  constructor(@InjectRepository(PaymentLogEntity) private readonly logs: Repository<PaymentLogEntity>) {
    this.insertSql = `INSERT INTO \`${logs.metadata.tableName}\` (\`payment_id\`, \`level\`, \`event\`, \`message\`, \`context\`, \`created_at\`) VALUES (?, ?, ?, ?, ?, ?)`;
  }

  async record(entry: PaymentLogEntry, manager?: EntityManager): Promise<void> {
    await runStatement(manager ?? this.logs.manager, this.insertSql, [
      entry.paymentId,
      entry.level,
      entry.event.slice(0, 60),
      entry.message.slice(0, 500),
      entry.context ? JSON.stringify(entry.context) : null,
      new Date(),
    ]);
  }

  count(paymentId: number, events: readonly string[]): Promise<number> {
    return events.length === 0 ? Promise.resolve(0) : this.logs.count({ where: { paymentId, event: In([...events]) } });
  }

  /**
   * A payment's log in the order it was written: by time, then id (ids alone are not in insertion
   * order across the servers of a distributed engine, docs/scaling.md; the index on
   * (payment_id, created_at) serves both orders).
   */
  forPayment(paymentId: number): Promise<PaymentLogEntity[]> {
    return this.logs.find({ where: { paymentId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** The newest `limit` lines of a payment's log, oldest first, and how many lines it has in all. */
  async tailOf(paymentId: number, limit: number): Promise<{ entries: PaymentLogEntity[]; total: number }> {
    const [rows, total] = await this.logs.findAndCount({ where: { paymentId }, order: { createdAt: 'DESC', id: 'DESC' }, take: limit });
    return { entries: rows.reverse(), total };
  }
}
