import { Injectable } from '@nestjs/common';
import { PaymentQueriesService } from '../payments/index.js';
import { DASHBOARD_LATEST, DASHBOARD_MONEY_DAYS, type DashboardMoneyDto } from './dashboard-money.dto.js';

const DAY_MS = 86_400_000;

/**
 * The dashboard's money: the payments list's totals (per mode and currency, and per UTC day) over
 * the last DASHBOARD_MONEY_DAYS days, and the latest completed and failed payments of that period.
 * Everything is read through the payments list's own filters, so each figure is what the list shows
 * under them.
 */
@Injectable()
export class DashboardMoneyService {
  constructor(private readonly payments: PaymentQueriesService) {}

  async money(now = new Date()): Promise<DashboardMoneyDto> {
    const before = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + DAY_MS);
    const from = new Date(before.getTime() - DASHBOARD_MONEY_DAYS * DAY_MS);
    const period = { created_from: from.toISOString(), created_before: before.toISOString() };
    const { totals, daily } = await this.payments.adminTotalsByDay(period);
    return {
      from: period.created_from,
      before: period.created_before,
      days: DASHBOARD_MONEY_DAYS,
      totals,
      daily,
      latest_payments: await this.payments.adminNewest({ ...period, status: 'completed' }, DASHBOARD_LATEST),
      latest_failed: await this.payments.adminNewest({ ...period, status: 'failed' }, DASHBOARD_LATEST),
    };
  }
}
