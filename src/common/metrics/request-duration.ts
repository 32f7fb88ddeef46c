import type { Metric, Registry } from 'prom-client';

/** prom-client's default histogram buckets, which `http_request_duration_seconds` has always used. */
export const DEFAULT_BUCKETS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The status class label by `Math.floor(status / 100)`; anything outside 0–5 is `0xx`. */
export const STATUS_CLASSES: readonly string[] = ['0xx', '1xx', '2xx', '3xx', '4xx', '5xx'];

type Labels = { method: string; route: string; status_class: string };

/** One series: per-bucket (not cumulative) counts, the last slot for values above every bound. */
interface Series {
  labels: Labels;
  counts: number[];
  sum: number;
  count: number;
}

/** A value of prom-client's `getForPromString()` / `get()` answer. */
interface ExportedValue {
  labels: Record<string, string | number>;
  sharedLabels?: Labels;
  value: number;
  metricName: string;
  exemplar?: null;
}

/**
 * `http_request_duration_seconds`, observed on every answer, as a registry member of its own.
 *
 * Why not prom-client's `Histogram`: its `labels(...).observe(v)` builds a label object, checks it
 * twice, joins it into a hash string and looks that string up on every call, and keys its buckets
 * by the bound's decimal text; on `GET /healthz` that was most of the metrics' cost per request
 * (issue 34 allows 3 % of the route). Here a series is found by two `Map` lookups on the strings
 * Express already holds (method, route template) and an array index (status class), and an
 * observation is a bound search and three additions. Nothing is formatted until a scrape.
 *
 * The exposition is prom-client's own: the registry formats this family from the same
 * `getForPromString()` shape its Histogram returns (series in first-observed order, cumulative
 * `le` buckets, `+Inf`, `_sum`, `_count`), `get()` gives the same JSON (and `aggregator: 'sum'` for
 * a cluster registry). request-duration.spec.ts checks the text against a prom-client Histogram fed
 * the same observations.
 */
export class RequestDurationHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly labelNames = ['method', 'route', 'status_class'] as const;
  private readonly byMethod = new Map<string, Map<string, Array<Series | undefined>>>();
  /** Every series in the order first observed (prom-client's hash map keeps insertion order). */
  private series: Series[] = [];

  constructor(
    readonly name: string,
    readonly help: string,
    registry: Registry,
    private readonly upperBounds: readonly number[] = DEFAULT_BUCKETS,
  ) {
    // The registry needs only name, type and get()/getForPromString() of a member; prom-client's
    // type lists its own four classes.
    registry.registerMetric(this as unknown as Metric);
  }

  /** One answer: `statusClass` is `Math.floor(status / 100)` (an index of STATUS_CLASSES). */
  observe(method: string, route: string, statusClass: number, seconds: number): void {
    if (!Number.isFinite(seconds)) throw new TypeError(`Value is not a valid number: ${seconds}`);
    let routes = this.byMethod.get(method);
    if (routes === undefined) {
      routes = new Map();
      this.byMethod.set(method, routes);
    }
    let classes = routes.get(route);
    if (classes === undefined) {
      classes = [undefined, undefined, undefined, undefined, undefined, undefined];
      routes.set(route, classes);
    }
    const index = statusClass >= 0 && statusClass < STATUS_CLASSES.length ? statusClass : 0;
    let series = classes[index];
    if (series === undefined) {
      series = { labels: { method, route, status_class: STATUS_CLASSES[index] }, counts: new Array<number>(this.upperBounds.length + 1).fill(0), sum: 0, count: 0 };
      classes[index] = series;
      this.series.push(series);
    }
    const bounds = this.upperBounds;
    let bucket = 0;
    while (bucket < bounds.length && !(seconds <= bounds[bucket])) bucket += 1;
    series.counts[bucket] += 1;
    series.sum += seconds;
    series.count += 1;
  }

  /** What the registry formats: prom-client's Histogram.getForPromString() shape. */
  getForPromString(): { name: string; help: string; type: string; values: ExportedValue[]; aggregator: string } {
    const bucketName = `${this.name}_bucket`;
    const values: ExportedValue[] = [];
    for (const series of this.series) {
      let cumulative = 0;
      this.upperBounds.forEach((bound, index) => {
        cumulative += series.counts[index];
        values.push({ labels: { le: bound }, sharedLabels: series.labels, value: cumulative, metricName: bucketName, exemplar: null });
      });
      values.push(
        { labels: { le: '+Inf' }, sharedLabels: series.labels, value: series.count, metricName: bucketName, exemplar: null },
        { labels: {}, sharedLabels: series.labels, value: series.sum, metricName: `${this.name}_sum` },
        { labels: {}, sharedLabels: series.labels, value: series.count, metricName: `${this.name}_count` },
      );
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** prom-client's Histogram.get(): the same values with each series' labels merged in. */
  get(): { name: string; help: string; type: string; values: ExportedValue[]; aggregator: string } {
    const data = this.getForPromString();
    data.values = data.values.map(({ sharedLabels, labels, ...rest }) => ({ ...rest, labels: { ...labels, ...sharedLabels } }));
    return data;
  }

  /** Registry.resetMetrics(): every series gone. */
  reset(): void {
    this.byMethod.clear();
    this.series = [];
  }
}
