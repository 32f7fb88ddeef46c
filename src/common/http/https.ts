import type { Request } from 'express';

/**
 * HTTPS as the browser sees it: the request's own scheme (`X-Forwarded-Proto` when `TRUST_PROXY`
 * trusts the proxy in front) or an `https://` `PUBLIC_BASE_URL` (a TLS-terminating proxy the
 * service is not told to trust). The one rule for `Secure` cookies and `Strict-Transport-Security`.
 */
export function servedOverHttps(req: Pick<Request, 'secure'>, publicBaseUrl: string): boolean {
  return req.secure || publicBaseUrl.startsWith('https:');
}
