import { rawMemberValue } from '../../../../test/fakes/gateway-b/index.js';
import { postbackBody, readEventBytes, readTransmissionHeaders } from './webhook-postback.js';

const headers = {
  'paypal-auth-algo': 'SHA256withRSA',
  'paypal-cert-url': 'https://api.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-a5cafa77',
  'paypal-transmission-id': 'd938e770-8046-11e6-8103-6b62a8a99ac4',
  'paypal-transmission-sig': 'eDOnWUj9FXOnr2naQnrdL7bhgejVSTwRbwbJ0kuk5wAtm2ZYkr7w5BSUDO7e5ZOsqLwN3sPn3RV85Jd9pjHuTlpuXDLYk+l5qiViPbaaC0tLV+8C/zbDjg2WCfvtf2NmFT8CHgPPQAByUqiiTY+RJZPPQC5np7j7WuxcegsJLeWStRAofsDLiSKrzYV3CKZYtNoNnRvYmSFMkYp/5vk4xGcQLeYNV1CC2PyqraZj8HGG6Y+KV4trhreV9VZDn+rPtLDZTbzUohie1LpEy31k2dg+1szpWaGYOz+MRb40U04oD7fD69vghCrDTYs5AsuFM2+WZtsMDmYGI0pxLjn2yw==',
  'paypal-transmission-time': '2016-09-21T22:00:46Z',
};

describe('readTransmissionHeaders', () => {
  it('reads the five headers from Express-style records in any case, and from Headers', () => {
    const upper = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
    for (const source of [headers, upper, new Headers(headers)]) {
      expect(readTransmissionHeaders(source)).toEqual({
        ok: true,
        fields: {
          auth_algo: 'SHA256withRSA',
          cert_url: headers['paypal-cert-url'],
          transmission_id: headers['paypal-transmission-id'],
          transmission_sig: headers['paypal-transmission-sig'],
          transmission_time: '2016-09-21T22:00:46Z',
        },
      });
    }
  });

  it('requires every header once and non-empty, and names the missing ones', () => {
    const { 'paypal-transmission-sig': _sig, ...withoutSig } = headers;
    expect(readTransmissionHeaders(withoutSig)).toEqual({ ok: false, reason: 'missing_headers', headers: ['paypal-transmission-sig'] });
    expect(readTransmissionHeaders({ ...headers, 'paypal-cert-url': '  ', 'paypal-auth-algo': undefined })).toMatchObject({ headers: ['paypal-auth-algo', 'paypal-cert-url'] });
    expect(readTransmissionHeaders({ ...headers, 'paypal-transmission-id': ['a1', 'b2'] })).toMatchObject({ reason: 'missing_headers', headers: ['paypal-transmission-id'] });
    expect(readTransmissionHeaders({})).toMatchObject({ reason: 'missing_headers', headers: expect.arrayContaining(['paypal-auth-algo']) });
  });

  it.each([
    ['paypal-transmission-id', '123456'],
    ['paypal-transmission-time', 'yesterday'],
    ['paypal-cert-url', 'file:///etc/passwd'],
    ['paypal-auth-algo', 'SHA256 with RSA'],
    ['paypal-transmission-sig', 'x'.repeat(501)],
  ])('refuses a malformed %s', (name, value) => {
    expect(readTransmissionHeaders({ ...headers, [name]: value })).toEqual({ ok: false, reason: 'invalid_headers', headers: [name] });
  });
});

describe('readEventBytes', () => {
  const event = '{"id":"WH-1","event_type":"PAYMENT.CAPTURE.COMPLETED","resource":{"id":"C1"}}';

  it('keeps the bytes as received and parses the envelope', () => {
    const buffer = Buffer.from(`xx${event}yy`).subarray(2, 2 + event.length);
    const read = readEventBytes(buffer);
    expect(read?.bytes.equals(Buffer.from(event))).toBe(true);
    expect(read?.event).toEqual({ id: 'WH-1', event_type: 'PAYMENT.CAPTURE.COMPLETED', resource: { id: 'C1' } });
    expect(readEventBytes(new Uint8Array(Buffer.from(event)))?.bytes.toString()).toBe(event);
    expect(readEventBytes(event)?.event.id).toBe('WH-1');
  });

  it.each([
    ['not JSON', Buffer.from('{"id":')],
    ['invalid UTF-8', Buffer.concat([Buffer.from('{"id":"WH-1","event_type":"X","resource":{},"s":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')])],
    ['a byte order mark', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(event)])],
    ['an array', Buffer.from(`[${event}]`)],
    ['no resource', Buffer.from('{"id":"WH-1","event_type":"X"}')],
    ['no event type', Buffer.from('{"id":"WH-1","resource":{}}')],
  ])('refuses %s', (_what, bytes) => {
    expect(readEventBytes(bytes)).toBeUndefined();
  });
});

describe('postbackBody', () => {
  it('is JSON carrying the event bytes verbatim as webhook_event', () => {
    const pretty = Buffer.from('{\n  "id": "WH-1",\n  "summary": "Paiement re\\u00e7u \\/ 1.0",\n  "event_type": "X",\n  "resource": { "amount": 1.0 }\n}');
    const fields = readTransmissionHeaders(headers);
    if (!fields.ok) throw new Error('headers');
    const body = postbackBody(fields.fields, 'WEBHOOK1', pretty);
    expect(JSON.parse(body.toString())).toMatchObject({ auth_algo: 'SHA256withRSA', webhook_id: 'WEBHOOK1', transmission_time: '2016-09-21T22:00:46Z', webhook_event: { id: 'WH-1' } });
    expect(rawMemberValue(body, 'webhook_event')?.equals(pretty)).toBe(true);
    // what re-serialising would have sent instead
    expect(Buffer.from(JSON.stringify(JSON.parse(pretty.toString()))).equals(pretty)).toBe(false);
  });
});
