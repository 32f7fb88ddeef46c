import { Global, Module } from '@nestjs/common';
import { Metrics } from './metrics.js';

/** The one `Metrics` of the application, for every module that records something. */
@Global()
@Module({ providers: [Metrics], exports: [Metrics] })
export class MetricsModule {}
