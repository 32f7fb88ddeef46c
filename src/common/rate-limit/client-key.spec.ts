import { clientKey } from './client-key.js';

describe('clientKey', () => {
  it.each([
    ['1.2.3.4', '1.2.3.4'],
    ['::ffff:1.2.3.4', '1.2.3.4'],
    ['::FFFF:1.2.3.4', '1.2.3.4'],
    ['::ffff:102:304', '1.2.3.4'],
    ['2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:DB8:1:2:ffff::9', '2001:db8:1:2::/64'],
    ['fe80::1%eth0', 'fe80::/64'],
    ['::1', '::1'],
    ['', 'unknown'],
    [undefined, 'unknown'],
  ])('keys %s as %s', (ip, key) => {
    expect(clientKey(ip)).toBe(key);
  });

  it('gives every address of one /64 the same key and the next /64 another', () => {
    const keys = new Set(Array.from({ length: 30 }, (_, i) => clientKey(`2001:db8:0:7:${i.toString(16)}::${i + 1}`)));
    expect([...keys]).toEqual(['2001:db8:0:7::/64']);
    expect(clientKey('2001:db8:0:8::1')).not.toBe(clientKey('2001:db8:0:7::1'));
  });
});
