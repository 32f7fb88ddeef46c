import { canMove, decideTransition, isPaymentStatus, isTerminal, PAYMENT_STATUSES, type PaymentStatus } from './payment-status.js';

describe('payment status machine', () => {
  const legal: Array<[PaymentStatus, PaymentStatus]> = [
    ['pending', 'processing'],
    ['pending', 'completed'],
    ['pending', 'failed'],
    ['pending', 'canceled'],
    ['processing', 'completed'],
    ['processing', 'failed'],
    ['processing', 'canceled'],
    ['failed', 'pending'],
    ['failed', 'processing'],
    ['failed', 'completed'],
  ];

  it('allows exactly the moves of docs/decisions.md §5', () => {
    for (const from of PAYMENT_STATUSES) {
      for (const to of PAYMENT_STATUSES) {
        const expected = legal.some(([a, b]) => a === from && b === to);
        expect([from, to, canMove(from, to)]).toEqual([from, to, expected]);
      }
    }
  });

  it.each(legal)('%s → %s is applied', (from, to) => {
    expect(decideTransition(from, to)).toBe('apply');
  });

  it.each(PAYMENT_STATUSES.map((status) => [status]))('%s → itself is unchanged', (status) => {
    expect(decideTransition(status, status)).toBe('unchanged');
  });

  it.each([
    ['processing', 'pending'],
    ['completed', 'pending'],
    ['completed', 'processing'],
    ['completed', 'failed'],
    ['canceled', 'pending'],
    ['canceled', 'processing'],
    ['canceled', 'failed'],
  ] as Array<[PaymentStatus, PaymentStatus]>)('%s → %s moves backwards: recorded and ignored', (from, to) => {
    expect(decideTransition(from, to)).toBe('backward');
  });

  it.each([
    ['completed', 'canceled'],
    ['canceled', 'completed'],
    ['failed', 'canceled'],
  ] as Array<[PaymentStatus, PaymentStatus]>)('%s → %s is illegal', (from, to) => {
    expect(decideTransition(from, to)).toBe('illegal');
  });

  it('never leaves a terminal status', () => {
    for (const from of PAYMENT_STATUSES.filter(isTerminal)) {
      for (const to of PAYMENT_STATUSES) expect(decideTransition(from, to)).not.toBe('apply');
    }
    expect(PAYMENT_STATUSES.filter(isTerminal)).toEqual(['completed', 'canceled']);
  });

  it('recognises status names', () => {
    expect(isPaymentStatus('pending')).toBe(true);
    expect(isPaymentStatus('success')).toBe(false);
    expect(isPaymentStatus(undefined)).toBe(false);
  });
});
