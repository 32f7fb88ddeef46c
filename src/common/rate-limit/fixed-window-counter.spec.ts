import { FixedWindowCounter } from './fixed-window-counter.js';

describe('FixedWindowCounter', () => {
  let now: number;
  const clock = () => now;
  beforeEach(() => {
    now = 1_000_000;
  });

  it('counts per key inside one window that is not extended by later hits', () => {
    const counter = new FixedWindowCounter(60_000, 100, clock);
    expect(counter.hit('a')).toBe(1);
    now += 30_000;
    expect(counter.hit('a')).toBe(2);
    expect(counter.count('a')).toBe(2);
    expect(counter.count('b')).toBe(0);
    expect(counter.msUntilReset('a')).toBe(30_000);
    now += 30_000;
    expect(counter.count('a')).toBe(0);
    expect(counter.hit('a')).toBe(1);
  });

  it('drops expired windows as new hits arrive, so idle keys do not accumulate', () => {
    const counter = new FixedWindowCounter(60_000, 100, clock);
    for (let i = 0; i < 50; i += 1) counter.hit(`client-${i}`);
    expect(counter.size).toBe(50);
    now += 60_000;
    counter.hit('late');
    expect(counter.size).toBe(1);
  });

  it('never holds more than maxEntries and evicts the window closest to its end', () => {
    const counter = new FixedWindowCounter(60_000, 3, clock);
    counter.hit('oldest');
    now += 1;
    counter.hit('attacker');
    counter.hit('attacker');
    now += 1;
    counter.hit('c');
    now += 1;
    counter.hit('d');
    expect(counter.size).toBe(3);
    expect(counter.count('oldest')).toBe(0);
    expect(counter.count('attacker')).toBe(2);
    for (let i = 0; i < 10_000; i += 1) counter.hit(`flood-${i}`);
    expect(counter.size).toBe(3);
  });

  it('keeps an attacker’s count until maxEntries newer clients have arrived', () => {
    const counter = new FixedWindowCounter(60_000, 1000, clock);
    for (let i = 0; i < 10; i += 1) counter.hit('attacker');
    for (let i = 0; i < 998; i += 1) counter.hit(`other-${i}`);
    expect(counter.count('attacker')).toBe(10);
    counter.hit('other-last');
    expect(counter.count('attacker')).toBe(10);
    counter.hit('one-more');
    expect(counter.count('attacker')).toBe(0);
  });
});
