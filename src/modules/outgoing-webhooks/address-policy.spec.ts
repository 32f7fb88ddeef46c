import { isPublicAddress, RefusedAddressError, resolveAllowed } from './address-policy.js';

describe('isPublicAddress', () => {
  it.each([
    ['loopback', '127.0.0.1'],
    ['loopback (other)', '127.255.0.9'],
    ['IPv6 loopback', '::1'],
    ['private 10/8', '10.1.2.3'],
    ['private 172.16/12', '172.31.255.1'],
    ['private 192.168/16', '192.168.0.10'],
    ['link-local / cloud metadata', '169.254.169.254'],
    ['unique-local fc00::/7', 'fd12:3456::1'],
    ['unique-local fc00::/7 (fc)', 'fc00::1'],
    ['IPv6 link-local fe80::/10', 'fe80::1'],
    ['0.0.0.0/8', '0.1.2.3'],
    ['unspecified', '0.0.0.0'],
    ['IPv6 unspecified', '::'],
    ['carrier-grade NAT 100.64/10', '100.100.1.1'],
    ['benchmarking 198.18/15', '198.19.255.255'],
    ['multicast', '224.0.0.1'],
    ['IPv6 multicast', 'ff02::1'],
    ['broadcast', '255.255.255.255'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['IPv4-mapped metadata', '::ffff:169.254.169.254'],
    ['IPv4-mapped private (hex)', '::ffff:a00:1'],
    ['IPv4-compatible loopback', '::127.0.0.1'],
    ['NAT64 of a private address', '64:ff9b::a00:1'],
    ['6to4', '2002:a00:1::1'],
    ['not an address', 'example.com'],
  ])('refuses %s (%s)', (_name, address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.216.34', '8.8.8.8', '100.63.255.255', '198.20.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('accepts the public address %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('resolveAllowed', () => {
  it('answers the address it checked for a name with public addresses only', async () => {
    await expect(resolveAllowed('hooks.example.com', false, async () => [{ address: '93.184.216.34', family: 4 }])).resolves.toEqual({ address: '93.184.216.34', family: 4 });
  });

  it('refuses a name with any internal address among its answers', async () => {
    const resolve = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.5', family: 4 },
    ];
    await expect(resolveAllowed('rebind.example.com', false, resolve)).rejects.toBeInstanceOf(RefusedAddressError);
  });

  it('refuses literal internal addresses, bracketed IPv6 included, without a lookup', async () => {
    const resolve = jest.fn();
    await expect(resolveAllowed('127.0.0.1', false, resolve)).rejects.toBeInstanceOf(RefusedAddressError);
    await expect(resolveAllowed('[::ffff:169.254.169.254]', false, resolve)).rejects.toBeInstanceOf(RefusedAddressError);
    expect(resolve).not.toHaveBeenCalled();
  });

  it('refuses a name that does not resolve', async () => {
    await expect(resolveAllowed('nowhere.invalid', false, async () => { throw new Error('ENOTFOUND'); })).rejects.toBeInstanceOf(RefusedAddressError);
  });

  it('accepts internal addresses when private ones are allowed (development, tests)', async () => {
    await expect(resolveAllowed('127.0.0.1', true)).resolves.toEqual({ address: '127.0.0.1', family: 4 });
  });
});
