import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TaskLeaseEntity } from './task-lease.entity.js';
import { TaskLeaseRepository } from './task-lease.repository.js';

/** Background-task leases: one runner of a named task across every instance sharing the database. */
@Module({
  imports: [TypeOrmModule.forFeature([TaskLeaseEntity])],
  providers: [TaskLeaseRepository],
  exports: [TaskLeaseRepository],
})
export class TasksModule {}
