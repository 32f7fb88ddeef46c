import { createHmac } from 'node:crypto';
import { signatureHeader } from './event-signature.js';

describe('signatureHeader', () => {
  it('signs "t.body" with each secret, the current one first, as gateway A does', () => {
    const body = '{"id":1}';
    const expected = (secret: string) => createHmac('sha256', secret).update(`1700000000.${body}`).digest('hex');
    expect(signatureHeader(body, ['whsec_new', 'whsec_old'], 1_700_000_000)).toBe(`t=1700000000,v1=${expected('whsec_new')},v1=${expected('whsec_old')}`);
  });
});
