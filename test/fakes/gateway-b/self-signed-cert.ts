import { generateKeyPairSync, type KeyObject, randomBytes, sign, X509Certificate } from 'node:crypto';

/**
 * A minimal X.509 v3 certificate builder (DER by hand): Node can parse and verify certificates
 * but not create them, and the fake must serve a certificate for its own signing key at its
 * `PAYPAL-CERT-URL` as PayPal does. The certificate is self-signed with SHA256withRSA.
 */
export interface SigningIdentity {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** PEM, as PayPal serves it at the cert URL. */
  certificatePem: string;
  certificate: X509Certificate;
}

export function createSigningIdentity(
  commonName: string,
  validDays = 3650,
  now = new Date(),
  serialBytes: Buffer = randomBytes(16),
): SigningIdentity {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const algorithm = seq(oid('1.2.840.113549.1.1.11'), nul()); // sha256WithRSAEncryption
  const name = seq(set(seq(oid('2.5.4.3'), utf8(commonName))), set(seq(oid('2.5.4.10'), utf8('Checkout fake gateway B'))));
  const serial = serialBytes;
  const notBefore = new Date(now.getTime() - 24 * 3600 * 1000);
  const notAfter = new Date(now.getTime() + validDays * 24 * 3600 * 1000);
  const keyUsage = seq(oid('2.5.29.15'), tlv(0x01, Buffer.from([0xff])), tlv(0x04, tlv(0x03, Buffer.from([0x07, 0x80])))); // critical, digitalSignature
  const tbs = seq(
    tlv(0xa0, int(Buffer.from([2]))), // v3
    int(serial), // a positive INTEGER in its shortest form
    algorithm,
    name,
    seq(time(notBefore), time(notAfter)),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    tlv(0xa3, seq(keyUsage)),
  );
  const signature = sign('sha256', tbs, privateKey);
  const der = seq(tbs, algorithm, tlv(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const certificatePem = `-----BEGIN CERTIFICATE-----\n${der.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n$/, '')}\n-----END CERTIFICATE-----\n`;
  return { privateKey, publicKey, certificatePem, certificate: new X509Certificate(der) };
}

// --- DER ------------------------------------------------------------------------------------------

function tlv(tag: number, ...contents: Buffer[]): Buffer {
  const body = Buffer.concat(contents);
  const length = body.length;
  let header: Buffer;
  if (length < 0x80) header = Buffer.from([tag, length]);
  else if (length < 0x100) header = Buffer.from([tag, 0x81, length]);
  else if (length < 0x10000) header = Buffer.from([tag, 0x82, length >> 8, length & 0xff]);
  else header = Buffer.from([tag, 0x83, length >> 16, (length >> 8) & 0xff, length & 0xff]);
  return Buffer.concat([header, body]);
}

const seq = (...items: Buffer[]) => tlv(0x30, ...items);
const set = (...items: Buffer[]) => tlv(0x31, ...items);
const nul = () => Buffer.from([0x05, 0x00]);
const utf8 = (text: string) => tlv(0x0c, Buffer.from(text, 'utf8'));

/**
 * A non-negative INTEGER in DER: leading zero bytes dropped (OpenSSL refuses a non-minimal
 * encoding, which a random serial starting 0x00 would otherwise be once in 256 runs), and one
 * zero byte added back when the top bit is set so the value stays positive.
 */
function int(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const minimal = bytes.subarray(start);
  return tlv(0x02, minimal[0] & 0x80 ? Buffer.concat([Buffer.from([0]), minimal]) : minimal);
}

function oid(dotted: string): Buffer {
  const parts = dotted.split('.').map(Number);
  const bytes = [parts[0] * 40 + parts[1]];
  for (const part of parts.slice(2)) {
    const chunk = [part & 0x7f];
    for (let rest = part >> 7; rest > 0; rest >>= 7) chunk.unshift((rest & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** UTCTime before 2050, GeneralizedTime from then on (RFC 5280 §4.1.2.5). */
function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14); // YYYYMMDDHHMMSS
  return date.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`, 'ascii')) : tlv(0x18, Buffer.from(`${iso}Z`, 'ascii'));
}
