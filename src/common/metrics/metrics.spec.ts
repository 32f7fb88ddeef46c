import { Metrics } from './metrics.js';

describe('Metrics', () => {
  it('times a provider call, counts it as an error when it throws, and passes answer and error through', async () => {
    const metrics = new Metrics();
    await expect(metrics.timeProviderCall('gateway_b', 'orders.create', async () => 'answer')).resolves.toBe('answer');
    const failure = new Error('provider down');
    await expect(metrics.timeProviderCall('gateway_b', 'orders.create', async () => Promise.reject(failure))).rejects.toBe(failure);
    metrics.observeProviderCall('gateway_a', 'POST /v1/payment_intents', 0.2, true);
    const text = (await metrics.exposition()).body;
    expect(text).toContain('checkout_provider_request_duration_seconds_count{gateway="gateway_b",operation="orders.create"} 2');
    expect(text).toContain('checkout_provider_request_errors_total{gateway="gateway_b",operation="orders.create"} 1');
    expect(text).toContain('checkout_provider_request_errors_total{gateway="gateway_a",operation="POST /v1/payment_intents"} 1');
  });

  it('counts webhook outcomes per gateway', async () => {
    const metrics = new Metrics();
    metrics.webhookEvent('gateway_a', 'processed');
    metrics.webhookEvent('gateway_a', 'processed');
    metrics.webhookEvent('gateway_b', 'rejected');
    const text = (await metrics.exposition()).body;
    expect(text).toContain('checkout_webhook_events_total{gateway="gateway_a",outcome="processed"} 2');
    expect(text).toContain('checkout_webhook_events_total{gateway="gateway_b",outcome="rejected"} 1');
  });

  it('reads a scraped gauge afresh at every scrape (a label gone from the database goes from the answer)', async () => {
    const metrics = new Metrics();
    let rows = [{ labels: { state: 'pending' }, value: 3 }];
    metrics.scrapedGauge('probe_items', 'probe', ['state'], async () => rows);
    expect((await metrics.exposition()).body).toContain('probe_items{state="pending"} 3');
    rows = [{ labels: { state: 'failed' }, value: 1 }];
    const text = (await metrics.exposition()).body;
    expect(text).toContain('probe_items{state="failed"} 1');
    expect(text).not.toContain('probe_items{state="pending"}');
  });

  it('keeps each application its own registry (several in one process)', async () => {
    const one = new Metrics();
    const two = new Metrics();
    one.webhookEvent('generic', 'processed');
    expect((await two.exposition()).body).not.toContain('checkout_webhook_events_total{gateway="generic"');
  });
});
