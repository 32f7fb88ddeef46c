import { normalizeIp } from '@nestjs/throttler';

/** IPv6 clients are counted per /64: one subscriber line or host usually holds a whole /64. */
export const IPV6_CLIENT_PREFIX = 64;

/**
 * The one client key of every per-client limit (payment rate limits and failed admin logins):
 * the client IP as Express resolved it (`req.ip`, which honours TRUST_PROXY), with IPv4-mapped
 * IPv6 (`::ffff:1.2.3.4`) turned into the IPv4 address and any other IPv6 address cut to its /64
 * (`2001:db8:1:2::/64`). Without it, one host could rotate through the 2^64 addresses of its own
 * network, or switch between the two spellings of its IPv4 address, to get a fresh budget.
 */
export function clientKey(ip: string | undefined): string {
  if (!ip) return 'unknown';
  return normalizeIp(ip, IPV6_CLIENT_PREFIX) || 'unknown';
}
