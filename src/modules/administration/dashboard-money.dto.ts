import { ApiProperty } from '@nestjs/swagger';
import { AdminPaymentDto, DailyPaymentTotalsDto, PaymentTotalsDto } from '../payments/index.js';

/** How many days the dashboard's money covers: today (UTC) and the 29 days before it. */
export const DASHBOARD_MONEY_DAYS = 30;

/** How many of the latest payments, and of the latest failed ones, the dashboard lists. */
export const DASHBOARD_LATEST = 5;

/**
 * GET /administration/dashboard/money: the money of the last DASHBOARD_MONEY_DAYS UTC days. Every
 * figure is what `GET /administration/payments/totals` answers for `created_from` = `from` and
 * `created_before` = `before` (with the group's `mode` and `currency`), so the console links each
 * one to the payments list under those filters.
 */
export class DashboardMoneyDto {
  @ApiProperty({ format: 'date-time', description: 'Start of the period: midnight UTC, DASHBOARD_MONEY_DAYS − 1 days before today (inclusive)', example: '2026-10-30T00:00:00.000Z' })
  from: string;

  @ApiProperty({ format: 'date-time', description: 'End of the period: the next midnight UTC (exclusive)', example: '2026-11-29T00:00:00.000Z' })
  before: string;

  @ApiProperty({ type: 'integer', description: 'Days in the period', example: DASHBOARD_MONEY_DAYS })
  days: number;

  @ApiProperty({ type: PaymentTotalsDto, isArray: true, description: 'The period per mode and currency, live before test, then by currency code' })
  totals: PaymentTotalsDto[];

  @ApiProperty({ type: DailyPaymentTotalsDto, isArray: true, description: 'Per UTC day, mode and currency, oldest day first; a day without payments has no entry' })
  daily: DailyPaymentTotalsDto[];

  @ApiProperty({ type: AdminPaymentDto, isArray: true, description: `The newest completed payments of the period (at most ${DASHBOARD_LATEST}), as the payments list shows them` })
  latest_payments: AdminPaymentDto[];

  @ApiProperty({ type: AdminPaymentDto, isArray: true, description: `The newest failed payments of the period (at most ${DASHBOARD_LATEST}), with their failure reason` })
  latest_failed: AdminPaymentDto[];
}

const USD_LIVE = { mode: 'live' as const, currency: 'USD', payments: 3, paid: 2, failed: 1, gross: 4500, refunded: 500, application_fees: 0, lost_disputes: 1000, net: 3000 };

export const DASHBOARD_MONEY_EXAMPLE: DashboardMoneyDto = {
  from: '2026-10-30T00:00:00.000Z',
  before: '2026-11-29T00:00:00.000Z',
  days: DASHBOARD_MONEY_DAYS,
  totals: [USD_LIVE],
  daily: [
    { day: '2026-11-20', ...USD_LIVE, payments: 2, paid: 1, gross: 2000, refunded: 500, lost_disputes: 0, net: 1500 },
    { day: '2026-11-27', ...USD_LIVE, payments: 1, paid: 1, failed: 0, gross: 2500, refunded: 0, net: 1500 },
  ],
  latest_payments: [],
  latest_failed: [],
};
