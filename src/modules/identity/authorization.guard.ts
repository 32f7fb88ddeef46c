import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ADMIN_CAPABILITY, QUERY_NONCE_PARAM, ROUTE_AUTH, type AuthenticatedRequest, type AuthenticatedUser, type RouteAuth } from '../../common/auth/index.js';
import { ForbiddenError, NotLoggedInError } from '../../common/errors/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { ConsoleSessionService } from './console-session.service.js';
import { CrossSitePolicy } from './cross-site-policy.js';
import { CrossSiteRequestError, InvalidNonceError } from './identity.errors.js';
import { PasswordCheck } from './password-check.js';

type AdminAuth = Extract<RouteAuth, { kind: 'admin' }>;

/**
 * The global authorisation guard. A handler without a declaration is refused (fail closed);
 * admin routes refuse requests a page of another site started (403 `rest_cross_site_request`,
 * see CrossSitePolicy), then need credentials, `checkout_settings` and the route's finer capability
 * (`mayUse`):
 *
 * - HTTP Basic with an application password (API clients), checked under the failed-login limit.
 *   The cross-site check comes first, so such requests never reach the failed-login count.
 * - otherwise the admin console's session cookie (of several, the one the nonce is for), which counts only with the session's nonce in
 *   `X-WP-Nonce` (or `_wpnonce` in the query of a GET/HEAD route declared `nonceInQuery`): a browser
 *   attaches the cookie to any request to this origin, so the cookie alone shows no intent. No
 *   nonce is no credential (401); a nonce that is not the session's is 403
 *   `rest_cookie_invalid_nonce`. Cookie requests must also be same-origin: CORS_ORIGINS are trusted
 *   with Basic, never with the cookie.
 *
 * The console's own session routes (`console_session`) get the same-origin check only; their
 * handler reads the cookie. Public, payment-reference and signature routes are checked by their
 * own pipes and services.
 */
@Injectable()
export class AuthorizationGuard implements CanActivate {
  private readonly crossSite: CrossSitePolicy;
  /** The check for cookie requests: the service's own origin only. */
  private readonly sameOrigin: CrossSitePolicy;

  constructor(
    private readonly reflector: Reflector,
    private readonly passwordCheck: PasswordCheck,
    private readonly sessions: ConsoleSessionService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.crossSite = new CrossSitePolicy(config.publicBaseUrl, config.corsOrigins);
    this.sameOrigin = new CrossSitePolicy(config.publicBaseUrl, []);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const auth = this.reflector.getAllAndOverride<RouteAuth | undefined>(ROUTE_AUTH, [context.getHandler(), context.getClass()]);
    if (!auth) throw new ForbiddenError('This route declares no authorisation.');
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (auth.kind === 'console_session') {
      this.requireSameOrigin(request);
      return true;
    }
    if (auth.kind !== 'admin') return true;

    const crossSite = this.crossSite.check(request);
    if (!crossSite.allowed) throw new CrossSiteRequestError(crossSite.reason);
    const user = request.headers.authorization !== undefined ? await this.basicUser(request) : await this.sessionUser(request, auth);
    request.user = user;
    if (!mayUse(user, auth)) throw new ForbiddenError();
    return true;
  }

  private async basicUser(request: AuthenticatedRequest): Promise<AuthenticatedUser> {
    const credentials = parseBasic(request.headers.authorization);
    if (!credentials) throw new NotLoggedInError();
    return (await this.passwordCheck.verify(credentials.login, credentials.password, request.ip)).user;
  }

  private async sessionUser(request: AuthenticatedRequest, auth: AdminAuth): Promise<AuthenticatedUser> {
    const tokens = this.sessions.tokensOf(request);
    if (tokens.length === 0) throw new NotLoggedInError();
    this.requireSameOrigin(request);
    const nonce = presentedNonce(request, auth.nonceInQuery === true);
    if (nonce === undefined) throw new NotLoggedInError();
    // Several cookies of the name (one planted beside the real one): the nonce picks its own.
    const token = this.sessions.tokenForNonce(tokens, nonce);
    if (!token) throw new InvalidNonceError();
    const session = await this.sessions.resolve(token);
    if (!session) throw new NotLoggedInError();
    return session.user;
  }

  private requireSameOrigin(request: AuthenticatedRequest): void {
    const verdict = this.sameOrigin.check(request);
    if (!verdict.allowed) throw new CrossSiteRequestError(verdict.reason);
  }
}

/**
 * The interface's admin capability and the route's finer one (any one of its list): both, always.
 * A declaration naming nothing finer grants nothing (RouteInventory also refuses it at boot).
 */
export function mayUse(user: Pick<AuthenticatedUser, 'capabilities'>, auth: Pick<AdminAuth, 'capabilities'>): boolean {
  return user.capabilities.has(ADMIN_CAPABILITY) && auth.capabilities.length > 0 && auth.capabilities.some((capability) => user.capabilities.has(capability));
}

/**
 * The console session's nonce as the request presents it: the `X-WP-Nonce` header, or on a route
 * that allows it, `_wpnonce` in the query of a GET or HEAD (a frame or a link cannot set headers).
 */
export function presentedNonce(request: Pick<AuthenticatedRequest, 'headers' | 'method'> & { query?: unknown }, queryAllowed: boolean): string | undefined {
  const header = request.headers['x-wp-nonce'];
  if (typeof header === 'string' && header !== '') return header;
  if (!queryAllowed || (request.method !== 'GET' && request.method !== 'HEAD')) return undefined;
  const fromQuery = (request.query as Record<string, unknown> | undefined)?.[QUERY_NONCE_PARAM];
  return typeof fromQuery === 'string' && fromQuery !== '' ? fromQuery : undefined;
}

function parseBasic(header: string | undefined): { login: string; password: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const separator = decoded.indexOf(':');
  if (separator <= 0 || decoded.length > 512) return null;
  return { login: decoded.slice(0, separator), password: decoded.slice(separator + 1) };
}
