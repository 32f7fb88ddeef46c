export { GracefulShutdown, SHUTDOWN_SIGNALS, type ShutdownOutcome, type ShutdownSignal } from './graceful-shutdown.js';
export { HttpDrain, type HttpDrainOutcome } from './http-drain.js';
export { ShutdownModule } from './shutdown.module.js';
export { ShutdownState } from './shutdown-state.js';
