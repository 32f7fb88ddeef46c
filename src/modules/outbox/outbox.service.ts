import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager, type EntitySubscriberInterface, type QueryRunner, type TransactionCommitEvent, type TransactionRollbackEvent } from 'typeorm';
import { Clock } from '../../common/clock/index.js';
import type { OutboxStatus } from './outbox-item.entity.js';
import { type FailedOutboxTopic, type NewOutboxItem, type OutboxBacklog, OutboxRepository } from './outbox.repository.js';

/**
 * Writes outbox items in the caller's transaction and wakes the worker once that transaction has
 * committed (a TypeORM transaction subscriber), so due work starts at once instead of at the next
 * poll; a rolled-back transaction leaves neither the item nor a wake-up.
 */
@Injectable()
export class Outbox implements EntitySubscriberInterface {
  /** Query runners whose open transaction wrote an item. */
  private readonly writers = new WeakSet<QueryRunner>();
  private wake: () => void = () => undefined;

  constructor(
    private readonly items: OutboxRepository,
    private readonly clock: Clock,
    dataSource: DataSource,
  ) {
    dataSource.subscribers.push(this);
  }

  /**
   * Writes `item` through `manager` (pass the manager of the transaction whose change it follows,
   * so both commit or neither does). An item with the same topic and key is stored once.
   */
  async add(manager: EntityManager, item: NewOutboxItem): Promise<void> {
    await this.items.insert(manager, item, this.clock.now());
    const runner = manager.queryRunner;
    if (runner?.isTransactionActive) this.writers.add(runner);
    else this.wake();
  }

  /** Items per topic and status and the oldest due one, for the metrics. */
  backlog(): Promise<OutboxBacklog> {
    return this.items.backlog(this.clock.now());
  }

  /** Failed items per topic, for the dashboard. */
  failedByTopic(): Promise<FailedOutboxTopic[]> {
    return this.items.failedByTopic();
  }

  /**
   * Where the items of `topic` with these keys stand: `pending`, `sent` (with when) or `failed`.
   * A key with no item is absent from the map (never written, or purged some time after sending).
   * Pass the manager of an open transaction to see the items it wrote.
   */
  statusOf(manager: EntityManager, topic: string, keys: readonly string[]): Promise<Map<string, { status: OutboxStatus; finishedAt: Date | null }>> {
    return this.items.statusOf(manager, topic, keys);
  }

  /** The worker's wake-up (it binds it to its own async context, outside any transaction). */
  onCommittedWrite(wake: () => void): void {
    this.wake = wake;
  }

  afterTransactionCommit(event: TransactionCommitEvent): void {
    const runner = event.queryRunner;
    // A savepoint's commit is not the end: wait for the outermost one.
    if (runner.isTransactionActive || !this.writers.has(runner)) return;
    this.writers.delete(runner);
    this.wake();
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    if (!event.queryRunner.isTransactionActive) this.writers.delete(event.queryRunner);
  }
}
