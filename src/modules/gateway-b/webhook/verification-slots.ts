/**
 * A bound on verify-webhook-signature calls in flight in this process. A delivery beyond it waits
 * for a free slot, at most `waitMs` and behind at most `maxWaiting` others; otherwise it gets no
 * slot, and the caller answers 503 so that the provider delivers it again later.
 *
 * Why wait at all: the provider sends bursts (several events of one checkout at once) and retries a
 * refused delivery only minutes later, then hours apart; a short wait lets a burst through at the
 * pace of the calls instead of delaying it. Why a bounded wait and queue: a flood must not hold
 * an unbounded number of connections and requests in memory, each waiting for a call.
 */
export class VerificationSlots {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly max: number,
    readonly maxWaiting: number,
    readonly waitMs: number,
  ) {}

  /** True when a slot was taken (give it back with `release`), false when none came free in time. */
  acquire(): Promise<boolean> {
    if (this.active < this.max) {
      this.active += 1;
      return Promise.resolve(true);
    }
    if (this.waiting.length >= this.maxWaiting) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const grant = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        const at = this.waiting.indexOf(grant);
        if (at !== -1) this.waiting.splice(at, 1);
        resolve(false);
      }, this.waitMs);
      timer.unref();
      this.waiting.push(grant);
    });
  }

  /** Gives a slot back: to the longest waiting delivery, if any. */
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active = Math.max(0, this.active - 1);
  }

  get inUse(): number {
    return this.active;
  }

  get queued(): number {
    return this.waiting.length;
  }
}
