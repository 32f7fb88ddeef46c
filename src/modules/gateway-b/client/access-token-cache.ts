import type { GatewayBTokenGrant } from './gateway-b-wire.js';

/** The time source (the gateways module's `Clock` fits). */
export interface GatewayBClock {
  now(): Date;
}

/** What the cache knows of its token, without the token. */
export interface GatewayBTokenInfo {
  scopes: string[];
  /** When PayPal said it expires (counted from when the request was sent), or the assumed expiry. */
  expiresAt: Date;
  /** True when the answer carried no `expires_in` and `expiresAt` is ASSUMED_TOKEN_LIFETIME_SECONDS away. */
  lifetimeAssumed?: true;
}

/**
 * The lifetime assumed for a token whose answer has no `expires_in` (RFC 6749 §5.1 only
 * recommends it): five minutes. Short on purpose: PayPal's tokens live about nine hours, so
 * assuming five minutes costs at most one token request per five minutes and client, while
 * assuming longer than the real lifetime would cost a refused call (answered 401, then made
 * again with a fresh token) each time the guess is wrong.
 */
export const ASSUMED_TOKEN_LIFETIME_SECONDS = 300;

interface Cached {
  token: string;
  info: GatewayBTokenInfo;
  /** Shortly before `expiresAt`: from then on a new token is requested. */
  refreshAt: number;
}

/** Refresh this long before expiry: a tenth of the lifetime, at most a minute. */
export function refreshMarginMs(lifetimeMs: number): number {
  return Math.min(60_000, Math.floor(lifetimeMs / 10));
}

/**
 * The OAuth2 client-credentials token of one client id: cached until shortly before it expires,
 * one request at a time (concurrent callers share the request in flight, and its failure), and
 * dropped when an API call answers 401 with it. The token lives in a private field so that
 * logging or inspecting the object does not print it.
 */
export class AccessTokenCache {
  #current?: Cached;
  #pending?: Promise<Cached>;

  constructor(
    private readonly requestGrant: () => Promise<GatewayBTokenGrant>,
    private readonly clock: GatewayBClock,
  ) {}

  /** A token that is not about to expire: the cached one, the one being requested, or a new one. */
  async token(): Promise<string> {
    const current = this.#current;
    if (current && this.clock.now().getTime() < current.refreshAt) return current.token;
    return (await this.request()).token;
  }

  /** Asks PayPal for a token now (shared with concurrent callers) and caches it. */
  async refresh(): Promise<GatewayBTokenInfo> {
    this.#current = undefined;
    return (await this.request()).info;
  }

  /** Forgets `token` if it is still the cached one (an API call answered 401 with it). */
  invalidate(token: string): void {
    if (this.#current?.token === token) this.#current = undefined;
  }

  private request(): Promise<Cached> {
    if (!this.#pending) {
      const sentAt = this.clock.now().getTime();
      const pending = this.requestGrant().then((grant) => {
        const lifetimeMs = (grant.expiresIn ?? ASSUMED_TOKEN_LIFETIME_SECONDS) * 1000;
        const cached: Cached = {
          token: grant.accessToken,
          info: { scopes: grant.scopes, expiresAt: new Date(sentAt + lifetimeMs), ...(grant.expiresIn === undefined ? { lifetimeAssumed: true as const } : {}) },
          refreshAt: sentAt + lifetimeMs - refreshMarginMs(lifetimeMs),
        };
        this.#current = cached;
        return cached;
      });
      this.#pending = pending;
      const clear = () => {
        if (this.#pending === pending) this.#pending = undefined;
      };
      pending.then(clear, clear);
    }
    return this.#pending;
  }
}
