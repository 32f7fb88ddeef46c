import { createSigningIdentity } from './self-signed-cert';

// The fake's certificate is built by hand in DER; OpenSSL parses only the shortest encoding of
// each INTEGER, so the serials that would break a naive encoder are pinned here.
describe('createSigningIdentity', () => {
  it.each([
    ['a leading zero byte', Buffer.from('0001020304050607', 'hex')],
    ['several leading zero bytes and then a high bit', Buffer.from('000000ff01', 'hex')],
    ['the top bit set', Buffer.from('ff00112233445566', 'hex')],
    ['zero', Buffer.from('0000', 'hex')],
  ])('builds a certificate Node parses for a serial with %s', (_label, serial) => {
    const identity = createSigningIdentity('fake', 30, new Date('2026-11-26T00:00:00Z'), serial);
    expect(identity.certificate.verify(identity.publicKey)).toBe(true);
    expect(BigInt(`0x${identity.certificate.serialNumber}`)).toBe(BigInt(`0x${serial.toString('hex')}`));
  });
});
