import { retryDelayMs } from './outbox-handler.js';

describe('retryDelayMs', () => {
  it('waits the base after the first failed attempt and doubles after each further one', () => {
    expect([1, 2, 3, 4, 5].map((attempt) => retryDelayMs(attempt, 30, 3600))).toEqual([30_000, 60_000, 120_000, 240_000, 480_000]);
  });

  it('never waits longer than the maximum', () => {
    expect(retryDelayMs(7, 30, 3600)).toBe(1_920_000);
    expect(retryDelayMs(8, 30, 3600)).toBe(3_600_000);
    expect(retryDelayMs(60, 30, 3600)).toBe(3_600_000);
    expect(retryDelayMs(1, 60, 10)).toBe(10_000);
  });
});
