import type { BrowserLibraryCsp } from './payment-gateway.port.js';

/** A stand-in library (tests, a demo) gets exactly its own origin, which the page allows for any library: nothing more. */
export const STAND_IN_LIBRARY_CSP: BrowserLibraryCsp = { script: [], connect: [], frame: [], img: [], styleNonce: false, styleAttributes: false };

/**
 * The CSP a hosted checkout's browser library gets: the provider's guidance (`providerCsp`) when
 * `libraryUrl` is served from one of the provider's origins, else STAND_IN_LIBRARY_CSP.
 */
export function libraryCsp(libraryUrl: string, providerOrigins: readonly string[], providerCsp: BrowserLibraryCsp): BrowserLibraryCsp {
  return providerOrigins.includes(new URL(libraryUrl).origin) ? providerCsp : STAND_IN_LIBRARY_CSP;
}
