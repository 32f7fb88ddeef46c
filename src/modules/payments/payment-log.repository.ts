import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type EntityManager, In, type Repository } from 'typeorm';
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
  constructor(@InjectRepository(PaymentLogEntity) private readonly logs: Repository<PaymentLogEntity>) {}

  async record(entry: PaymentLogEntry, manager?: EntityManager): Promise<void> {
    const repository = manager ? manager.getRepository(PaymentLogEntity) : this.logs;
    await repository.insert({
      paymentId: entry.paymentId,
      level: entry.level,
      event: entry.event.slice(0, 60),
      message: entry.message.slice(0, 500),
      context: entry.context ? JSON.stringify(entry.context) : null,
      createdAt: new Date(),
    });
  }

  count(paymentId: number, events: readonly string[]): Promise<number> {
    return events.length === 0 ? Promise.resolve(0) : this.logs.count({ where: { paymentId, event: In([...events]) } });
  }

  forPayment(paymentId: number): Promise<PaymentLogEntity[]> {
    return this.logs.find({ where: { paymentId }, order: { id: 'ASC' } });
  }
}
