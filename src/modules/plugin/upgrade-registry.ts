import { Injectable } from '@nestjs/common';

export interface UpgradeRoutine {
  /** The release that introduces this routine; it runs when upgrading past it. */
  version: string;
  name: string;
  run(): Promise<void>;
}

/**
 * Modules register the routines that bring stored data up to a release (e.g. the gateway module's
 * in-place webhook update for 1.5.3). The plugin service runs them in release order.
 */
@Injectable()
export class UpgradeRegistry {
  private readonly routines: UpgradeRoutine[] = [];

  register(routine: UpgradeRoutine): void {
    this.routines.push(routine);
  }

  routinesFor(version: string): UpgradeRoutine[] {
    return this.routines.filter((routine) => routine.version === version);
  }
}
