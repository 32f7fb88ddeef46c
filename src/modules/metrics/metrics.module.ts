import { Module } from '@nestjs/common';
import { ClockModule } from '../../common/clock/index.js';
import { OutboxModule } from '../outbox/index.js';
import { PaymentsModule } from '../payments/index.js';
import { MetricsCollectors } from './metrics-collectors.js';
import { MetricsController } from './metrics.controller.js';

/** `GET /metrics` and the families collected from the database at scrape time. */
@Module({ imports: [ClockModule, PaymentsModule, OutboxModule], controllers: [MetricsController], providers: [MetricsCollectors] })
export class OperatorMetricsModule {}
