import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ROUTE_AUTH, type AuthenticatedRequest, type AuthenticatedUser, type RouteAuth } from '../../common/auth/index.js';
import { ForbiddenError, NotLoggedInError, RateLimitedError } from '../../common/errors/index.js';
import { clientKey } from '../../common/rate-limit/index.js';
import { FailedLoginLimiter } from './failed-login-limiter.js';
import { IdentityService } from './identity.service.js';

/**
 * The global authorisation guard. A handler without a declaration is refused (fail closed);
 * admin routes need HTTP Basic with an application password and the declared capability.
 * Public, payment-reference and signature routes are checked by their own pipes and services.
 */
@Injectable()
export class AuthorizationGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly identity: IdentityService,
    private readonly failedLogins: FailedLoginLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const auth = this.reflector.getAllAndOverride<RouteAuth | undefined>(ROUTE_AUTH, [context.getHandler(), context.getClass()]);
    if (!auth) throw new ForbiddenError('This route declares no authorisation.');
    if (auth.kind !== 'admin') return true;

    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const credentials = parseBasic(request.headers.authorization);
    if (!credentials) throw new NotLoggedInError();

    const ip = request.ip ?? 'unknown';
    const client = clientKey(request.ip);
    const retryAfter = await this.failedLogins.acquire(client);
    if (retryAfter > 0) throw new RateLimitedError(retryAfter);

    let user: AuthenticatedUser | null;
    try {
      user = await this.identity.authenticate(credentials.login, credentials.password, ip);
      if (!user) await this.failedLogins.recordFailure(client);
    } finally {
      this.failedLogins.release(client);
    }
    if (!user) throw new NotLoggedInError();
    request.user = user;
    if (!user.capabilities.has(auth.capability)) throw new ForbiddenError();
    return true;
  }
}

function parseBasic(header: string | undefined): { login: string; password: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const separator = decoded.indexOf(':');
  if (separator <= 0 || decoded.length > 512) return null;
  return { login: decoded.slice(0, separator), password: decoded.slice(separator + 1) };
}
