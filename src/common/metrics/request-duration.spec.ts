import { Histogram, Registry } from 'prom-client';
import { RequestDurationHistogram, STATUS_CLASSES } from './request-duration.js';

const NAME = 'http_request_duration_seconds';
const HELP = 'Time to answer an HTTP request, by method, Express route template and status class';

/** The same observations into prom-client's Histogram (what the service used before) and ours. */
function both(): { observe(method: string, route: string, status: number, seconds: number): void; reference: Registry; ours: Registry; histogram: RequestDurationHistogram } {
  const reference = new Registry();
  const ours = new Registry();
  const promHistogram = new Histogram({ name: NAME, help: HELP, labelNames: ['method', 'route', 'status_class'] as const, registers: [reference] });
  const histogram = new RequestDurationHistogram(NAME, HELP, ours);
  return {
    reference,
    ours,
    histogram,
    observe(method, route, status, seconds) {
      const index = Math.floor(status / 100);
      promHistogram.labels(method, route, STATUS_CLASSES[index] ?? '0xx').observe(seconds);
      histogram.observe(method, route, index, seconds);
    },
  };
}

describe('RequestDurationHistogram', () => {
  it('exposes exactly the text prom-client’s Histogram gives for the same observations', async () => {
    const { observe, reference, ours } = both();
    // Every bound exactly, values between and beyond the last bound, series interleaved, status
    // classes outside 1–5, and a sum that depends on the order of additions.
    const bounds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
    const values = [...bounds, 0, 0.0001, 0.0049999, 0.0050001, 0.07, 0.3, 3, 7.5, 10.000001, 42, 1e-9, 0.1 + 0.2];
    const requests: Array<[string, string, number]> = [
      ['GET', '/healthz', 200],
      ['POST', '/wp-json/checkout/v1/payment/sync-details', 201],
      ['GET', 'unmatched', 404],
      ['GET', '/healthz', 503],
      ['POST', '/wp-json/checkout/v1/webhook/:gateway/:mode', 400],
      ['GET', '/wp-json/checkout/v1/administration/payments/:id', 302],
      ['GET', '/healthz', 101],
      ['DELETE', 'unmatched', 0],
      ['GET', 'unmatched', 600],
      ['PATCH', 'route with "quotes" and \\ and\nnewline', 200],
    ];
    let n = 0;
    for (let round = 0; round < 3; round += 1) {
      for (const value of values) {
        const [method, route, status] = requests[n % requests.length];
        observe(method, route, status, value * (round + 1));
        n += 1;
      }
    }
    const expected = await reference.metrics();
    expect(expected).toContain('http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/healthz",status_class="2xx"}');
    expect(await ours.metrics()).toBe(expected);
    expect(await ours.getMetricsAsJSON()).toEqual(await reference.getMetricsAsJSON());
  });

  it('is the same as prom-client’s when nothing was observed, and after a reset', async () => {
    const { observe, reference, ours } = both();
    expect(await ours.metrics()).toBe(await reference.metrics());
    observe('GET', '/healthz', 200, 0.002);
    reference.resetMetrics();
    ours.resetMetrics();
    expect(await ours.metrics()).toBe(await reference.metrics());
    observe('GET', '/readyz', 200, 0.02);
    expect(await ours.metrics()).toBe(await reference.metrics());
    expect(await ours.metrics()).not.toContain('route="/healthz"');
  });

  it('refuses a value that is not a finite number, as prom-client does', () => {
    const { histogram } = both();
    expect(() => histogram.observe('GET', '/healthz', 2, Number.NaN)).toThrow(TypeError);
    expect(() => histogram.observe('GET', '/healthz', 2, Number.POSITIVE_INFINITY)).toThrow(TypeError);
  });

  it('keeps its name unique in the registry', () => {
    const registry = new Registry();
    new RequestDurationHistogram(NAME, HELP, registry);
    expect(() => new Histogram({ name: NAME, help: HELP, registers: [registry] })).toThrow(/already been registered/);
  });
});
