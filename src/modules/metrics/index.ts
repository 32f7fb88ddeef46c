export { OperatorMetricsModule } from './metrics.module.js';
