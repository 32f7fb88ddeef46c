import { barHeights, dailySeries, dayLink, figureLinks, nextDay, orderedGroups, paymentsLink, periodDays, periodFilters, type MoneyTotals } from './money-model';

const zero = { payments: 0, paid: 0, failed: 0, gross: 0, refunded: 0, application_fees: 0, lost_disputes: 0, net: 0 };
const group = (mode: 'live' | 'test', currency: string, figures: Partial<MoneyTotals> = {}): MoneyTotals => ({ mode, currency, ...zero, ...figures });

describe('dashboard money model', () => {
  const money = { from: '2026-10-30T00:00:00.000Z', before: '2026-11-29T00:00:00.000Z', days: 30 };

  it('lists the period’s UTC days, across a month end', () => {
    const days = periodDays(money.from, money.days);
    expect(days).toHaveLength(30);
    expect(days.slice(0, 3)).toEqual(['2026-10-30', '2026-10-31', '2026-11-01']);
    expect(days[29]).toBe('2026-11-28');
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
  });

  it('fills the days without payments with zeros, for the group asked only', () => {
    const daily = [
      { day: '2026-11-01', ...group('live', 'USD', { payments: 1, paid: 1, gross: 500, net: 480 }) },
      { day: '2026-11-01', ...group('test', 'USD', { payments: 9, paid: 9, gross: 9000, net: 9000 }) },
    ];
    const series = dailySeries({ ...money, daily }, { mode: 'live', currency: 'USD' });
    expect(series).toHaveLength(30);
    expect(series[2]).toEqual(daily[0]);
    expect(series[0]).toEqual({ day: '2026-10-30', ...group('live', 'USD') });
  });

  it('links each figure to the payments list of the period in its mode and currency', () => {
    expect(periodFilters(money)).toEqual({ created_from: '2026-10-30', created_before: '2026-11-29' });
    expect(figureLinks(money, { mode: 'live', currency: 'EUR' })).toEqual({
      completed: '/payments?status=completed&mode=live&currency=EUR&created_from=2026-10-30&created_before=2026-11-29',
      refunded: '/payments?mode=live&currency=EUR&refunded=any&created_from=2026-10-30&created_before=2026-11-29',
      failed: '/payments?status=failed&mode=live&currency=EUR&created_from=2026-10-30&created_before=2026-11-29',
    });
    expect(dayLink({ mode: 'test', currency: 'JPY' }, '2026-11-30')).toBe('/payments?status=completed&mode=test&currency=JPY&created_from=2026-11-30&created_before=2026-12-01');
    expect(paymentsLink({})).toBe('/payments');
  });

  it('scales bars to the largest day; a small day stays visible, an empty one is flat', () => {
    expect(barHeights([0, 1, 50, 100], 60)).toEqual([0, 2, 30, 60]);
    expect(barHeights([0, 0], 60)).toEqual([0, 0]);
    expect(barHeights([-5, 10], 60)).toEqual([0, 60]);
  });

  it('orders live before test, then the busiest currency', () => {
    const ordered = orderedGroups([group('test', 'USD', { paid: 9 }), group('live', 'EUR', { paid: 1 }), group('live', 'USD', { paid: 3 })]);
    expect(ordered.map((entry) => `${entry.mode} ${entry.currency}`)).toEqual(['live USD', 'live EUR', 'test USD']);
  });
});
