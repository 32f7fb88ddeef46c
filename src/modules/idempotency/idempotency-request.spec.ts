import { DomainError } from '../../common/errors/index.js';
import { canonicalJson, idempotencyKeyOf, requestHash } from './idempotency-request.js';

describe('idempotencyKeyOf', () => {
  it('answers null without the header and the key when it is 1 to 255 visible ASCII characters', () => {
    expect(idempotencyKeyOf(undefined)).toBeNull();
    expect(idempotencyKeyOf('7d3c1a2e-8f4b-4c2d-9e1f-0a1b2c3d4e5f')).toBe('7d3c1a2e-8f4b-4c2d-9e1f-0a1b2c3d4e5f');
    expect(idempotencyKeyOf('!~')).toBe('!~');
    expect(idempotencyKeyOf('k'.repeat(255))).toBe('k'.repeat(255));
  });

  it.each([
    ['empty', ''],
    ['too long', 'k'.repeat(256)],
    ['a space', 'two words'],
    ['a tab', 'a\tb'],
    ['a control character', 'a\u0001b'],
    ['non-ASCII', 'clé'],
    ['sent twice', ['a', 'b']],
  ])('refuses %s with 400 naming the header', (_why, header) => {
    let error: unknown;
    try {
      idempotencyKeyOf(header);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'rest_invalid_param', status: 400, data: { params: { 'Idempotency-Key': expect.stringContaining('Idempotency-Key must be') } } });
  });
});

describe('requestHash', () => {
  it('ignores key order and absent fields at every depth', () => {
    const a = { form_id: 1, payment_gateway: 'gateway_a', custom_fields: { size: 'M', company: 'ACME' }, first_name: undefined };
    const b = { custom_fields: { company: 'ACME', size: 'M' }, payment_gateway: 'gateway_a', form_id: 1 };
    expect(canonicalJson(a)).toBe('{"custom_fields":{"company":"ACME","size":"M"},"form_id":1,"payment_gateway":"gateway_a"}');
    expect(requestHash(a)).toBe(requestHash(b));
    expect(requestHash(a)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('tells values, types and array order apart', () => {
    const base = requestHash({ form_id: 1, amount: 1000, list: [1, 2] });
    expect(requestHash({ form_id: 1, amount: 1001, list: [1, 2] })).not.toBe(base);
    expect(requestHash({ form_id: 1, amount: '1000', list: [1, 2] })).not.toBe(base);
    expect(requestHash({ form_id: 1, amount: 1000, list: [2, 1] })).not.toBe(base);
    expect(requestHash({ form_id: 1, amount: 1000, list: [1, 2], email_address: '' })).not.toBe(base);
  });

  it('hashes a class instance like the plain object of its fields', () => {
    class Dto {
      form_id = 1;
      payment_method = 'ccard';
    }
    expect(requestHash(new Dto())).toBe(requestHash({ payment_method: 'ccard', form_id: 1 }));
  });
});
