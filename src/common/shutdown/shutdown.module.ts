import { Global, Module } from '@nestjs/common';
import { GracefulShutdown } from './graceful-shutdown.js';
import { ShutdownState } from './shutdown-state.js';

/** The shutdown sequence (GracefulShutdown) and the state every part that must react reads (ShutdownState). */
@Global()
@Module({ providers: [ShutdownState, GracefulShutdown], exports: [ShutdownState, GracefulShutdown] })
export class ShutdownModule {}
