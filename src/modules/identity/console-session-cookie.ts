import type { CookieOptions, Request } from 'express';
import { CONSOLE_SESSION_COOKIE } from '../../common/auth/index.js';

/** A session token: 32 random bytes, base64url. Anything else in the cookie is ignored unread. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The cookie's name behind HTTPS. A browser accepts a `__Host-` cookie only from this very host,
 * over HTTPS, with `Path=/` and no `Domain`: a sibling subdomain (or a network attacker on plain
 * HTTP) cannot plant one, so the console's cookie cannot be shadowed.
 */
export const HOST_SESSION_COOKIE = `__Host-${CONSOLE_SESSION_COOKIE}`;

/**
 * Session tokens a request carries; the session routes and the guard take the one the nonce
 * matches (the nonce is an HMAC of its own token), so cookies planted beside it grant nothing and
 * shadow nothing. Bounded: a request carries a handful at most, more are ignored.
 */
export const MAX_SESSION_COOKIES = 8;

/** The console session cookie as this request's browser gets it: its name and attributes. */
export interface SessionCookie {
  name: string;
  options: CookieOptions;
}

/**
 * Behind HTTPS: `__Host-checkout_console_session`, `Path=/`, `Secure` (the prefix requires both; the
 * cookie then also reaches `/pay` and `/admin/`, where nothing reads it). On plain HTTP (a local
 * install) the prefix is impossible: `checkout_console_session` scoped to the REST namespace.
 * Always HttpOnly and SameSite=Strict, host-only (no Domain).
 */
export function sessionCookie(secure: boolean, restPath: string, maxAgeSeconds?: number): SessionCookie {
  return {
    name: secure ? HOST_SESSION_COOKIE : CONSOLE_SESSION_COOKIE,
    options: {
      httpOnly: true,
      sameSite: 'strict',
      secure,
      path: secure ? '/' : restPath,
      ...(maxAgeSeconds === undefined ? {} : { maxAge: maxAgeSeconds * 1000 }),
    },
  };
}

/**
 * The well-formed session tokens of the request's `Cookie` header under `name`, in the browser's
 * order (most specific path first), without repeats, at most MAX_SESSION_COOKIES.
 */
export function readSessionTokens(request: Pick<Request, 'headers'>, name: string): string[] {
  const header = request.headers.cookie;
  if (!header) return [];
  const tokens: string[] = [];
  for (const pair of header.split(';')) {
    const separator = pair.indexOf('=');
    if (separator === -1 || pair.slice(0, separator).trim() !== name) continue;
    const value = pair.slice(separator + 1).trim();
    if (TOKEN.test(value) && !tokens.includes(value)) tokens.push(value);
    if (tokens.length === MAX_SESSION_COOKIES) break;
  }
  return tokens;
}
