import { parseDuration, parseReconcileArguments, parseSince, ReconcileUsageError } from './cli-reconcile.js';

describe('reconcile arguments', () => {
  const now = new Date('2026-11-26T12:00:00.000Z');

  it('reads ages in seconds, minutes, hours and days', () => {
    expect(parseDuration('30s', 'min-age')).toBe(30_000);
    expect(parseDuration('10m', 'min-age')).toBe(600_000);
    expect(parseDuration('2h', 'min-age')).toBe(7_200_000);
    expect(parseDuration('7d', 'min-age')).toBe(604_800_000);
    expect(parseDuration('0s', 'min-age')).toBe(0);
    for (const bad of ['', '5', '5 m', '1.5h', '-1m', '1w', 'm', '10M', '1234567d']) {
      expect(() => parseDuration(bad, 'min-age')).toThrow(ReconcileUsageError);
    }
  });

  it('reads --since as a date or an age counted back from now', () => {
    expect(parseSince('7d', now)).toEqual(new Date('2026-11-19T12:00:00.000Z'));
    expect(parseSince('30m', now)).toEqual(new Date('2026-11-26T11:30:00.000Z'));
    expect(parseSince('2026-11-01', now)).toEqual(new Date('2026-11-01T00:00:00.000Z'));
    expect(() => parseSince('last week', now)).toThrow('--since must be a date (2026-11-01) or an age (7d, 24h, 30m)');
  });

  it('turns the options into a request: one payment, or the sweep with its window and age', () => {
    expect(parseReconcileArguments({ payment: '42' }, now)).toEqual({ paymentId: 42 });
    expect(parseReconcileArguments({}, now)).toEqual({});
    expect(parseReconcileArguments({ since: '24h', minAge: '30s' }, now)).toEqual({ since: new Date('2026-11-25T12:00:00.000Z'), minAgeMs: 30_000 });
    for (const payment of ['0', '-1', '1.5', '2147483648', ' 4', 'x']) expect(() => parseReconcileArguments({ payment }, now)).toThrow('--payment must be a payment id');
    expect(() => parseReconcileArguments({ payment: '4', since: '7d' }, now)).toThrow(ReconcileUsageError);
  });
});
