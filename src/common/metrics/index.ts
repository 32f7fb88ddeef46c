export { Metrics, type Sample, UNMATCHED_ROUTE } from './metrics.js';
export { MetricsModule } from './metrics.module.js';
