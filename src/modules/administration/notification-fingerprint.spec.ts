import { notificationFingerprint } from './notification-fingerprint.js';

describe('notificationFingerprint', () => {
  it('is stable, 32 hex digits, and independent of the order of the facts', () => {
    const a = notificationFingerprint('gateway_a.checkout_paused.test', { mode: 'test', status: 'failed', last_error: null });
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(notificationFingerprint('gateway_a.checkout_paused.test', { last_error: null, status: 'failed', mode: 'test' })).toBe(a);
  });

  it('changes with any fact, with the id, and tells null from a string or a missing fact', () => {
    const base = notificationFingerprint('n', { status: 'failed', last_error: null });
    expect(notificationFingerprint('n', { status: 'failed', last_error: 'endpoint is disabled' })).not.toBe(base);
    expect(notificationFingerprint('n', { status: 'unverified', last_error: null })).not.toBe(base);
    expect(notificationFingerprint('m', { status: 'failed', last_error: null })).not.toBe(base);
    expect(notificationFingerprint('n', { status: 'failed', last_error: 'null' })).not.toBe(base);
    expect(notificationFingerprint('n', { status: 'failed' })).not.toBe(base);
    expect(notificationFingerprint('n', { current: true })).not.toBe(notificationFingerprint('n', { current: 'true' }));
  });
});
