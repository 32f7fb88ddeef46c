import request from 'supertest';
import { Clock } from '../../src/common/clock/index.js';
import { Outbox } from '../../src/modules/outbox/index.js';
import { expectWpError } from '../support/http.js';
import { connectGateway, createPaymentForm } from '../support/payment-fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** The value of one sample line (`name{labels} value`) of the exposition, or undefined. */
function sample(text: string, nameAndLabels: string): number | undefined {
  const line = text.split('\n').find((entry) => entry.startsWith(`${nameAndLabels} `));
  return line === undefined ? undefined : Number(line.slice(nameAndLabels.length + 1));
}

/** GET /metrics (issue 34 item 2, docs/operations.md). */
describe('GET /metrics', () => {
  describe('open (no METRICS_TOKEN)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp();
    });
    afterAll(() => t.close());

    const scrape = async () => {
      const res = await request(t.http).get('/metrics');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain;.*version=0\.0\.4/);
      return res.text;
    };

    it('is outside the REST namespace (like /healthz) and has prom-client default families', async () => {
      expect((await request(t.http).get(`${t.base}/metrics`)).status).toBe(404);
      const text = await scrape();
      expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
      expect(text).toMatch(/^nodejs_heap_size_total_bytes \d/m);
    });

    it('labels request latency with the Express route template, never the raw path', async () => {
      await request(t.http).get(`${t.base}/administration/payments/987654`).set('Authorization', t.admin.auth).expect(404);
      await request(t.http).get('/no-such-path/123456').expect(404);
      const text = await scrape();
      expect(sample(text, 'http_request_duration_seconds_count{method="GET",route="/wp-json/checkout/v1/administration/payments/:id",status_class="4xx"}')).toBe(1);
      expect(sample(text, 'http_request_duration_seconds_count{method="GET",route="unmatched",status_class="4xx"}')).toBeGreaterThanOrEqual(1);
      expect(text).not.toContain('987654');
      expect(text).not.toContain('no-such-path');
    });

    it('counts payments per gateway, mode and status from the table', async () => {
      await connectGateway(t, 'gateway_a');
      const form = await createPaymentForm(t);
      for (let i = 0; i < 2; i++) {
        const res = await request(t.http)
          .post(`${t.base}/payment/sync-details`)
          .send({ form_id: form.id, payment_gateway: 'gateway_a', payment_method: 'ccard', email_address: `payer${i}@example.test` });
        expect(res.status).toBe(201);
      }
      expect(sample(await scrape(), 'checkout_payments_total{gateway="gateway_a",mode="test",status="pending"}')).toBe(2);
    });

    it('reports the outbox per topic and state and the age of its oldest due item', async () => {
      const outbox = t.app.get(Outbox);
      // A topic no handler takes stays pending.
      await t.dataSource.transaction((manager) => outbox.add(manager, { topic: 'metrics_probe', key: 'one', payload: {} }));
      const clock = t.app.get(Clock);
      const now = clock.now();
      const spy = jest.spyOn(clock, 'now').mockReturnValue(new Date(now.getTime() + 120_000));
      try {
        const text = await scrape();
        expect(sample(text, 'checkout_outbox_items{topic="metrics_probe",state="pending"}')).toBe(1);
        const age = sample(text, 'checkout_outbox_oldest_due_age_seconds');
        expect(age).toBeGreaterThanOrEqual(119);
        expect(age).toBeLessThan(200);
      } finally {
        spy.mockRestore();
      }
    });
  });

  describe('with METRICS_TOKEN', () => {
    const TOKEN = 'metrics-token-0123456789abcdef';
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ METRICS_TOKEN: TOKEN });
    });
    afterAll(() => t.close());

    it('answers 401 without the bearer token or with another, 200 with it', async () => {
      expectWpError((await request(t.http).get('/metrics')).body, 'rest_not_logged_in', 401);
      expectWpError((await request(t.http).get('/metrics').set('Authorization', `Bearer ${TOKEN}x`)).body, 'rest_not_logged_in', 401);
      expectWpError((await request(t.http).get('/metrics').set('Authorization', `Basic ${TOKEN}`)).body, 'rest_not_logged_in', 401);
      expectWpError((await request(t.http).get('/metrics').set('Authorization', t.admin.auth)).body, 'rest_not_logged_in', 401);
      const ok = await request(t.http).get('/metrics').set('Authorization', `Bearer ${TOKEN}`);
      expect(ok.status).toBe(200);
      expect(ok.text).toContain('http_request_duration_seconds');
    });
  });
});
