import type { Request } from 'express';

/**
 * Browsers say where a request comes from: `Sec-Fetch-Site` (every current browser) and `Origin`
 * (on every cross-origin request and on same-origin POST/PUT/DELETE). Admin routes authenticate
 * with HTTP Basic, which a browser may have cached and attaches to a request any page starts, so a
 * page on another site could make the admin's browser change settings or charge cards (a form
 * POST needs no CORS preflight, and admin routes accept form-encoded bodies). The policy:
 *
 * - `Origin` present: it must be the service's own origin (PUBLIC_BASE_URL's, or the origin the
 *   request was addressed to) or one of CORS_ORIGINS. `Origin: null` (sandboxed frames, opaque
 *   redirects, `file:` pages) is never allowed. An own origin combined with a cross-site or
 *   same-site `Sec-Fetch-Site` is contradictory and refused too.
 * - no `Origin`: `Sec-Fetch-Site: cross-site` or `same-site` is refused (cross-site navigations and
 *   subresource GETs carry no Origin); `same-origin`, `none` (typed URL, bookmark) or no header at
 *   all (curl, servers, SDKs) pass.
 *
 * An origin listed in CORS_ORIGINS is trusted by configuration: its pages' requests are
 * cross-site by nature, so `Sec-Fetch-Site` is not held against them.
 */
export type CrossSiteVerdict = { allowed: true } | { allowed: false; reason: 'origin_not_allowed' | 'cross_site_fetch' };

const CROSS_SITE_FETCH = new Set(['cross-site', 'same-site']);

export class CrossSitePolicy {
  private readonly ownOrigin: string;
  private readonly allowedOrigins: ReadonlySet<string>;

  constructor(publicBaseUrl: string, corsOrigins: readonly string[]) {
    this.ownOrigin = new URL(publicBaseUrl).origin;
    this.allowedOrigins = new Set(corsOrigins);
  }

  check(request: Pick<Request, 'headers' | 'protocol' | 'host'>): CrossSiteVerdict {
    const origin = single(request.headers.origin);
    const fetchSite = single(request.headers['sec-fetch-site'])?.toLowerCase();
    const crossSiteFetch = fetchSite !== undefined && CROSS_SITE_FETCH.has(fetchSite);
    if (origin !== undefined) {
      if (this.allowedOrigins.has(origin)) return { allowed: true };
      if (origin !== this.ownOrigin && origin !== addressedOrigin(request)) return { allowed: false, reason: 'origin_not_allowed' };
      return crossSiteFetch ? { allowed: false, reason: 'cross_site_fetch' } : { allowed: true };
    }
    return crossSiteFetch ? { allowed: false, reason: 'cross_site_fetch' } : { allowed: true };
  }
}

/** Repeated headers arrive as one comma-joined string (Origin) or an array; either way, take it whole. */
function single(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(',') : value;
}

/** The origin the request was sent to: its scheme (X-Forwarded-Proto only behind TRUST_PROXY) and Host. */
function addressedOrigin(request: Pick<Request, 'protocol' | 'host'>): string | null {
  if (!request.host) return null;
  try {
    return new URL(`${request.protocol}://${request.host}`).origin;
  } catch {
    return null;
  }
}
