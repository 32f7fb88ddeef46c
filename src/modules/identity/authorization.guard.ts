import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ROUTE_AUTH, type AuthenticatedRequest, type AuthenticatedUser, type RouteAuth } from '../../common/auth/index.js';
import { ForbiddenError, NotLoggedInError, RateLimitedError } from '../../common/errors/index.js';
import { clientKey } from '../../common/rate-limit/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { CrossSitePolicy } from './cross-site-policy.js';
import { FailedLoginLimiter } from './failed-login-limiter.js';
import { CrossSiteRequestError } from './identity.errors.js';
import { IdentityService } from './identity.service.js';

/**
 * The global authorisation guard. A handler without a declaration is refused (fail closed);
 * admin routes refuse requests a page of another site started (403 `rest_cross_site_request`,
 * see CrossSitePolicy), then need HTTP Basic with an application password and the declared
 * capability. The cross-site check comes first, so such requests never reach the failed-login
 * count. Public, payment-reference and signature routes are checked by their own pipes and services.
 */
@Injectable()
export class AuthorizationGuard implements CanActivate {
  private readonly crossSite: CrossSitePolicy;

  constructor(
    private readonly reflector: Reflector,
    private readonly identity: IdentityService,
    private readonly failedLogins: FailedLoginLimiter,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.crossSite = new CrossSitePolicy(config.publicBaseUrl, config.corsOrigins);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const auth = this.reflector.getAllAndOverride<RouteAuth | undefined>(ROUTE_AUTH, [context.getHandler(), context.getClass()]);
    if (!auth) throw new ForbiddenError('This route declares no authorisation.');
    if (auth.kind !== 'admin') return true;

    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const crossSite = this.crossSite.check(request);
    if (!crossSite.allowed) throw new CrossSiteRequestError(crossSite.reason);
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
