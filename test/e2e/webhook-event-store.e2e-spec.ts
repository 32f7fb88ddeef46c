import { WebhookEventRepository } from '../../src/modules/webhooks/webhook-event.repository.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

describe('webhook event store (unique provider + event id)', () => {
  let t: TestApp;
  let events: WebhookEventRepository;

  beforeAll(async () => {
    t = await startTestApp();
    events = t.app.get(WebhookEventRepository);
  });
  afterAll(() => t.close());

  it('records an event once; a redelivery reports the stored row and changes nothing', async () => {
    const first = await events.recordEventOnce({ provider: 'gateway_a', eventId: 'evt_once', type: 'payment_intent.succeeded', mode: 'test' });
    expect(first.recorded).toBe(true);
    if (!first.recorded) return;
    expect(first.event.id).toEqual(expect.any(Number));
    await events.markOutcome(first.event.id, 'processed', 42);

    const again = await events.recordEventOnce({ provider: 'gateway_a', eventId: 'evt_once', type: 'payment_intent.succeeded', mode: 'test' });
    expect(again).toEqual({ recorded: false, existing: expect.objectContaining({ id: first.event.id, status: 'processed', paymentId: 42 }) });
    const stored = await events.find('gateway_a', 'evt_once');
    expect(stored).toMatchObject({ eventType: 'payment_intent.succeeded', mode: 'test', status: 'processed', paymentId: 42 });
    expect(stored!.processedAt).toBeInstanceOf(Date);
  });

  it('keeps providers apart', async () => {
    expect((await events.recordEventOnce({ provider: 'gateway_a', eventId: 'shared-id', type: 'invoice.paid', mode: 'live' })).recorded).toBe(true);
    expect((await events.recordEventOnce({ provider: 'gateway_b', eventId: 'shared-id', type: 'PAYMENT.CAPTURE.COMPLETED', mode: 'live' })).recorded).toBe(true);
  });

  it('records exactly one of many concurrent deliveries of the same event', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, () => events.recordEventOnce({ provider: 'gateway_a', eventId: 'evt_concurrent', type: 'invoice.paid', mode: 'test' })),
    );
    expect(outcomes.filter((outcome) => outcome.recorded)).toHaveLength(1);
    const rows = await t.dataSource.query('SELECT COUNT(*) AS n FROM wp_checkout_webhook_events WHERE event_id = ?', ['evt_concurrent']);
    expect(Number(rows[0].n)).toBe(1);
  });

  it('takes part in the caller transaction (an effect that fails leaves no record)', async () => {
    await expect(
      t.dataSource.transaction(async (manager) => {
        const outcome = await events.recordEventOnce({ provider: 'gateway_a', eventId: 'evt_rolled_back', type: 'invoice.paid', mode: 'test' }, manager);
        expect(outcome.recorded).toBe(true);
        throw new Error('the effect failed');
      }),
    ).rejects.toThrow('the effect failed');
    expect(await events.find('gateway_a', 'evt_rolled_back')).toBeNull();
    expect((await events.recordEventOnce({ provider: 'gateway_a', eventId: 'evt_rolled_back', type: 'invoice.paid', mode: 'test' })).recorded).toBe(true);
  });
});
