import { base32Decode, base32Encode, hotp, matchTotp, otpauthUri, totpStep } from './totp.js';

describe('TOTP (RFC 6238)', () => {
  // RFC 6238 Appendix B: the seeds are ASCII "12345678901234567890" repeated to the hash's key size.
  const sha1 = Buffer.from('12345678901234567890');
  const sha256 = Buffer.from('12345678901234567890123456789012');
  const sha512 = Buffer.from('1234567890123456789012345678901234567890123456789012345678901234');
  const vectors: Array<[number, string, string, string]> = [
    [59, '94287082', '46119246', '90693936'],
    [1111111109, '07081804', '68084774', '25091201'],
    [1111111111, '14050471', '67062674', '99943326'],
    [1234567890, '89005924', '91819424', '93441116'],
    [2000000000, '69279037', '90698825', '38618901'],
    [20000000000, '65353130', '77737706', '47863826'],
  ];

  it.each(vectors)('at %i s gives the RFC test values', (seconds, expected1, expected256, expected512) => {
    const step = totpStep(seconds * 1000);
    expect(hotp(sha1, step, 8, 'sha1')).toBe(expected1);
    expect(hotp(sha256, step, 8, 'sha256')).toBe(expected256);
    expect(hotp(sha512, step, 8, 'sha512')).toBe(expected512);
  });

  it('gives the RFC 4226 HOTP values for counters 0 to 9', () => {
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
    expect(expected.map((_, counter) => hotp(sha1, counter))).toEqual(expected);
  });

  it('round-trips base32 (RFC 4648 test vectors)', () => {
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Decode('MZXW6YTBOI').toString()).toBe('foobar');
    expect(base32Decode(base32Encode(sha1))).toEqual(sha1);
  });

  it('accepts the code of the current step and its neighbours, once', () => {
    const secret = base32Encode(sha1);
    const now = 1111111111_000;
    const step = totpStep(now);
    const code = hotp(sha1, step);
    expect(matchTotp(secret, code, now, null)).toBe(step);
    expect(matchTotp(secret, hotp(sha1, step - 1), now, null)).toBe(step - 1);
    expect(matchTotp(secret, hotp(sha1, step + 2), now, null)).toBeNull();
    // Used already: that step and the ones before it are refused.
    expect(matchTotp(secret, code, now, step)).toBeNull();
    expect(matchTotp(secret, 'abcdef', now, null)).toBeNull();
  });

  it('makes the otpauth URI an authenticator reads', () => {
    expect(otpauthUri('Checkout', 'admin', 'JBSWY3DPEHPK3PXP')).toBe(
      'otpauth://totp/Checkout:admin?secret=JBSWY3DPEHPK3PXP&issuer=Checkout&algorithm=SHA1&digits=6&period=30',
    );
  });
});
