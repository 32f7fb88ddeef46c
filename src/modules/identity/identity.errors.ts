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

export class UnknownRoleError extends InvalidParamsError {
  constructor() {
    super({ role: 'role must be an existing role' });
  }
}

/** An admin request carrying a browser's cross-site signals (decisions §14); see CrossSitePolicy. */
export class CrossSiteRequestError extends DomainError {
  constructor() {
    super('rest_cross_site_request', 403, 'Admin routes do not accept requests started by pages of other sites.');
  }
}
