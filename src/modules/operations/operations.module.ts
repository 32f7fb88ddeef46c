import { Module } from '@nestjs/common';
import { ClockModule } from '../../common/clock/index.js';
import { GatewaysModule } from '../gateways/index.js';
import { MailModule } from '../mail/index.js';
import { PaymentsModule } from '../payments/index.js';
import { SettingsModule } from '../settings/index.js';
import { TasksModule } from '../tasks/index.js';
import { DoctorService } from './doctor.service.js';
import { ReconciliationService } from './reconciliation.service.js';
import { ReconciliationTask } from './reconciliation.task.js';
import { SecretRotationService } from './secret-rotation.service.js';

/**
 * Operating the service: the reconciliation sweep (payments whose webhook never arrived, read back
 * from their provider through the gateway port) and `doctor`'s checks. Gateway-neutral: each gateway
 * answers through its adapter.
 */
@Module({
  imports: [ClockModule, GatewaysModule, MailModule, PaymentsModule, SettingsModule, TasksModule],
  providers: [ReconciliationService, ReconciliationTask, DoctorService, SecretRotationService],
  exports: [ReconciliationService, ReconciliationTask, DoctorService, SecretRotationService],
})
export class OperationsModule {}
