import { ConflictError, DomainError, InvalidParamsError, NotFoundError } from '../../common/errors/index.js';

export class UserNotFoundError extends NotFoundError {
  constructor() {
    super('User');
  }
}

export class UserExistsError extends ConflictError {
  constructor() {
    super('checkout_user_exists', 'A user with that login already exists.');
  }
}

export class UserEmailExistsError extends ConflictError {
  constructor() {
    super('checkout_user_exists', 'A user with that email address already exists.');
  }
}

/** Demoting or deleting the last administrator would leave nobody who can manage the team (409). */
export class LastAdministratorError extends ConflictError {
  constructor() {
    super('checkout_last_administrator', 'The last administrator cannot be demoted or deleted; make another user an administrator first.');
  }
}

export class ApplicationPasswordNotFoundError extends NotFoundError {
  constructor() {
    super('Application password');
  }
}

export class UnknownRoleError extends InvalidParamsError {
  constructor() {
    super({ role: 'role must be an existing role' });
  }
}

/**
 * An admin request carrying a browser's cross-site signals (docs/decisions.md §14); see CrossSitePolicy.
 * `data.reason` (`origin_not_allowed` or `cross_site_fetch`) helps an operator tell a missing
 * CORS_ORIGINS entry or PUBLIC_BASE_URL from a cross-site page.
 */
export class CrossSiteRequestError extends DomainError {
  constructor(reason: 'origin_not_allowed' | 'cross_site_fetch') {
    super('rest_cross_site_request', 403, 'Admin routes do not accept requests started by pages of other sites.', { reason });
  }
}

/**
 * A console session cookie came with a nonce that is not its own (the host platform's answer to a
 * failed cookie check). Nothing was done. A cookie with no nonce at all is no credential (401).
 */
export class InvalidNonceError extends DomainError {
  constructor() {
    super('rest_cookie_invalid_nonce', 403, 'Cookie check failed.');
  }
}
