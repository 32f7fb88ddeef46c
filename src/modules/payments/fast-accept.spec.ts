import 'reflect-metadata';
import type { ArgumentMetadata } from '@nestjs/common';
import { acceptValid, createValidationPipe } from '../../common/validation/index.js';
import { MAX_INT } from './checkout-choice.dto.js';
import { PaymentReferenceDto } from './payment-reference.dto.js';
import { readPaymentReference } from './payment-reference.reader.js';
import { PaymentStatusRequestDto } from './payment-status.dto.js';
import { MAX_TOKEN_LENGTH } from './payment-tokens.js';
import { SyncDetailsDto } from './sync-details.dto.js';

/**
 * Differential test of the validation fast path (acceptValid): the global pipe and the payment
 * reference reader run over a generated corpus with and without it, and every outcome must be the
 * same: the DTO instance (class, own keys in order, values) or the error (code, status, message,
 * data with its params in order). It also checks that the fast path really accepts the valid
 * bodies, so a fast path that never fires cannot pass.
 */

const ints: unknown[] = [0, 1, -1, 2, 99, 100, 1000, MAX_INT, MAX_INT + 1, -0, 1.5, 1e308, -1e308, 2 ** 53, Number.MAX_SAFE_INTEGER + 2, NaN, Infinity, -Infinity];
const intStrings: unknown[] = ['1', '12', ' 12 ', '-1', '0', '1.0', '1e3', '', '2147483648', '0x10', '٣', '99', '100'];
const strings: unknown[] = [
  'ccard', '', ' ', 'a'.repeat(40), 'a'.repeat(41), '😀'.repeat(40), '😀'.repeat(41), 'é'.repeat(40), 'e\u0301'.repeat(21), '\u0000', '\uFE0F'.repeat(45),
  'x'.repeat(128), 'x'.repeat(129), 't'.repeat(MAX_TOKEN_LENGTH), 't'.repeat(MAX_TOKEN_LENGTH + 1), '  padded  ', '\t\n', 'Ω≈ç√',
];
const currencies: unknown[] = ['USD', 'usd', 'Usd', 'US', 'USDD', 'ＵＳＤ', 'ßss', 'ﬀa', ' USD', 'EUR', 'eur', '123', 'ǆǆǆ', 'ıso'];
const gateways: unknown[] = ['gateway_a', 'gateway_b', 'gateway_c', 'GATEWAY_A', 'gateway_a ', ''];
const emails: unknown[] = [
  'payer@example.com', '', '   ', ' payer@example.com ', 'not-an-email', 'a@b', `${'x'.repeat(245)}@example.com`, `${'x'.repeat(64)}@example.com`,
  `${'x'.repeat(65)}@example.com`, 'ü@exämple.com', 'payer@[127.0.0.1]', '"quoted"@example.com', 'payer@example.com\n',
];
const names: unknown[] = ['Pat', '', '  ', ' Pat ', 'p'.repeat(100), 'p'.repeat(101), ` ${'p'.repeat(100)} `, '😀'.repeat(100), 'Ω'];
const junk: unknown[] = [null, true, false, [], [1], {}, { a: { b: [1, { c: null }] } }, '{}', 1, 0, -1, 'x'];
const customFields: unknown[] = [
  {}, { note: 'hi' }, { note: 1, ok: true }, { Note: 'x' }, { constructor: 'x' }, { note: {} }, { note: 'x'.repeat(501) }, { note: null },
  Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`f${i}`, 'v'])), { ['a'.repeat(41)]: 'x' }, { note: Infinity }, { toString: 'x' },
];

type Pools = Record<string, unknown[]>;
const reference: Pools = {
  form_id: [...ints, ...intStrings],
  payment_gateway: gateways,
  payment_method: strings,
  payment_id: [...ints, ...intStrings],
  payment_secret: strings,
  checkout_token: strings,
  amount: [...ints, ...intStrings],
  currency: [...currencies, ...strings],
};
const sync: Pools = {
  form_id: reference.form_id,
  payment_gateway: gateways,
  payment_method: strings,
  payment_id: reference.payment_id,
  payment_secret: strings,
  plan_index: [...ints, ...intStrings],
  price_index: [...ints, ...intStrings],
  amount: reference.amount,
  email_address: emails,
  first_name: names,
  last_name: names,
  custom_fields: customFields,
};

const validReference = {
  payment_id: 12, payment_secret: 's'.repeat(43), checkout_token: 't'.repeat(300), amount: 1000, currency: 'USD', form_id: 1, payment_gateway: 'gateway_a', payment_method: 'ccard',
};
const validSyncs = [
  { form_id: 1, payment_gateway: 'gateway_a', payment_method: 'ccard', plan_index: 0, price_index: 0, email_address: 'payer@example.com' },
  { form_id: 7, payment_gateway: 'gateway_b', payment_method: 'standard_checkout' },
  { form_id: 3, payment_gateway: 'gateway_a', payment_method: 'ccard', payment_id: 5, payment_secret: 'secret', amount: 500, first_name: 'Pat', last_name: 'Payer' },
];

/** Deterministic pseudo-random numbers (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Valid bodies, each field replaced by every value of its pool and of the junk pool, each field left out, extra keys, and random mixes. */
function corpus(valid: Array<Record<string, unknown>>, pools: Pools, seed: number, mixes: number): Array<Record<string, unknown>> {
  const bodies: Array<Record<string, unknown>> = [];
  const all = [...new Set(Object.values(pools).flat()), ...junk];
  for (const base of valid) {
    bodies.push({ ...base }, { ...base, junk_field: 1 }, { ...base, nested: { deep: [{}] } }, JSON.parse(`${JSON.stringify(base).slice(0, -1)},"__proto__":{"x":1}}`));
    for (const [field, pool] of Object.entries(pools)) {
      const { [field]: _left, ...without } = base;
      bodies.push(without);
      for (const value of [...pool, ...junk]) bodies.push({ ...base, [field]: value });
    }
    // Keys in another order (the instance keeps the body's order).
    bodies.push(Object.fromEntries(Object.entries(base).reverse()));
  }
  const next = random(seed);
  const pick = <T>(items: T[]): T => items[Math.floor(next() * items.length)];
  for (let i = 0; i < mixes; i++) {
    const base = pick(valid);
    const body: Record<string, unknown> = {};
    for (const field of Object.keys(pools)) {
      const roll = next();
      if (roll < 0.55 && field in base) body[field] = base[field];
      else if (roll < 0.75) body[field] = pick(pools[field]);
      else if (roll < 0.8) body[field] = pick(all);
      else if (roll < 0.85) body[field] = pick(junk);
    }
    if (next() < 0.1) body[`extra_${i % 3}`] = pick(all);
    bodies.push(body);
  }
  return bodies;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

async function settle(run: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    return { ok: false, error };
  }
}

/** A comparable description: the instance's class and own entries in order, or the error's class, code, status, message and data (order kept). */
function describeOutcome(outcome: Outcome): unknown {
  if (outcome.ok) {
    const value = outcome.value as Record<string, unknown>;
    return { class: Object.getPrototypeOf(value)?.constructor?.name, entries: Object.keys(value).map((key) => [key, typeof value[key], Object.is(value[key], -0) ? '-0' : value[key]]) };
  }
  const error = outcome.error as { name?: string; code?: string; status?: number; message?: string; data?: unknown };
  return { class: error.constructor?.name, code: error.code, status: error.status, message: error.message, data: JSON.stringify(error.data) };
}

/** A deep copy in this realm (structuredClone's objects have another Object.prototype under Jest), keeping own `__proto__` keys. */
function copy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copy);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, copy(item)]));
  return value;
}
const clone = (body: Record<string, unknown>) => copy(body) as Record<string, unknown>;
const bodyOf = (dto: ArgumentMetadata['metatype']): ArgumentMetadata => ({ type: 'body', metatype: dto, data: undefined });

describe('validation fast path (acceptValid) against class-transformer + class-validator', () => {
  const fastPipe = createValidationPipe();
  const slowPipe = createValidationPipe({ fastAccept: false });

  it.each([
    ['PaymentStatusRequestDto', PaymentStatusRequestDto, [validReference], reference, 11],
    ['SyncDetailsDto', SyncDetailsDto, validSyncs, sync, 12],
  ] as const)('the global pipe answers the same with and without it: %s', async (_name, type, valid, pools, seed) => {
    const dto = type as new () => object;
    const bodies = corpus(valid as unknown as Array<Record<string, unknown>>, pools, seed, 3000);
    let accepted = 0;
    let rejected = 0;
    const missed: unknown[] = [];
    for (const body of bodies) {
      const slow = await settle(() => slowPipe.transform(clone(body), bodyOf(dto)));
      const fast = await settle(() => fastPipe.transform(clone(body), bodyOf(dto)));
      expect({ body, outcome: describeOutcome(fast) }).toEqual({ body, outcome: describeOutcome(slow) });
      const taken = acceptValid(dto, clone(body)) !== undefined;
      if (taken) accepted += 1;
      if (!slow.ok) rejected += 1;
      // Every valid body of strings, numbers and booleans only is taken by the fast path.
      if (slow.ok && !taken && Object.values(body).every((value) => ['string', 'number', 'boolean'].includes(typeof value))) missed.push(body);
    }
    expect(missed).toEqual([]);
    // Both sides of the corpus are well represented.
    expect(accepted).toBeGreaterThan(150);
    expect(rejected).toBeGreaterThan(bodies.length / 3);
    for (const body of valid) expect(acceptValid(dto, clone(body))).toBeInstanceOf(dto);
  });

  it('the payment reference guard reads the same reference or error with and without it', async () => {
    const bodies = corpus([validReference, { ...validReference, ...validSyncs[0] }], { ...reference, plan_index: sync.plan_index }, 13, 3000);
    let accepted = 0;
    for (const body of [...bodies, null, [], 'x', 5] as unknown[]) {
      const slow = await settle(() => readPaymentReference(copy(body), { fast: false }));
      const fast = await settle(() => readPaymentReference(copy(body)));
      expect({ body, outcome: describeOutcome(fast) }).toEqual({ body, outcome: describeOutcome(slow) });
      if (slow.ok) accepted += 1;
    }
    expect(accepted).toBeGreaterThan(bodies.length / 10);
    expect(acceptValid(PaymentReferenceDto, { ...validReference })).toBeInstanceOf(PaymentReferenceDto);
  });

  it('leaves to the libraries what it does not model: nested values, unknown keys, unmarked DTOs', () => {
    expect(acceptValid(PaymentStatusRequestDto, { ...validReference })).toBeInstanceOf(PaymentStatusRequestDto);
    // The DTO's own @Transform functions run: a form-encoded '12' is the number 12, as class-transformer makes it.
    expect(acceptValid(PaymentStatusRequestDto, { ...validReference, payment_id: '12' })?.payment_id).toBe(12);
    expect(acceptValid(PaymentStatusRequestDto, { ...validReference, junk: 1 })).toBeUndefined();
    expect(acceptValid(SyncDetailsDto, { ...validSyncs[0], custom_fields: { note: 'x' } })).toBeUndefined();
    class Unmarked {}
    expect(acceptValid(Unmarked, {})).toBeUndefined();
  });
});
