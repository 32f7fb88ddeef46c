/** Payment statuses and the moves between them (docs/decisions.md §5). Pure; PaymentLedgerService applies them (the only writer of a status). */
export const PAYMENT_STATUSES = ['pending', 'processing', 'completed', 'failed', 'canceled'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const TERMINAL_STATUSES: readonly PaymentStatus[] = ['completed', 'canceled'];

const MOVES: Readonly<Record<PaymentStatus, readonly PaymentStatus[]>> = {
  pending: ['processing', 'completed', 'failed', 'canceled'],
  // A failed attempt can be retried (sync-details moves it back to pending) or still succeed.
  failed: ['pending', 'processing', 'completed'],
  processing: ['completed', 'failed', 'canceled'],
  completed: [],
  canceled: [],
};

/**
 * How far along a payment is. A move to a lower rank is "backwards": typically a provider event
 * that arrives late (`processing` after `completed`). `failed` ranks with `pending` because it
 * can be retried.
 */
const RANK: Readonly<Record<PaymentStatus, number>> = { pending: 0, failed: 0, processing: 1, completed: 2, canceled: 2 };

/**
 * - `apply`: a legal move;
 * - `unchanged`: already there (idempotent repeats, e.g. webhook after checkout);
 * - `backward`: recorded and ignored, without an error (late or out-of-order events);
 * - `illegal`: recorded and refused (409 `checkout_invalid_state` for the caller).
 */
export type TransitionDecision = 'apply' | 'unchanged' | 'backward' | 'illegal';

export function isPaymentStatus(value: unknown): value is PaymentStatus {
  return typeof value === 'string' && (PAYMENT_STATUSES as readonly string[]).includes(value);
}

export function isTerminal(status: PaymentStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

export function canMove(from: PaymentStatus, to: PaymentStatus): boolean {
  return MOVES[from].includes(to);
}

export function decideTransition(from: PaymentStatus, to: PaymentStatus): TransitionDecision {
  if (from === to) return 'unchanged';
  if (canMove(from, to)) return 'apply';
  return RANK[to] < RANK[from] ? 'backward' : 'illegal';
}
