import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Clock } from '../../common/clock/index.js';
import { Metrics } from '../../common/metrics/index.js';
import { Outbox } from '../outbox/index.js';
import { PaymentQueriesService } from '../payments/index.js';

/**
 * The families read from the database when Prometheus scrapes, not counted on the hot path:
 * payments per gateway, mode and status (what the table holds now, every instance answering the
 * same), the outbox's items per topic and status and the age of its oldest due item.
 */
@Injectable()
export class MetricsCollectors implements OnModuleInit {
  constructor(
    private readonly metrics: Metrics,
    private readonly payments: PaymentQueriesService,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.metrics.scrapedGauge('checkout_payments_total', 'Payment records now in each status, by gateway and mode (read from the database at scrape time)', ['gateway', 'mode', 'status'], async () =>
      (await this.payments.countByGatewayModeStatus()).map(({ gateway, mode, status, count }) => ({ labels: { gateway, mode, status }, value: count })),
    );
    this.metrics.scrapedGauge('checkout_outbox_items', 'Outbox items by topic and state (pending, sent, failed), read at scrape time', ['topic', 'state'], async () =>
      (await this.outbox.backlog()).items.map(({ topic, status, count }) => ({ labels: { topic, state: status }, value: count })),
    );
    this.metrics.scrapedGauge('checkout_outbox_oldest_due_age_seconds', 'Seconds since the oldest pending outbox item became due (0 when none is due)', [], async () => {
      const { oldestDueAt } = await this.outbox.backlog();
      const age = oldestDueAt ? Math.max(0, (this.clock.now().getTime() - oldestDueAt.getTime()) / 1000) : 0;
      return [{ labels: {}, value: age }];
    });
  }
}
