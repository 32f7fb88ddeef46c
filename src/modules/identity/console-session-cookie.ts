import type { CookieOptions, Request } from 'express';
import { CONSOLE_SESSION_COOKIE } from '../../common/auth/index.js';

/** A session token: 32 random bytes, base64url. Anything else in the cookie is ignored unread. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The session token from the request's `Cookie` header, or null. With several cookies of that
 * name (another path's, or one planted by a sibling host) the first well-formed one is taken, the
 * most specific path as browsers order them; a planted one fails the nonce check, it grants nothing.
 */
export function readSessionToken(request: Pick<Request, 'headers'>): string | null {
  const header = request.headers.cookie;
  if (!header) return null;
  for (const pair of header.split(';')) {
    const separator = pair.indexOf('=');
    if (separator === -1 || pair.slice(0, separator).trim() !== CONSOLE_SESSION_COOKIE) continue;
    const value = pair.slice(separator + 1).trim();
    if (TOKEN.test(value)) return value;
  }
  return null;
}

/**
 * The cookie's attributes: HttpOnly, SameSite=Strict (no cross-site request carries it), only
 * under the REST namespace (the hosted payment page, /docs and the console's files never get it),
 * Secure when the browser reached the service over HTTPS.
 */
export function sessionCookieOptions(path: string, secure: boolean, maxAgeSeconds?: number): CookieOptions {
  return {
    httpOnly: true,
    sameSite: 'strict',
    secure,
    path,
    ...(maxAgeSeconds === undefined ? {} : { maxAge: maxAgeSeconds * 1000 }),
  };
}
