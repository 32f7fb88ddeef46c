import request from 'supertest';
import { gatewayAOption } from '../../src/modules/gateway-a/index.js';
import { gatewayOption, GatewayStateService } from '../../src/modules/gateways/index.js';
import { OptionsService } from '../../src/modules/settings/index.js';
import { PaymentLedgerService, PaymentQueriesService } from '../../src/modules/payments/index.js';
import type { PaymentForm } from '../../src/modules/forms/index.js';
import { expectWpError } from '../support/http.js';
import { connectGateway, createPaymentForm, disconnectGateway, referenceOf, type SyncAnswer } from '../support/payment-fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** Everything but Date keeps running for real: the database drivers and supertest need timers. */
const ONLY_DATE: Parameters<typeof jest.useFakeTimers>[0] = {
  doNotFake: [
    'hrtime', 'nextTick', 'performance', 'queueMicrotask', 'requestAnimationFrame', 'cancelAnimationFrame', 'requestIdleCallback',
    'cancelIdleCallback', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout',
  ],
};

describe('payment records (public checkout)', () => {
  let t: TestApp;
  let form: PaymentForm;
  let payments: PaymentLedgerService;
  let table: { payments: string; log: string };

  beforeAll(async () => {
    // Limits have their own spec; here every request may come from one IP.
    t = await startTestApp({ RATE_LIMIT_NEW_PAYMENT: '10000', RATE_LIMIT_PUBLIC_PAYMENT: '10000' });
    payments = t.app.get(PaymentLedgerService);
    table = { payments: `${t.config.tablePrefix}checkout_payments`, log: `${t.config.tablePrefix}checkout_log` };
    await connectGateway(t, 'gateway_a', 'test');
    await connectGateway(t, 'gateway_b', 'test');
    form = await createPaymentForm(t);
  });
  afterAll(() => t.close());

  const sync = (body: object) => request(t.http).post(`${t.base}/payment/sync-details`).send(body);
  const status = (body: object) => request(t.http).post(`${t.base}/payment/status`).send(body);
  const create = async (body: object = {}): Promise<SyncAnswer> => {
    const res = await sync({ form_id: form.id, payment_gateway: 'gateway_a', payment_method: 'ccard', ...body });
    expect(res.status).toBe(201);
    return res.body as SyncAnswer;
  };
  const row = async (id: number) => {
    const [found] = await t.dataSource.query(`SELECT * FROM ${table.payments} WHERE id = ?`, [id]);
    return found as Record<string, unknown>;
  };
  const logOf = async (id: number) =>
    (await t.dataSource.query(`SELECT event, level, message, context FROM ${table.log} WHERE payment_id = ? ORDER BY id`, [id])) as Array<{
      event: string;
      level: string;
      message: string;
      context: string;
    }>;
  /** The whole state of both tables, to prove a refused request wrote nothing. */
  const snapshot = async () => ({
    payments: await t.dataSource.query(`SELECT * FROM ${table.payments} ORDER BY id`),
    log: await t.dataSource.query(`SELECT * FROM ${table.log} ORDER BY id`),
  });

  describe('POST /payment/sync-details: creation', () => {
    it('creates a pending record whose amount comes from the form, ignoring the browser amount', async () => {
      const res = await sync({ form_id: form.id, payment_gateway: 'gateway_a', payment_method: 'ccard', amount: 1, email_address: 'payer@example.test' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        payment_id: expect.any(Number),
        payment_secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        checkout_token: expect.stringMatching(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/),
        checkout_token_expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/),
        amount: 1000,
        currency: 'USD',
        setup_amount: null,
        mode: 'test',
        status: 'pending',
      });
      const expires = Date.parse(res.body.checkout_token_expires_at) - Date.now();
      expect(expires).toBeGreaterThan(3590_000);
      expect(expires).toBeLessThanOrEqual(3600_000);

      const stored = await row(res.body.payment_id);
      expect(stored).toEqual(
        expect.objectContaining({ form_id: form.id, gateway: 'gateway_a', payment_method: 'ccard', mode: 'test', status: 'pending', currency: 'USD', frequency: 'one-time', email_address: 'payer@example.test' }),
      );
      expect(Number(stored.amount)).toBe(1000);
      expect(stored.secret_nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
      // The secret is derived, never stored.
      expect(JSON.stringify(await t.dataSource.query(`SELECT * FROM ${table.payments}`))).not.toContain(res.body.payment_secret);
      expect((await logOf(res.body.payment_id)).map((entry) => entry.event)).toEqual(['payment_created']);
    });

    it('uses the chosen plan and price, in that price currency', async () => {
      expect(await create({ plan_index: 2, price_index: 0 })).toEqual(expect.objectContaining({ amount: 500, currency: 'JPY' }));
      const recurring = await create({ plan_index: 1, price_index: 1 });
      expect(recurring).toEqual(expect.objectContaining({ amount: 999, currency: 'EUR' }));
      expect((await row(recurring.payment_id)).frequency).toBe('m_1');
    });

    it('accepts a customer-entered amount only within the price bounds', async () => {
      expect((await create({ plan_index: 1, price_index: 0, amount: 5000 })).amount).toBe(5000);
      expect((await create({ plan_index: 1, price_index: 0, amount: 100 })).amount).toBe(100);
      expect((await create({ plan_index: 1, price_index: 0, amount: 1_000_000 })).amount).toBe(1_000_000);
      expect((await create({ plan_index: 1, price_index: 0 })).amount).toBe(2500);
      const before = await snapshot();
      for (const amount of [99, 1_000_001, 0]) {
        const res = await sync({ form_id: form.id, payment_gateway: 'gateway_a', payment_method: 'ccard', plan_index: 1, price_index: 0, amount });
        expect(res.status).toBe(400);
        expect(expectWpError(res.body, 'rest_invalid_param', 400).data.params).toEqual({ amount: expect.stringContaining('between 100 and 1000000') });
      }
      const fraction = await sync({ form_id: form.id, payment_gateway: 'gateway_a', payment_method: 'ccard', plan_index: 1, price_index: 0, amount: 10.5 });
      expect(fraction.status).toBe(400);
      expect(await snapshot()).toEqual(before);
    });

    it('refuses a plan or price the form does not have', async () => {
      const plan = await sync({ form_id: form.id, payment_gateway: 'gateway_a', payment_method: 'ccard', plan_index: 9 });
      expect(expectWpError(plan.body, 'rest_invalid_param', 400).data.params).toHaveProperty('plan_index');
      const price = await sync({ form_id: form.id, payment_gateway: 'gateway_a', payment_method: 'ccard', plan_index: 0, price_index: 3 });
      expect(expectWpError(price.body, 'rest_invalid_param', 400).data.params).toHaveProperty('price_index');
    });

    it('validates the payer fields', async () => {
      const base = { form_id: form.id, payment_gateway: 'gateway_a', payment_method: 'ccard' };
      const cases: Array<[object, string]> = [
        [{ email_address: 'not-an-email' }, 'email_address'],
        [{ email_address: `${'a'.repeat(250)}@example.test` }, 'email_address'],
        [{ first_name: 'x'.repeat(101) }, 'first_name'],
        [{ last_name: 'x'.repeat(101) }, 'last_name'],
        [{ first_name: 42 }, 'first_name'],
        [{ payment_gateway: 'gateway_z' }, 'payment_gateway'],
        [{ form_id: 'abc' }, 'form_id'],
        [{ plan_index: -1 }, 'plan_index'],
      ];
      const before = await snapshot();
      for (const [fields, name] of cases) {
        const res = await sync({ ...base, ...fields });
        expect([name, res.status]).toEqual([name, 400]);
        expect(expectWpError(res.body, 'rest_invalid_param', 400).data.params).toHaveProperty(name);
      }
      const unknown = await sync({ ...base, currency: 'EUR' });
      expect(expectWpError(unknown.body, 'rest_invalid_param', 400).data.params).toHaveProperty('currency');
      expect(await snapshot()).toEqual(before);
    });

    it('refuses control and text-direction characters in the payer fields and custom fields, line feeds only in a textarea', async () => {
      const withNote = await createPaymentForm(t, {
        fields: [
          { name: 'email_address', type: 'email', label: 'Email', required: true },
          { name: 'company', type: 'text', label: 'Company', required: false },
          { name: 'note', type: 'textarea', label: 'Note', required: false },
        ],
      });
      const base = { form_id: withNote.id, payment_gateway: 'gateway_a', payment_method: 'ccard' };
      const cases: Array<[object, string]> = [
        [{ first_name: 'Ada\r\nBcc: x@evil.example' }, 'first_name'],
        [{ first_name: 'Ada\nX' }, 'first_name'],
        [{ last_name: 'Love\tlace' }, 'last_name'],
        [{ last_name: 'Love\u0000lace' }, 'last_name'],
        [{ last_name: 'Love\u007flace' }, 'last_name'],
        [{ first_name: 'Ada\u0085' }, 'first_name'],
        [{ last_name: 'Ada\u202egpj.exe' }, 'last_name'],
        [{ first_name: '\u2066Ada\u2069' }, 'first_name'],
        [{ email_address: '"a\r\nb"@example.test' }, 'email_address'],
        [{ email_address: '"a\u202eb"@example.test' }, 'email_address'],
        [{ custom_fields: { company: 'ACME\nPayer email: x@evil.example' } }, 'custom_fields.company'],
        [{ custom_fields: { company: 'ACME\u202e' } }, 'custom_fields.company'],
        [{ custom_fields: { note: 'two\r\nlines' } }, 'custom_fields.note'],
        [{ custom_fields: { note: 'tab\there' } }, 'custom_fields.note'],
      ];
      const before = await snapshot();
      for (const [fields, name] of cases) {
        const res = await sync({ ...base, ...fields });
        expect([fields, res.status]).toEqual([fields, 400]);
        expect(expectWpError(res.body, 'rest_invalid_param', 400).data.params).toHaveProperty([name]);
      }
      expect(await snapshot()).toEqual(before);

      const res = await sync({ ...base, first_name: 'Zoë', last_name: 'Ünïcødé', custom_fields: { company: 'ACME', note: 'first line\nsecond line' } });
      expect(res.status).toBe(201);
      const stored = await row((res.body as SyncAnswer).payment_id);
      expect(JSON.parse(String(stored.custom_fields))).toEqual({ company: 'ACME', note: 'first line\nsecond line' });
    });

    it('accepts an early sync without payer details and stores empty strings as nothing', async () => {
      const answer = await create({ email_address: '', first_name: ' ', last_name: '' });
      expect(await row(answer.payment_id)).toEqual(expect.objectContaining({ email_address: null, first_name: null, last_name: null }));
    });

    it('bounds custom fields and accepts only the form’s own fields', async () => {
      const base = { form_id: form.id, payment_gateway: 'gateway_a', payment_method: 'ccard' };
      const tooMany = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`f${i}`, 'x']));
      const bad: object[] = [
        { custom_fields: tooMany },
        { custom_fields: { company: 'x'.repeat(501) } },
        { custom_fields: { ['k'.repeat(41)]: 'x' } },
        { custom_fields: { 'Bad Key': 'x' } },
        { custom_fields: { toString: 'x' } },
        { custom_fields: { company: { nested: true } } },
        { custom_fields: ['company'] },
        { custom_fields: { nickname: 'x' } },
        { custom_fields: { email_address: 'a@b.test' } },
        { custom_fields: { size: 'XXL' } },
      ];
      const before = await snapshot();
      for (const body of bad) {
        const res = await sync({ ...base, ...body });
        expect([body, res.status]).toEqual([body, 400]);
        expectWpError(res.body, 'rest_invalid_param', 400);
      }
      expect(await snapshot()).toEqual(before);

      // `__proto__`, `constructor` and `prototype` keys are refused (400 naming the field) before anything reads them.
      const proto = await request(t.http)
        .post(`${t.base}/payment/sync-details`)
        .set('Content-Type', 'application/json')
        .send(`{"form_id":${form.id},"payment_gateway":"gateway_a","payment_method":"ccard","custom_fields":{"__proto__":{"polluted":"yes"},"company":"Kept"}}`);
      expect(proto.status).toBe(400);
      expect(expectWpError(proto.body, 'rest_invalid_param', 400).data.params).toHaveProperty(['custom_fields.__proto__']);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      const reserved = await sync({ ...base, custom_fields: { constructor: 'x', prototype: 'y', company: 'Kept' } });
      expect(reserved.status).toBe(400);
      expect(await snapshot()).toEqual(before);

      const answer = await create({ custom_fields: { company: 'ACME', size: 'M' } });
      expect(JSON.parse(String((await row(answer.payment_id)).custom_fields))).toEqual({ company: 'ACME', size: 'M' });
    });

    it('accepts a form-encoded body (the browser scripts send one)', async () => {
      const res = await request(t.http)
        .post(`${t.base}/payment/sync-details`)
        .type('form')
        .send(`form_id=${form.id}&payment_gateway=gateway_a&payment_method=ccard&plan_index=1&price_index=0&amount=3000&custom_fields[company]=ACME`);
      expect(res.status).toBe(201);
      expect(res.body.amount).toBe(3000);
    });

    it('refuses an unknown or unpublished form (404)', async () => {
      const draft = await createPaymentForm(t, {}, 'draft');
      for (const formId of [999_999, draft.id]) {
        const res = await sync({ form_id: formId, payment_gateway: 'gateway_a', payment_method: 'ccard' });
        expect(res.status).toBe(404);
        expectWpError(res.body, 'checkout_not_found', 404);
      }
    });

    it('needs the gateway connected in its mode and the method enabled on the gateway and the form', async () => {
      const state = t.app.get(GatewayStateService);
      const before = await snapshot();
      // regional_wallet_1 exists for gateway A but this form does not offer it.
      const notOnForm = await sync({ form_id: form.id, payment_gateway: 'gateway_a', payment_method: 'regional_wallet_1' });
      expect(expectWpError(notOnForm.body, 'rest_invalid_param', 400).data.params).toHaveProperty('payment_method');
      const unknownMethod = await sync({ form_id: form.id, payment_gateway: 'gateway_b', payment_method: 'ccard' });
      expect(expectWpError(unknownMethod.body, 'rest_invalid_param', 400).data.params).toHaveProperty('payment_method');

      await state.setActiveMethods('gateway_a', ['ccard']);
      const notOnGateway = await sync({ form_id: form.id, payment_gateway: 'gateway_a', payment_method: 'sepa' });
      expect(expectWpError(notOnGateway.body, 'rest_invalid_param', 400).data.params).toHaveProperty('payment_method');
      await state.setActiveMethods('gateway_a', ['ccard', 'sepa']);

      await state.setMode('gateway_a', 'live');
      const notConnected = await sync({ form_id: form.id, payment_gateway: 'gateway_a', payment_method: 'ccard' });
      expect(expectWpError(notConnected.body, 'rest_invalid_param', 400).data.params).toEqual({ payment_gateway: 'gateway_a is not connected in live mode' });
      await state.setMode('gateway_a', 'test');

      const recurringOnB = await sync({ form_id: form.id, payment_gateway: 'gateway_b', payment_method: 'standard_checkout', plan_index: 1, price_index: 1 });
      expect(expectWpError(recurringOnB.body, 'rest_invalid_param', 400).data.params).toHaveProperty('payment_gateway');
      expect(await snapshot()).toEqual(before);

      const onB = await create({ payment_gateway: 'gateway_b', payment_method: 'standard_checkout' });
      expect(onB).toEqual(expect.objectContaining({ amount: 1000, currency: 'USD', mode: 'test' }));
    });

    it('records the mode the gateway is in', async () => {
      await connectGateway(t, 'gateway_a', 'live');
      try {
        expect((await create()).mode).toBe('live');
      } finally {
        await t.app.get(GatewayStateService).setMode('gateway_a', 'test');
      }
    });
  });

  describe('POST /payment/sync-details: updates', () => {
    it('updates with the matching id and secret (200), recomputes the amount and re-issues the token', async () => {
      const created = await create({ email_address: 'first@example.test' });
      const res = await sync({
        payment_id: created.payment_id,
        payment_secret: created.payment_secret,
        form_id: form.id,
        payment_gateway: 'gateway_a',
        payment_method: 'sepa',
        plan_index: 1,
        price_index: 0,
        amount: 4200,
        first_name: 'Ada',
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(expect.objectContaining({ payment_id: created.payment_id, payment_secret: created.payment_secret, amount: 4200, currency: 'USD', status: 'pending' }));
      expect(res.body.checkout_token).not.toBe(created.checkout_token);
      expect(await row(created.payment_id)).toEqual(
        expect.objectContaining({ payment_method: 'sepa', plan_index: 1, price_index: 0, first_name: 'Ada', email_address: 'first@example.test' }),
      );
      expect((await logOf(created.payment_id)).map((entry) => entry.event)).toEqual(['payment_created', 'checkout_changed']);

      // The old token states the old method and amount: it no longer opens the record.
      const stale = await status(referenceOf({ ...created, amount: 4200 }, form.id, 'gateway_a', 'sepa'));
      expect(stale.status).toBe(403);
      const fresh = await status(referenceOf(res.body, form.id, 'gateway_a', 'sepa'));
      expect(fresh.status).toBe(200);
    });

    it('refuses a wrong secret, an unknown id, a missing secret or another form (403) and changes nothing', async () => {
      const created = await create();
      const other = await create();
      const otherForm = await createPaymentForm(t);
      const base = { form_id: form.id, payment_gateway: 'gateway_a', payment_method: 'ccard', plan_index: 1, price_index: 0, amount: 7777 };
      const before = await snapshot();
      const attempts: object[] = [
        { payment_id: created.payment_id, payment_secret: other.payment_secret },
        { payment_id: created.payment_id, payment_secret: created.payment_secret.slice(0, -1) + (created.payment_secret.endsWith('A') ? 'B' : 'A') },
        { payment_id: created.payment_id, payment_secret: '' },
        { payment_id: created.payment_id },
        { payment_id: 999_999, payment_secret: created.payment_secret },
        { payment_id: created.payment_id, payment_secret: created.payment_secret, form_id: otherForm.id },
      ];
      for (const attempt of attempts) {
        const res = await sync({ ...base, ...attempt });
        expect([attempt, res.status]).toEqual([attempt, 403]);
        expectWpError(res.body, 'checkout_invalid_payment_reference', 403);
      }
      expect(await snapshot()).toEqual(before);
      const secretWithoutId = await sync({ ...base, payment_secret: created.payment_secret });
      expect(secretWithoutId.status).toBe(400);
      expect(secretWithoutId.body.data.params).toHaveProperty('payment_id');
    });

    it.each(['completed', 'canceled', 'processing'] as const)('refuses to update a %s record (409) and logs the refusal', async (target) => {
      const created = await create();
      await payments.transition(created.payment_id, target, { source: 'test' });
      const before = await row(created.payment_id);
      const res = await sync({ payment_id: created.payment_id, payment_secret: created.payment_secret, form_id: form.id, payment_gateway: 'gateway_a', payment_method: 'sepa' });
      expect(res.status).toBe(409);
      expectWpError(res.body, 'checkout_invalid_state', 409);
      expect(await row(created.payment_id)).toEqual(before);
      const log = await logOf(created.payment_id);
      expect(log.at(-1)).toEqual(expect.objectContaining({ event: 'update_refused', level: 'warning' }));
      expect(JSON.parse(log.at(-1)!.context)).toEqual(expect.objectContaining({ status: target }));
    });

    it('moves a failed record back to pending on a retry', async () => {
      const created = await create();
      await payments.transition(created.payment_id, 'failed', { source: 'test' });
      const res = await sync({ payment_id: created.payment_id, payment_secret: created.payment_secret, form_id: form.id, payment_gateway: 'gateway_a', payment_method: 'ccard' });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('pending');
      const moves = (await logOf(created.payment_id)).filter((entry) => entry.event === 'status_changed').map((entry) => JSON.parse(entry.context));
      expect(moves.map((move) => `${move.from}→${move.to}`)).toEqual(['pending→failed', 'failed→pending']);
    });

    it('keeps one record consistent under concurrent updates', async () => {
      const created = await create();
      const choices = Array.from({ length: 12 }, (_, i) => (i % 3 === 0 ? { plan_index: 2 } : { plan_index: 1, price_index: 0, amount: 1000 + i }));
      const answers = await Promise.all(
        choices.map((choice) =>
          sync({ payment_id: created.payment_id, payment_secret: created.payment_secret, form_id: form.id, payment_gateway: 'gateway_a', payment_method: 'ccard', ...choice }),
        ),
      );
      expect(answers.map((res) => res.status)).toEqual(choices.map(() => 200));
      // Each answer states what that request wrote: its amount belongs to its own plan choice.
      answers.forEach((res, i) => {
        expect(res.body.amount).toBe(choices[i].plan_index === 2 ? 500 : 1000 + i);
        expect(res.body.currency).toBe(choices[i].plan_index === 2 ? 'JPY' : 'USD');
      });
      const final = await row(created.payment_id);
      const matching = answers.filter((res) => res.body.amount === Number(final.amount) && res.body.currency === final.currency);
      expect(matching.length).toBeGreaterThan(0);
      expect(Number(final.plan_index) === 2).toBe(final.currency === 'JPY');
      // The newest token of the winner opens the record; a loser's token states another amount.
      const winner = matching[0].body as SyncAnswer;
      expect((await status(referenceOf(winner, form.id))).status).toBe(200);
    });
  });

  describe('POST /payment/status', () => {
    let answer: SyncAnswer;
    beforeAll(async () => {
      answer = await create({ plan_index: 1, price_index: 0, amount: 1999 });
    });

    it('reads the local outcome of a signed attempt', async () => {
      const res = await status(referenceOf(answer, form.id));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        payment_id: answer.payment_id,
        status: 'pending',
        amount: 1999,
        currency: 'USD',
        mode: 'test',
        gateway: 'gateway_a',
        updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
    });

    it('accepts the reference form-encoded', async () => {
      const res = await request(t.http).post(`${t.base}/payment/status`).type('form').send(referenceOf(answer, form.id));
      expect(res.status).toBe(200);
    });

    it('refuses every mismatch with 403 and writes nothing', async () => {
      const other = await create({ plan_index: 1, price_index: 0, amount: 1999 });
      const good = referenceOf(answer, form.id);
      const [payload, signature] = answer.checkout_token.split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      const tampered = `${Buffer.from(JSON.stringify({ ...claims, amount: 1 })).toString('base64url')}.${signature}`;
      const otherForm = await createPaymentForm(t);
      const variants: Array<[string, object]> = [
        ['wrong secret', { payment_secret: other.payment_secret }],
        ['another payment’s token', { checkout_token: other.checkout_token }],
        ['tampered token', { checkout_token: tampered, amount: 1 }],
        ['truncated token', { checkout_token: answer.checkout_token.slice(0, -2) }],
        ['garbage token', { checkout_token: 'not-a-token' }],
        ['wrong amount', { amount: 1000 }],
        ['wrong currency', { currency: 'EUR' }],
        ['wrong form', { form_id: otherForm.id }],
        ['wrong gateway', { payment_gateway: 'gateway_b', payment_method: 'standard_checkout' }],
        ['wrong method', { payment_method: 'sepa' }],
        ['unknown payment', { payment_id: 999_999 }],
        ['another payment id', { payment_id: other.payment_id }],
      ];
      const before = await snapshot();
      for (const [name, change] of variants) {
        const res = await status({ ...good, ...change });
        expect([name, res.status]).toEqual([name, 403]);
        expectWpError(res.body, 'checkout_invalid_payment_reference', 403);
      }
      expect(await snapshot()).toEqual(before);
    });

    it('refuses an expired token (fake clock) and accepts it just before', async () => {
      const reference = referenceOf(answer, form.id);
      jest.useFakeTimers({ ...ONLY_DATE, now: Date.now() });
      try {
        jest.setSystemTime(Date.now() + 3590_000);
        expect((await status(reference)).status).toBe(200);
        jest.setSystemTime(Date.now() + 11_000);
        const expired = await status(reference);
        expect(expired.status).toBe(403);
        expectWpError(expired.body, 'checkout_invalid_payment_reference', 403);
      } finally {
        jest.useRealTimers();
      }
      expect((await status(reference)).status).toBe(200);
    });

    it('refuses when the gateway mode changed, the gateway was disconnected or the method disabled', async () => {
      const reference = referenceOf(answer, form.id);
      const state = t.app.get(GatewayStateService);
      await connectGateway(t, 'gateway_a', 'live');
      await state.setMode('gateway_a', 'live');
      expect((await status(reference)).status).toBe(403);
      await state.setMode('gateway_a', 'test');
      expect((await status(reference)).status).toBe(200);

      await state.setActiveMethods('gateway_a', ['sepa']);
      expect((await status(reference)).status).toBe(403);
      await state.setActiveMethods('gateway_a', ['ccard', 'sepa']);

      await disconnectGateway(t, 'gateway_a', 'test');
      expect((await status(reference)).status).toBe(403);
      await connectGateway(t, 'gateway_a', 'test');
      expect((await status(reference)).status).toBe(200);
    });

    it('reads mode, connection and methods in one query with the same answers as the separate reads', async () => {
      const state = t.app.get(GatewayStateService);
      const options = t.app.get(OptionsService);
      const agree = async (gateway: 'gateway_a' | 'gateway_b') => {
        const mode = await state.getMode(gateway);
        expect(await state.checkoutState(gateway)).toEqual({
          mode,
          connected: await state.isConnected(gateway, mode),
          activeMethods: await state.getActiveMethods(gateway),
        });
      };
      try {
        await agree('gateway_a');
        await agree('gateway_b');
        // One credential of the current mode missing: not connected, even though the other mode is.
        await connectGateway(t, 'gateway_a', 'live');
        await state.setMode('gateway_a', 'test');
        await options.delete(gatewayAOption.credential('test', 'public_key'));
        expect((await state.checkoutState('gateway_a')).connected).toBe(false);
        await agree('gateway_a');
        await state.setMode('gateway_a', 'live');
        expect(await state.checkoutState('gateway_a')).toMatchObject({ mode: 'live', connected: true });
        await agree('gateway_a');
        await state.setActiveMethods('gateway_a', ['sepa']);
        await agree('gateway_a');
        await options.delete([gatewayOption.mode('gateway_a'), gatewayOption.activeMethods('gateway_a')]);
        await agree('gateway_a');
      } finally {
        await connectGateway(t, 'gateway_a', 'test');
        await state.setActiveMethods('gateway_a', ['ccard', 'sepa']);
      }
    });

    it('validates the reference fields (400) and refuses unknown fields', async () => {
      const { checkout_token: _token, ...missing } = referenceOf(answer, form.id);
      const res = await status(missing);
      expect(res.status).toBe(400);
      expectWpError(res.body, 'rest_missing_callback_param', 400);
      expect(res.body.data.params).toHaveProperty('checkout_token');
      const extra = await status({ ...referenceOf(answer, form.id), status: 'completed' });
      expect(extra.status).toBe(400);
      expect(extra.body.data.params).toHaveProperty('status');
    });

    it('shows the status the record reached', async () => {
      const paid = await create();
      await payments.transition(paid.payment_id, 'completed', { source: 'test', patch: { amountReceived: 1000 } });
      const res = await status(referenceOf(paid, form.id));
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('completed');
    });
  });

  describe('status machine', () => {
    it('applies legal moves and logs them', async () => {
      const { payment_id: id } = await create();
      expect((await payments.transition(id, 'processing', { source: 'webhook:gateway_a', reason: 'payment_intent.processing' })).outcome).toBe('applied');
      const done = await payments.transition(id, 'completed', { source: 'webhook:gateway_a', patch: { amountReceived: 1000, providerPaymentRef: `pi_${id}` } });
      expect(done).toEqual(expect.objectContaining({ outcome: 'applied', from: 'processing' }));
      expect(done.payment).toEqual(expect.objectContaining({ status: 'completed', amount_received: 1000, provider_payment_ref: `pi_${id}` }));
      // The checkout route reaching the same result afterwards is a harmless repeat.
      expect((await payments.transition(id, 'completed', { source: 'checkout:gateway_a' })).outcome).toBe('unchanged');
      expect((await logOf(id)).filter((entry) => entry.event === 'status_changed')).toHaveLength(2);
    });

    it('records and ignores a backward move', async () => {
      const { payment_id: id } = await create();
      await payments.transition(id, 'completed', { source: 'test' });
      const late = await payments.transition(id, 'processing', { source: 'webhook:gateway_a', patch: { amountReceived: 1 } });
      expect(late).toEqual(expect.objectContaining({ outcome: 'ignored', from: 'completed' }));
      expect(late.payment.status).toBe('completed');
      expect(late.payment.amount_received).toBeNull();
      expect((await logOf(id)).at(-1)).toEqual(expect.objectContaining({ event: 'transition_ignored' }));
    });

    it('refuses an illegal move with 409 and logs it', async () => {
      const { payment_id: id } = await create();
      await payments.transition(id, 'canceled', { source: 'test' });
      await expect(payments.transition(id, 'completed', { source: 'webhook:gateway_a' })).rejects.toMatchObject({ code: 'checkout_invalid_state', status: 409 });
      expect((await row(id)).status).toBe('canceled');
      const last = (await logOf(id)).at(-1)!;
      expect(last).toEqual(expect.objectContaining({ event: 'transition_refused', level: 'warning' }));
      expect(JSON.parse(last.context)).toEqual({ from: 'canceled', to: 'completed', source: 'webhook:gateway_a', reason: null });
      // A webhook handler can take the refusal as an answer instead of an error.
      expect((await payments.transition(id, 'completed', { source: 'webhook:gateway_a', tolerateRefusal: true })).outcome).toBe('refused');
      await expect(payments.transition(999_999, 'completed', { source: 'test' })).rejects.toMatchObject({ code: 'checkout_not_found' });
    });

    it('lets exactly one of concurrent competing moves win', async () => {
      const { payment_id: id } = await create();
      const targets = ['completed', 'canceled', 'completed', 'canceled', 'failed', 'completed', 'canceled', 'processing'] as const;
      const results = await Promise.all(targets.map((to) => payments.transition(id, to, { source: 'race', tolerateRefusal: true })));
      const applied = results.filter((result) => result.outcome === 'applied');
      const final = String((await row(id)).status);
      expect(['completed', 'canceled']).toContain(final);
      const moves = (await logOf(id)).filter((entry) => entry.event === 'status_changed').map((entry) => JSON.parse(entry.context));
      // Every applied move is logged once, and the moves chain from pending to the final status.
      expect(moves).toHaveLength(applied.length);
      expect(moves[0].from).toBe('pending');
      expect(moves.at(-1).to).toBe(final);
      for (let i = 1; i < moves.length; i += 1) expect(moves[i].from).toBe(moves[i - 1].to);
      const logged = (await logOf(id)).filter((entry) => ['transition_refused', 'transition_ignored'].includes(entry.event));
      expect(logged).toHaveLength(results.filter((result) => result.outcome === 'refused' || result.outcome === 'ignored').length);
    });

    it('stores provider details and refuses a provider reference that belongs to another payment', async () => {
      const first = await create();
      const second = await create();
      const stored = await payments.recordProviderDetails(first.payment_id, { providerPaymentRef: 'pi_shared', applicationFeeAmount: 20 }, 'test');
      expect(stored).toEqual(expect.objectContaining({ provider_payment_ref: 'pi_shared', application_fee_amount: 20 }));
      expect((await t.app.get(PaymentQueriesService).findByProviderRef('gateway_a', 'pi_shared'))?.id).toBe(first.payment_id);
      await expect(payments.recordProviderDetails(second.payment_id, { providerPaymentRef: 'pi_shared' }, 'test')).rejects.toMatchObject({ code: 'checkout_invalid_state' });
      expect((await row(second.payment_id)).provider_payment_ref).toBeNull();
    });
  });

  describe('section B reads', () => {
    it('GET /payment/status finds a record by the provider id or, before it has one, by its id', async () => {
      const answer = await create({ plan_index: 1, price_index: 0, amount: 1999 });
      const byId = await request(t.http).get(`${t.base}/payment/status`).query({ transaction_id: String(answer.payment_id) }).set('Authorization', t.admin.auth);
      expect(byId.status).toBe(200);
      expect(byId.body).toEqual({
        transaction_id: String(answer.payment_id),
        status: 'pending',
        amount: 19.99,
        currency: 'USD',
        date: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
      await payments.transition(answer.payment_id, 'completed', { source: 'test', patch: { providerPaymentRef: `pi_status_${answer.payment_id}` } });
      const byRef = await request(t.http)
        .get(`${t.base}/payment/status`)
        .query({ transaction_id: `pi_status_${answer.payment_id}` })
        .set('Authorization', t.admin.auth);
      expect(byRef.body).toEqual(expect.objectContaining({ transaction_id: `pi_status_${answer.payment_id}`, status: 'completed', amount: 19.99 }));
      // Once the provider id is known, the local id no longer names the payment.
      const stale = await request(t.http).get(`${t.base}/payment/status`).query({ transaction_id: String(answer.payment_id) }).set('Authorization', t.admin.auth);
      expect(stale.status).toBe(404);
    });

    it('GET /payment/status: 404 unknown, 400 missing, 401 anonymous', async () => {
      const unknown = await request(t.http).get(`${t.base}/payment/status`).query({ transaction_id: 'pi_unknown' }).set('Authorization', t.admin.auth);
      expectWpError(unknown.body, 'checkout_not_found', 404);
      const missing = await request(t.http).get(`${t.base}/payment/status`).set('Authorization', t.admin.auth);
      expect(missing.status).toBe(400);
      const anonymous = await request(t.http).get(`${t.base}/payment/status`).query({ transaction_id: '1' });
      expectWpError(anonymous.body, 'rest_not_logged_in', 401);
    });
  });
});

describe('payment history (section B)', () => {
  let t: TestApp;
  /** The created payments' ids, oldest first (not consecutive on Galera, which steps ids by the cluster size). */
  const created: number[] = [];
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_NEW_PAYMENT: '10000' });
    await connectGateway(t, 'gateway_a', 'test');
    const form = await createPaymentForm(t);
    for (let i = 0; i < 23; i += 1) {
      const res = await request(t.http)
        .post(`${t.base}/payment/sync-details`)
        .send({ form_id: form.id, payment_gateway: 'gateway_a', payment_method: 'ccard', plan_index: i % 3 === 2 ? 2 : 0 });
      expect(res.status).toBe(201);
      created.push(res.body.payment_id as number);
    }
  });
  afterAll(() => t.close());

  const history = (query: Record<string, string | number>, auth = t.admin.auth) =>
    request(t.http).get(`${t.base}/payment/history`).query(query).set('Authorization', auth);

  it('pages newest first with X-WP-Total and X-WP-TotalPages', async () => {
    const first = await history({});
    expect(first.status).toBe(200);
    expect(first.headers['x-wp-total']).toBe('23');
    expect(first.headers['x-wp-totalpages']).toBe('3');
    expect(first.body).toHaveLength(10);
    expect(first.body[0]).toEqual({ transaction_id: String(created[22]), status: 'pending', amount: expect.any(Number), currency: expect.any(String), date: expect.stringMatching(/Z$/) });

    const last = await history({ page: 3, per_page: 10 });
    expect(last.body.map((entry: { transaction_id: string }) => entry.transaction_id)).toEqual(created.slice(0, 3).reverse().map(String));
    const big = await history({ per_page: 100 });
    expect(big.body).toHaveLength(23);
    expect(big.headers['x-wp-totalpages']).toBe('1');
    const ids = big.body.map((entry: { transaction_id: string }) => Number(entry.transaction_id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const beyond = await history({ page: 9 });
    expect(beyond.body).toEqual([]);
    expect(beyond.headers['x-wp-total']).toBe('23');
  });

  it('gives amounts in major units and dates in ISO 8601 UTC', async () => {
    const { body } = await history({ per_page: 100 });
    const yen = body.find((entry: { currency: string }) => entry.currency === 'JPY');
    const usd = body.find((entry: { currency: string }) => entry.currency === 'USD');
    expect(yen.amount).toBe(500);
    expect(usd.amount).toBe(10);
    for (const entry of body) expect(entry.date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it.each<Record<string, string | number>>([{ per_page: 101 }, { per_page: 0 }, { page: 0 }, { page: 'x' }])('refuses %p (400)', async (query) => {
    const res = await history(query);
    expect(res.status).toBe(400);
    expectWpError(res.body, 'rest_invalid_param', 400);
  });

  it('is for administrators only', async () => {
    const editor = await t.createUser('editor');
    expect((await history({}, editor.auth)).status).toBe(403);
    expect((await request(t.http).get(`${t.base}/payment/history`)).status).toBe(401);
  });
});
