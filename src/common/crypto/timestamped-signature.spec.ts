import { createHmac } from 'node:crypto';
import Stripe from 'stripe';
import { type SignatureFailure, verifyTimestampedSignature } from './timestamped-signature.js';

const secret = 'whsec_unitTestSigningSecret0001';
const body = Buffer.from('{"id":"evt_1","object":"event","type":"payment_intent.succeeded"}', 'utf8');
const t = 1_764_115_700;
const nowMs = t * 1000;
const sign = (payload: Buffer | string, timestamp = t, key = secret) =>
  createHmac('sha256', key).update(`${timestamp}.`).update(payload).digest('hex');
const good = sign(body);

/** The scheme of gateway A's webhooks (checked against its SDK below) and of section B's Checkout-Signature. */
describe('verifyTimestampedSignature', () => {
  const valid: Array<[string, string, number?]> = [
    ['a single v1 signature', `t=${t},v1=${good}`],
    ['several v1 entries, one of them right (secret roll)', `t=${t},v1=${'0'.repeat(64)},v1=${good}`],
    ['other schemes next to v1 (ignored)', `t=${t},v0=deadbeef,v1=${good}`],
    ['spaces around entries', ` t=${t} , v1=${good} `],
    ['upper-case hex', `t=${t},v1=${good.toUpperCase()}`],
    ['a timestamp 300 s old (edge of tolerance)', `t=${t - 300},v1=${sign(body, t - 300)}`],
    ['a timestamp 300 s ahead (edge of tolerance)', `t=${t + 300},v1=${sign(body, t + 300)}`],
  ];
  it.each(valid)('accepts %s', (_name, header) => {
    expect(verifyTimestampedSignature(body, header, secret, 300, nowMs)).toEqual({ valid: true, timestamp: expect.any(Number) });
  });

  const refused: Array<[string, string | undefined, SignatureFailure, string?]> = [
    ['no header', undefined, 'missing_header'],
    ['an empty header', '', 'missing_header'],
    ['a header without timestamp', `v1=${good}`, 'malformed_header'],
    ['a non-numeric timestamp', `t=abc,v1=${good}`, 'malformed_header'],
    ['two timestamps', `t=${t},t=${t},v1=${good}`, 'malformed_header'],
    ['an entry without "="', `t=${t},${good}`, 'malformed_header'],
    ['only a v0 signature', `t=${t},v0=${good}`, 'no_signature'],
    ['a stale timestamp (301 s old)', `t=${t - 301},v1=${sign(body, t - 301)}`, 'stale_timestamp'],
    ['a future timestamp (301 s ahead)', `t=${t + 301},v1=${sign(body, t + 301)}`, 'future_timestamp'],
    ['a signature made with another secret', `t=${t},v1=${sign(body, t, 'whsec_someoneElse')}`, 'mismatch'],
    ['a signature of another body', `t=${t},v1=${sign(Buffer.from('{}'))}`, 'mismatch'],
    ['a signature for another timestamp', `t=${t},v1=${sign(body, t - 1)}`, 'mismatch'],
    ['a truncated signature (length check)', `t=${t},v1=${good.slice(0, 62)}`, 'mismatch'],
    ['a longer signature (length check)', `t=${t},v1=${good}00`, 'mismatch'],
    ['a non-hex signature', `t=${t},v1=${'z'.repeat(64)}`, 'mismatch'],
    ['an oversized header', `t=${t},v1=${'a'.repeat(5000)}`, 'malformed_header'],
    ['too many signatures', `t=${t},${Array.from({ length: 17 }, () => `v1=${good}`).join(',')}`, 'malformed_header'],
  ];
  it.each(refused)('refuses %s', (_name, header, reason) => {
    expect(verifyTimestampedSignature(body, header, secret, 300, nowMs)).toEqual({ valid: false, reason });
  });

  it('refuses everything when no secret is configured', () => {
    expect(verifyTimestampedSignature(body, `t=${t},v1=${good}`, null, 300, nowMs)).toEqual({ valid: false, reason: 'missing_secret' });
    expect(verifyTimestampedSignature(body, `t=${t},v1=${good}`, '', 300, nowMs)).toEqual({ valid: false, reason: 'missing_secret' });
  });

  it('verifies on the raw bytes, not a re-serialisation', () => {
    const pretty = Buffer.from('{\n  "id": "evt_1"\n}');
    const header = `t=${t},v1=${sign(pretty)}`;
    expect(verifyTimestampedSignature(pretty, header, secret, 300, nowMs).valid).toBe(true);
    expect(verifyTimestampedSignature(Buffer.from(JSON.stringify(JSON.parse(pretty.toString()))), header, secret, 300, nowMs).valid).toBe(false);
  });

  it('agrees with the SDK: headers it generates pass, and its tolerance window matches', () => {
    const payload = body.toString('utf8');
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: t });
    expect(verifyTimestampedSignature(body, header, secret, 300, nowMs).valid).toBe(true);
    expect(() => Stripe.webhooks.constructEvent(payload, header, secret, 300, undefined, nowMs + 301_000)).toThrow();
    expect(verifyTimestampedSignature(body, header, secret, 300, nowMs + 301_000)).toEqual({ valid: false, reason: 'stale_timestamp' });
  });
});
