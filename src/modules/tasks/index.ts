export { TasksModule } from './tasks.module.js';
export { TaskLeaseRepository } from './task-lease.repository.js';
