import { ConflictError, InvalidParamsError, NotFoundError } from '../../common/errors/index.js';

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
