import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/** The authenticated caller of an admin route, as set by the AuthorizationGuard. */
export interface AuthenticatedUser {
  id: number;
  login: string;
  role: string;
  capabilities: ReadonlySet<string>;
}

export type AuthenticatedRequest = Request & { user?: AuthenticatedUser };

export const CurrentUser = createParamDecorator((_data: unknown, context: ExecutionContext): AuthenticatedUser | undefined => {
  return context.switchToHttp().getRequest<AuthenticatedRequest>().user;
});
