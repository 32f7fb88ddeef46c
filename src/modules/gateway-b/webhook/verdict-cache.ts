import { createHash } from 'node:crypto';

/**
 * Verdicts of the provider's verify-webhook-signature by delivery, so a repeated delivery (the same
 * five transmission headers and the same raw body, for the same mode and Webhook ID) costs no
 * second call, and concurrent copies of one delivery share one call: the entry is the call's
 * promise. Anything else (one header or one byte of the body changed) is another key.
 *
 * Bounded in size and lifetime: every entry lives `ttlMs` (the span in which a delivery's
 * transmission time is accepted: after it the delivery is refused before the cache is asked), so
 * the Map's insertion order is also expiry order; expired entries go from the front as new ones
 * arrive, and at `maxEntries` the oldest goes.
 */
export class VerdictCache<V> {
  private readonly entries = new Map<string, { verdict: Promise<V>; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The key of a delivery: SHA-256 over its context and headers (as JSON, so no two lists of
   * strings share an encoding), a NUL (which that JSON cannot contain) and the raw body.
   */
  static key(context: readonly string[], headers: readonly string[], rawBody: Buffer): string {
    return createHash('sha256').update(JSON.stringify([context, headers])).update('\0').update(rawBody).digest('hex');
  }

  get(key: string): Promise<V> | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.verdict;
  }

  /** Keeps `verdict` for `key`; a rejected verdict (no answer from the provider) is dropped again at once. */
  set(key: string, verdict: Promise<V>): void {
    this.dropExpired();
    this.entries.delete(key);
    while (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    const entry = { verdict, expiresAt: this.now() + this.ttlMs };
    this.entries.set(key, entry);
    verdict.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
  }

  get size(): number {
    return this.entries.size;
  }

  private dropExpired(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt > now) break;
      this.entries.delete(key);
    }
  }
}
