interface Window {
  count: number;
  expiresAt: number;
}

/**
 * In-memory fixed-window counts per key with bounded memory (the per-process store of a limit).
 *
 * A key's window opens at its first hit and is never extended, and every window has the same
 * length, so the Map's insertion order is also expiry order: expired windows are dropped from the
 * front as new hits arrive (amortised O(1)), and the map never holds more than `maxEntries`.
 *
 * At the cap the oldest window is evicted: the one closest to its end, so the least remaining
 * penalty is lost. Evicting one particular key requires `maxEntries` newer keys, i.e. hits from
 * that many distinct clients within one window; an attacker who holds that many addresses (IPv4
 * addresses or IPv6 /64s, see clientKey) already gets `maxEntries` × limit attempts by using them
 * directly, so flooding the store buys nothing it did not already have.
 */
export class FixedWindowCounter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly windowMs: number,
    readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The live count of `key` (0 when it has none or its window ended). */
  count(key: string): number {
    return this.live(key)?.count ?? 0;
  }

  /** Milliseconds until the window of `key` ends, 0 when it has none. */
  msUntilReset(key: string): number {
    const window = this.live(key);
    return window ? window.expiresAt - this.now() : 0;
  }

  /** Counts one hit for `key`, opening its window on the first; returns the new count. */
  hit(key: string): number {
    this.dropExpired();
    const window = this.live(key);
    if (window) return (window.count += 1);
    while (this.windows.size >= this.maxEntries) this.windows.delete(this.windows.keys().next().value!);
    this.windows.set(key, { count: 1, expiresAt: this.now() + this.windowMs });
    return 1;
  }

  get size(): number {
    return this.windows.size;
  }

  private live(key: string): Window | undefined {
    const window = this.windows.get(key);
    if (window && window.expiresAt <= this.now()) {
      this.windows.delete(key);
      return undefined;
    }
    return window;
  }

  private dropExpired(): void {
    const now = this.now();
    for (const [key, window] of this.windows) {
      if (window.expiresAt > now) break;
      this.windows.delete(key);
    }
  }
}
