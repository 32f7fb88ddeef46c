import type { components } from '../../../../../clients/typescript/index';
import type { PaymentFilters } from '../../../api/payments';
import { PAYMENT_FILTER_NAMES } from '../../payments/payment-list/payment-list-model';

/** Pure logic of the dashboard's money (no DOM, no React: unit-tested in money-model.spec.ts). */

export type DashboardMoney = components['schemas']['DashboardMoneyDto'];
export type MoneyTotals = components['schemas']['PaymentTotalsDto'];
export type DailyTotals = components['schemas']['DailyPaymentTotalsDto'];

const DAY_MS = 86_400_000;

/** The period's UTC days, oldest first (`YYYY-MM-DD`). */
export function periodDays(from: string, days: number): string[] {
  const start = Date.parse(from);
  return Array.from({ length: days }, (_, index) => new Date(start + index * DAY_MS).toISOString().slice(0, 10));
}

/** The day after `day` (`YYYY-MM-DD`, UTC). */
export function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + DAY_MS).toISOString().slice(0, 10);
}

/** One mode and currency's days: an entry for every day of the period (a day without payments is all zeros). */
export function dailySeries(money: Pick<DashboardMoney, 'from' | 'days' | 'daily'>, group: Pick<MoneyTotals, 'mode' | 'currency'>): DailyTotals[] {
  const byDay = new Map(money.daily.filter((entry) => entry.mode === group.mode && entry.currency === group.currency).map((entry) => [entry.day, entry]));
  return periodDays(money.from, money.days).map(
    (day) =>
      byDay.get(day) ?? { day, mode: group.mode, currency: group.currency, payments: 0, paid: 0, failed: 0, gross: 0, refunded: 0, application_fees: 0, lost_disputes: 0, net: 0 },
  );
}

/** The payments list filters of the whole period (the list's date inputs take days: `created_before` is exclusive). */
export function periodFilters(money: Pick<DashboardMoney, 'from' | 'before'>): PaymentFilters {
  return { created_from: money.from.slice(0, 10), created_before: money.before.slice(0, 10) };
}

/** The console's address of the payments list under `filters`, in the list's own filter order. */
export function paymentsLink(filters: PaymentFilters): string {
  const params = new URLSearchParams();
  for (const name of PAYMENT_FILTER_NAMES) {
    const value = filters[name];
    if (value !== undefined && value !== '') params.set(name, String(value));
  }
  const query = params.toString();
  return query ? `/payments?${query}` : '/payments';
}

/** What each figure of a group links to: the list of the period in that mode and currency, narrowed to what the figure counts. */
export function figureLinks(money: Pick<DashboardMoney, 'from' | 'before'>, group: Pick<MoneyTotals, 'mode' | 'currency'>) {
  const base: PaymentFilters = { ...periodFilters(money), mode: group.mode, currency: group.currency };
  return {
    /** Gross, net and the payments that took money: the completed payments */
    completed: paymentsLink({ ...base, status: 'completed' }),
    refunded: paymentsLink({ ...base, refunded: 'any' }),
    failed: paymentsLink({ ...base, status: 'failed' }),
  };
}

/** The list of one day of a group (its bar in the chart, its row in the table). */
export function dayLink(group: Pick<MoneyTotals, 'mode' | 'currency'>, day: string): string {
  return paymentsLink({ mode: group.mode, currency: group.currency, status: 'completed', created_from: day, created_before: nextDay(day) });
}

/**
 * Bar heights for a chart `height` units tall, in proportion to the largest value; a day with any
 * money gets at least 2 units (visible), a day without none. Negative values (never gross) count as 0.
 */
export function barHeights(values: readonly number[], height: number): number[] {
  const top = Math.max(0, ...values);
  if (top === 0) return values.map(() => 0);
  return values.map((value) => (value <= 0 ? 0 : Math.max(2, Math.round((value / top) * height))));
}

/** The groups as the dashboard shows them: live before test (the API's order), then the currency with most payments first. */
export function orderedGroups(totals: readonly MoneyTotals[]): MoneyTotals[] {
  return [...totals].sort((a, b) => (a.mode === b.mode ? 0 : a.mode === 'live' ? -1 : 1) || b.paid - a.paid || a.currency.localeCompare(b.currency));
}
