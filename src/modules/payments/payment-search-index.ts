import { Injectable } from '@nestjs/common';
import { PaymentTransactions } from './payment-transactions.js';
import { PaymentRepository } from './payment.repository.js';

/** Payments whose terms one catch-up transaction writes again. */
const CATCH_UP_BATCH = 200;

/**
 * The admin search's terms table (migration 1764300000000) kept whole across a rolling deploy: an
 * instance of the release before it writes payments and their email, names and references
 * without terms, so those payments are not found until their terms are written. `catchUp` writes
 * again the terms of every payment updated since `since` (every write of a payment moves its
 * `updated_at`), a batch per transaction, oldest id first: `npm run cli -- search-terms --since …`
 * once the last instance of the previous release has stopped (docs/decisions.md §25).
 */
@Injectable()
export class PaymentSearchIndex {
  constructor(
    private readonly payments: PaymentRepository,
    private readonly transactions: PaymentTransactions,
  ) {}

  /** Rewrites the terms of the payments updated since `since`; answers how many. */
  async catchUp(since: Date, onBatch: (done: number) => void = () => undefined): Promise<number> {
    let afterId = 0;
    let done = 0;
    for (;;) {
      const ids = await this.payments.idsUpdatedSince(since, afterId, CATCH_UP_BATCH);
      if (ids.length === 0) return done;
      await this.transactions.run(async (manager) => {
        for (const id of ids) await this.payments.rewriteTerms(manager, id);
      });
      done += ids.length;
      afterId = ids[ids.length - 1];
      onBatch(done);
    }
  }
}
