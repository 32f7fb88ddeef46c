import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which addresses an outgoing webhook may reach (server-side request forgery). Only ipaddr.js's
 * `unicast` range is public; everything else is refused: loopback, private (10/8, 172.16/12,
 * 192.168/16), link-local (169.254/16, the cloud metadata address; fe80::/10), unique-local
 * (fc00::/7), 0.0.0.0/8, carrier-grade NAT (100.64/10), benchmarking (198.18/15), multicast,
 * broadcast, reserved and documentation ranges. An IPv4-mapped or -translated IPv6 address is
 * judged as the IPv4 address it carries.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (parsed.kind() === 'ipv4') {
    // ipaddr.js 1.x calls 100.64/10 "carrierGradeNat" and has no range for 198.18/15: checked here.
    if ((parsed as ipaddr.IPv4).match(ipaddr.IPv4.parse('198.18.0.0'), 15)) return false;
    return parsed.range() === 'unicast';
  }
  const v6 = parsed as ipaddr.IPv6;
  // 64:ff9b::/96 (NAT64) and 2002::/16 (6to4) carry an IPv4 address: refused rather than decoded.
  // ::/96 (IPv4-compatible, e.g. ::127.0.0.1) is also "unicast" to ipaddr.js 1.x.
  const carriesIpv4: Array<[string, number]> = [['64:ff9b::', 96], ['2002::', 16], ['::', 96]];
  if (carriesIpv4.some(([base, bits]) => v6.match(ipaddr.IPv6.parse(base), bits))) return false;
  return v6.range() === 'unicast';
}

export class RefusedAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedAddressError';
  }
}

export interface ResolvedTarget {
  address: string;
  family: 4 | 6;
}

export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * Resolves `hostname` once and answers the address to connect to: the first one, and only when
 * every address the name has is allowed (a name with one internal address among public ones is
 * refused: an attacker's DNS could answer that one next time). `allowPrivate` accepts any.
 */
export async function resolveAllowed(hostname: string, allowPrivate: boolean, resolve: Resolver = systemResolver): Promise<ResolvedTarget> {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  const literal = isIP(bare);
  let addresses: Array<{ address: string; family: number }>;
  if (literal) addresses = [{ address: bare, family: literal }];
  else {
    try {
      addresses = await resolve(bare);
    } catch {
      throw new RefusedAddressError(`the name ${bare} does not resolve`);
    }
  }
  if (addresses.length === 0) throw new RefusedAddressError(`the name ${bare} does not resolve`);
  if (!allowPrivate) {
    const internal = addresses.find((entry) => !isPublicAddress(entry.address));
    if (internal) throw new RefusedAddressError(`${bare} is or resolves to an internal address`);
  }
  const first = addresses[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
