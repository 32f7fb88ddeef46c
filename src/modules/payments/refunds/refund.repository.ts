import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import type { EntityManager, Repository } from 'typeorm';
import { RefundEntity } from './refund.entity.js';

/** What a new refund row is given; its nonce and times are set here. */
export type NewRefund = Omit<RefundEntity, 'id' | 'rowNonce' | 'createdAt' | 'updatedAt'>;

/** The refunds table. Methods taking a manager run inside PaymentTransactions.run. */
@Injectable()
export class RefundRepository {
  constructor(@InjectRepository(RefundEntity) private readonly refunds: Repository<RefundEntity>) {}

  async insert(manager: EntityManager, values: NewRefund, now: Date): Promise<RefundEntity> {
    const row = Object.assign(new RefundEntity(), values, { rowNonce: randomBytes(32).toString('base64url'), createdAt: now, updatedAt: now });
    const result = await manager.insert(RefundEntity, row);
    row.id = Number(result.identifiers[0].id);
    return row;
  }

  async update(manager: EntityManager, id: number, changes: Partial<Omit<RefundEntity, 'id' | 'paymentId' | 'rowNonce' | 'createdAt'>>, now: Date): Promise<void> {
    await manager.update(RefundEntity, { id }, { ...changes, updatedAt: now });
  }

  findById(id: number): Promise<RefundEntity | null> {
    return this.refunds.findOne({ where: { id } });
  }

  /** A payment's refunds, newest first. */
  listOf(paymentId: number, manager: EntityManager = this.refunds.manager): Promise<RefundEntity[]> {
    return manager.find(RefundEntity, { where: { paymentId }, order: { id: 'DESC' } });
  }
}
