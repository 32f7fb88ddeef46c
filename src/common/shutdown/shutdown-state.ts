import { Injectable, Logger } from '@nestjs/common';

/**
 * Whether this instance is shutting down (SIGTERM or SIGINT received). From then on `/readyz`
 * answers 503 and the background tasks start no new work: each says what to stop with
 * `onShutdown` and waits for its work in flight in its own `onModuleDestroy`, which runs once the
 * HTTP side has drained (GracefulShutdown). Until then the database and Redis are still open, so
 * requests in flight finish normally.
 */
@Injectable()
export class ShutdownState {
  private readonly logger = new Logger('Shutdown');
  private begun = false;
  private readonly stops: Array<() => void> = [];

  get shuttingDown(): boolean {
    return this.begun;
  }

  /** `stop` runs once, synchronously, when the shutdown begins (at once if it already has): stop timers and claims there, wait elsewhere. */
  onShutdown(stop: () => void): void {
    if (this.begun) this.run(stop);
    else this.stops.push(stop);
  }

  /** Marks the shutdown (once) and runs every registered stop. */
  begin(): void {
    if (this.begun) return;
    this.begun = true;
    for (const stop of this.stops.splice(0)) this.run(stop);
  }

  private run(stop: () => void): void {
    try {
      stop();
    } catch (error) {
      this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'a background task failed to stop');
    }
  }
}
