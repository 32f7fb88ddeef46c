import { Injectable } from '@nestjs/common';
import { NotLoggedInError, RateLimitedError } from '../../common/errors/index.js';
import { clientKey } from '../../common/rate-limit/index.js';
import { FailedLoginLimiter } from './failed-login-limiter.js';
import { IdentityService, type VerifiedCredentials } from './identity.service.js';

/**
 * Checks a login and application password under the failed-login limit: HTTP Basic on admin routes
 * and the console's sign-in both come through here, so they share one count per client (the
 * payment limits' key) and answer a wrong password the same way (401 `rest_not_logged_in`, the
 * same for an unknown login). A blocked client gets 429 before any password is checked.
 */
@Injectable()
export class PasswordCheck {
  constructor(
    private readonly identity: IdentityService,
    private readonly failedLogins: FailedLoginLimiter,
  ) {}

  async verify(login: string, password: string, ip: string | undefined): Promise<VerifiedCredentials> {
    const client = clientKey(ip);
    const retryAfter = await this.failedLogins.acquire(client);
    if (retryAfter > 0) throw new RateLimitedError(retryAfter);
    let verified: VerifiedCredentials | null;
    try {
      verified = await this.identity.verifyCredentials(login, password, ip ?? 'unknown');
      if (!verified) await this.failedLogins.recordFailure(client);
    } finally {
      this.failedLogins.release(client);
    }
    if (!verified) throw new NotLoggedInError();
    return verified;
  }
}
