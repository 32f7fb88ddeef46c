import { VerdictCache } from './verdict-cache.js';

describe('VerdictCache', () => {
  let now: number;
  const clock = () => now;
  beforeEach(() => {
    now = 1_000_000;
  });

  it('keys a delivery by its context, every header and every byte of the body', () => {
    const base = VerdictCache.key(['test', 'WH1'], ['a', 'b'], Buffer.from('{"id":1}'));
    expect(VerdictCache.key(['test', 'WH1'], ['a', 'b'], Buffer.from('{"id":1}'))).toBe(base);
    for (const other of [
      VerdictCache.key(['live', 'WH1'], ['a', 'b'], Buffer.from('{"id":1}')),
      VerdictCache.key(['test', 'WH2'], ['a', 'b'], Buffer.from('{"id":1}')),
      VerdictCache.key(['test', 'WH1'], ['a', 'c'], Buffer.from('{"id":1}')),
      VerdictCache.key(['test', 'WH1'], ['ab', ''], Buffer.from('{"id":1}')),
      VerdictCache.key(['test', 'WH1'], ['a', 'b'], Buffer.from('{"id":1} ')),
    ]) {
      expect(other).not.toBe(base);
    }
  });

  it('answers a verdict until its lifetime ends', async () => {
    const cache = new VerdictCache<boolean>(300_000, 10, clock);
    cache.set('k', Promise.resolve(true));
    await expect(cache.get('k')).resolves.toBe(true);
    now += 299_999;
    expect(cache.get('k')).toBeDefined();
    now += 1;
    expect(cache.get('k')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('never holds more than maxEntries: the oldest goes, and expired ones go as new ones arrive', () => {
    const cache = new VerdictCache<boolean>(1000, 3, clock);
    for (const key of ['a', 'b', 'c', 'd']) {
      cache.set(key, Promise.resolve(true));
      now += 1;
    }
    expect(cache.size).toBe(3);
    expect(cache.get('a')).toBeUndefined();
    now += 1000;
    cache.set('e', Promise.resolve(false));
    expect(cache.size).toBe(1);
  });

  it('drops a call that failed, so the next delivery asks again', async () => {
    const cache = new VerdictCache<boolean>(1000, 3, clock);
    const failed = Promise.reject(new Error('unreachable'));
    cache.set('k', failed);
    await expect(cache.get('k')).rejects.toThrow('unreachable');
    await new Promise((resolve) => setImmediate(resolve));
    expect(cache.get('k')).toBeUndefined();
  });
});
