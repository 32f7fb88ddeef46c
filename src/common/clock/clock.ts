import { Injectable } from '@nestjs/common';

/**
 * The time source of gateway state expiry, task backoff, leases and webhook receipts. Tests replace
 * `now` to move time without fake timers stalling the HTTP server and the database driver.
 */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}
