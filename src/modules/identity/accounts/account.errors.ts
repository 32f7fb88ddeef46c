import { DomainError, InvalidParamsError } from '../../../common/errors/index.js';

/**
 * A login, application password or account password that does not match, or a login that does
 * not exist: one answer for all (401 `rest_not_logged_in`), so it never tells which logins exist.
 */
export class IncorrectCredentialsError extends DomainError {
  constructor() {
    super('rest_not_logged_in', 401, 'Incorrect login or password.');
  }
}

/** The password was right and the user has two-factor sign-in on: send a code with `challenge`. */
export class TwoFactorRequiredError extends DomainError {
  constructor(challenge: string, expiresAt: Date) {
    super('checkout_two_factor_required', 401, 'Enter the code from your authenticator app.', { challenge, expires_at: expiresAt.toISOString() });
  }
}

/** The code of the two-factor step did not match (the challenge stays usable, a few tries at most). */
export class TwoFactorCodeError extends DomainError {
  constructor() {
    super('checkout_two_factor_invalid', 401, 'That code is not valid. Enter the current code from your authenticator app, or a recovery code.');
  }
}

/** The two-factor challenge is unknown, used, expired or was tried too often: sign in again. */
export class TwoFactorChallengeExpiredError extends DomainError {
  constructor() {
    super('checkout_two_factor_expired', 401, 'This sign-in has expired. Sign in again.');
  }
}

/** A set-password link that is unknown, used, expired, or (a setup link) no longer needed. */
export class AccountTokenInvalidError extends DomainError {
  constructor() {
    super('checkout_token_invalid', 400, 'This link is invalid, was already used or has expired. Ask for a new one.');
  }
}

export function passwordLengthError(field: string): InvalidParamsError {
  return new InvalidParamsError({ [field]: `${field} must be 12 to 256 characters long` });
}
