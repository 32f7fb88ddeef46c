import { inspect } from 'node:util';
import { AccessTokenCache, ASSUMED_TOKEN_LIFETIME_SECONDS, refreshMarginMs } from './access-token-cache.js';
import type { GatewayBTokenGrant } from './gateway-b-wire.js';

describe('AccessTokenCache', () => {
  let now: number;
  const clock = { now: () => new Date(now) };
  let grants: Array<{ resolve: (grant: GatewayBTokenGrant) => void; reject: (error: Error) => void }>;
  const requestGrant = jest.fn(() => new Promise<GatewayBTokenGrant>((resolve, reject) => grants.push({ resolve, reject })));
  const grant = (accessToken: string, expiresIn = 32_400): GatewayBTokenGrant => ({ accessToken, expiresIn, scopes: ['openid'] });
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  /** One millisecond later the cached token is due: the next caller waits for a second grant, T2. */
  const expectRenewalOneMsLater = async (cache: AccessTokenCache) => {
    now += 1;
    const next = cache.token();
    await settle();
    expect(requestGrant).toHaveBeenCalledTimes(2);
    grants[1].resolve(grant('T2'));
    expect(await next).toBe('T2');
  };

  beforeEach(() => {
    now = Date.UTC(2026, 10, 25, 10);
    grants = [];
    requestGrant.mockClear();
  });

  it('shares one request among concurrent callers and caches the token until shortly before expiry', async () => {
    const cache = new AccessTokenCache(requestGrant, clock);
    const callers = [cache.token(), cache.token(), cache.token()];
    await settle();
    expect(requestGrant).toHaveBeenCalledTimes(1);
    now += 2000; // the answer takes two seconds: expiry counts from when the request was sent
    grants[0].resolve(grant('T1', 3600));
    expect(await Promise.all(callers)).toEqual(['T1', 'T1', 'T1']);
    now += 3600_000 - 2000 - refreshMarginMs(3600_000) - 1;
    expect(await cache.token()).toBe('T1');
    expect(requestGrant).toHaveBeenCalledTimes(1);
    await expectRenewalOneMsLater(cache);
  });

  it('refreshes a minute early for long-lived tokens, a tenth of the lifetime for short ones', () => {
    expect(refreshMarginMs(32_400_000)).toBe(60_000);
    expect(refreshMarginMs(300_000)).toBe(30_000);
    expect(refreshMarginMs(1000)).toBe(100);
  });

  it('hands a failure to every waiting caller and does not cache it', async () => {
    const cache = new AccessTokenCache(requestGrant, clock);
    const callers = [cache.token(), cache.token()];
    await settle();
    grants[0].reject(new Error('refused'));
    await expect(Promise.all(callers)).rejects.toThrow('refused');
    const retry = cache.token();
    await settle();
    expect(requestGrant).toHaveBeenCalledTimes(2);
    grants[1].resolve(grant('T3'));
    expect(await retry).toBe('T3');
  });

  it('invalidates only the token that was refused, so a newer one survives a late 401', async () => {
    const cache = new AccessTokenCache(requestGrant, clock);
    const first = cache.token();
    await settle();
    grants[0].resolve(grant('OLD'));
    await first;
    cache.invalidate('OLD');
    const second = cache.token();
    await settle();
    grants[1].resolve(grant('NEW'));
    expect(await second).toBe('NEW');
    cache.invalidate('OLD'); // a slower caller's 401 with the old token
    expect(await cache.token()).toBe('NEW');
    expect(requestGrant).toHaveBeenCalledTimes(2);
  });

  it('refresh() asks for a token now and reports it without the token; inspect() shows no token', async () => {
    const cache = new AccessTokenCache(requestGrant, clock);
    const info = cache.refresh();
    await settle();
    grants[0].resolve(grant('SECRET-TOKEN', 100));
    expect(await info).toEqual({ scopes: ['openid'], expiresAt: new Date(now + 100_000) });
    expect(await cache.token()).toBe('SECRET-TOKEN');
    expect(inspect(cache, { depth: 5, showHidden: true })).not.toContain('SECRET-TOKEN');
  });

  it('assumes a five-minute lifetime for a grant without expires_in, and says so', async () => {
    expect(ASSUMED_TOKEN_LIFETIME_SECONDS).toBe(300);
    const cache = new AccessTokenCache(requestGrant, clock);
    const info = cache.refresh();
    await settle();
    grants[0].resolve({ accessToken: 'T1', scopes: ['openid'] });
    expect(await info).toEqual({ scopes: ['openid'], expiresAt: new Date(now + 300_000), lifetimeAssumed: true });
    now += 300_000 - refreshMarginMs(300_000) - 1; // renewed 30 s before the assumed end
    expect(await cache.token()).toBe('T1');
    await expectRenewalOneMsLater(cache);
  });
});
