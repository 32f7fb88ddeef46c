import { Injectable } from '@nestjs/common';
import { RateLimitedError } from '../../common/errors/index.js';
import { clientKey } from '../../common/rate-limit/index.js';
import { IncorrectCredentialsError } from './accounts/account.errors.js';
import { AccountService } from './accounts/account.service.js';
import { FailedLoginLimiter } from './failed-login-limiter.js';
import { IdentityService, type VerifiedCredentials } from './identity.service.js';
import type { UserEntity } from './user.entity.js';

/** Credentials the console's sign-in accepted: the user, and the application password used (null: the account password). */
export interface ConsoleCredentials {
  userId: number;
  applicationPasswordId: number | null;
}

/**
 * Checks credentials under the failed-login limit: HTTP Basic on admin routes (application
 * passwords only) and the console's sign-in (an application password or the account password), its
 * two-factor step and the password checks of the account screen all come through here, so they
 * share one count per client (the payment limits' key) and answer a mismatch the same way (401
 * `rest_not_logged_in` "Incorrect login or password.", the same for an unknown login). A blocked
 * client gets 429 before any password is checked.
 */
@Injectable()
export class PasswordCheck {
  constructor(
    private readonly identity: IdentityService,
    private readonly accounts: AccountService,
    private readonly failedLogins: FailedLoginLimiter,
  ) {}

  /** HTTP Basic: an application password (a memory-hard hash per request would cost too much, and would let scripts skip two-factor). */
  async verify(login: string, password: string, ip: string | undefined): Promise<VerifiedCredentials> {
    const verified = await this.limited(ip, () => this.identity.verifyCredentials(login, password, ip ?? 'unknown'));
    if (!verified) throw new IncorrectCredentialsError();
    return verified;
  }

  /**
   * The console's sign-in: an application password (a keyed hash, checked first) or the account
   * password (scrypt; a login without one, or unknown, still costs one scrypt check).
   */
  async verifyConsole(login: string, password: string, ip: string | undefined): Promise<ConsoleCredentials> {
    const verified = await this.limited(ip, async (): Promise<ConsoleCredentials | null> => {
      const application = await this.identity.verifyCredentials(login, password, ip ?? 'unknown');
      if (application) return { userId: application.user.id, applicationPasswordId: application.applicationPasswordId };
      const user = await this.accounts.checkAccountPassword(login, password);
      return user ? { userId: user.id, applicationPasswordId: null } : null;
    });
    if (!verified) throw new IncorrectCredentialsError();
    return verified;
  }

  /** A signed-in user's account password again (change password, two-factor changes): true when it matches. */
  async confirmPassword(user: UserEntity, password: string, ip: string | undefined): Promise<boolean> {
    return (await this.limited(ip, async () => ((await this.accounts.passwordMatches(user, password)) ? true : null))) === true;
  }

  /**
   * Runs `check` as one password check of the client's: refused with 429 while the client is
   * blocked; a null answer counts as a failure.
   */
  async limited<T>(ip: string | undefined, check: () => Promise<T | null>): Promise<T | null> {
    const client = clientKey(ip);
    const retryAfter = await this.failedLogins.acquire(client);
    if (retryAfter > 0) throw new RateLimitedError(retryAfter);
    try {
      const result = await check();
      if (result === null) await this.failedLogins.recordFailure(client);
      return result;
    } finally {
      this.failedLogins.release(client);
    }
  }
}
