import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClockModule } from '../../common/clock/index.js';
import { OutboxItemEntity } from './outbox-item.entity.js';
import { OutboxRepository } from './outbox.repository.js';
import { Outbox } from './outbox.service.js';
import { OutboxWorker } from './outbox.worker.js';

/**
 * The transactional outbox: work due after a commit, written in that commit and done by a worker
 * on any instance. It names no feature: owners write items through `Outbox.add` with their own
 * transaction's EntityManager and register the handler of their topic with `OutboxWorker`.
 */
@Module({
  imports: [TypeOrmModule.forFeature([OutboxItemEntity]), ClockModule],
  providers: [OutboxRepository, Outbox, OutboxWorker],
  exports: [Outbox, OutboxWorker],
})
export class OutboxModule {}
