import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { COMMON_SEARCH_LIMITS, PaymentRepository } from '../../src/modules/payments/payment.repository.js';
import type { PaymentEntity } from '../../src/modules/payments/payment.entity.js';
import { PAYMENT_EXPORT_LIMITS } from '../../src/modules/administration/payments-csv.js';
import { parseCsv } from '../support/csv.js';
import { statementsDuring } from '../support/statements.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

type Row = Record<string, unknown> & { id: number };

/**
 * The admin search with common words (issue 36, docs/decisions.md §32): a word whose terms pass
 * `COMMON_SEARCH_LIMITS.wordTerms` is probed per payment while the list walks newest first, a rare word
 * still selects its payments from its terms; the answers are the same rows in the same order as a
 * search of rare words, on both engines. The words are made common by terms of payments that do not
 * exist (nothing can match them), so the rows that do match stay few and known.
 */
describe('admin payments: searching common words', () => {
  let t: TestApp;
  /** The seeded payments newest first, with what the search matches them by. */
  const seeded: Array<{ id: number; first: string; last: string; status: string }> = [];

  const get = (path: string, query: Record<string, string | number> = {}) =>
    request(t.http).get(`${t.base}/administration/payments${path}`).query(query).set('Authorization', t.admin.auth);
  const list = async (query: Record<string, string | number>) => {
    const res = await get('', query);
    expect(res.status).toBe(200);
    return { ids: (res.body as Row[]).map((row) => row.id), total: Number(res.headers['x-wp-total']), estimated: res.headers['x-checkout-total-estimated'] === 'true', next: res.headers['x-checkout-next-cursor'] as string | undefined };
  };
  const expected = (match: (row: (typeof seeded)[number]) => boolean) => seeded.filter(match).map((row) => row.id);
  /** Every page of a search by `after`, then by `page`: both the whole list, once each, in order. */
  const allPages = async (query: Record<string, string | number>) => {
    const byCursor: number[] = [];
    let after: string | undefined;
    do {
      const page = await list({ ...query, per_page: 7, ...(after ? { after } : {}) });
      byCursor.push(...page.ids);
      after = page.next;
    } while (after);
    const byNumber: number[] = [];
    for (let page = 1; ; page += 1) {
      const { ids } = await list({ ...query, per_page: 7, page });
      byNumber.push(...ids);
      if (ids.length < 7) break;
    }
    return { byCursor, byNumber };
  };

  beforeAll(async () => {
    t = await startTestApp();
    const repository = t.app.get(PaymentRepository);
    const insert = (values: Partial<PaymentEntity>, at: Date) =>
      t.dataSource.transaction(async (manager) =>
        (
          await repository.insert(manager, {
            gateway: 'gateway_a', paymentMethod: 'ccard', mode: 'test', status: 'completed', amount: 100, currency: 'USD', frequency: 'one-time', secretNonce: randomBytes(32).toString('base64url'), createdAt: at, updatedAt: at, ...values,
          })
        ).id,
      );
    // 40 payments, two per creation time (the id breaks the tie): 30 Annas (16 Meyer, two of them also Quist; 14 Schulz), 10 Berts Meyer.
    for (let index = 0; index < 40; index += 1) {
      const first = index < 30 ? 'Anna' : 'Bert';
      const last = index === 4 || index === 17 ? 'Meyer Quist' : index % 2 === 0 || index >= 30 ? 'Meyer' : 'Schulz';
      const status = index % 3 === 0 ? 'failed' : 'completed';
      const at = new Date(Date.UTC(2026, 0, 1) + Math.floor(index / 2) * 3_600_000);
      seeded.push({ id: await insert({ firstName: first, lastName: last, emailAddress: `payer${index}@example.com`, status }, at), first, last, status });
    }
    seeded.reverse();
    // `anna` and `meyer` become common: terms of payments that do not exist.
    const terms = `${t.dataSource.options.entityPrefix ?? ''}checkout_payment_search_terms`;
    for (const word of ['anna', 'meyer']) {
      for (let start = 0; start <= COMMON_SEARCH_LIMITS.wordTerms; start += 1000) {
        const batch = Array.from({ length: Math.min(1000, COMMON_SEARCH_LIMITS.wordTerms + 1 - start) }, (_, index) => start + index);
        await t.dataSource.query(`INSERT INTO ${terms} (payment_id, term) VALUES ${batch.map(() => '(?, ?)').join(', ')}`, batch.flatMap((index) => [900_000_000 + index, `${word}${index}`]));
      }
    }
  });
  afterAll(() => t.close());

  it('a common word alone: the same rows in the same order, by cursor and by page, with the exact total (issue 36)', async () => {
    const annas = expected((row) => row.first === 'Anna');
    expect(annas).toHaveLength(30);
    expect(await allPages({ search: 'anna' })).toEqual({ byCursor: annas, byNumber: annas });
    expect(await list({ search: 'anna', per_page: 5 })).toMatchObject({ ids: annas.slice(0, 5), total: 30, estimated: false });
    expect(await list({ search: 'ann', per_page: 5 })).toMatchObject({ ids: annas.slice(0, 5), total: 30, estimated: false });
  });

  it('two common words, a common and a rare one, and other filters beside them', async () => {
    const annaMeyers = expected((row) => row.first === 'Anna' && row.last.includes('Meyer'));
    expect(annaMeyers).toHaveLength(16);
    expect(await allPages({ search: 'meyer anna' })).toEqual({ byCursor: annaMeyers, byNumber: annaMeyers });
    expect(await list({ search: 'meyer anna' })).toMatchObject({ ids: annaMeyers, total: 16, estimated: false });
    const quists = expected((row) => row.last.includes('Quist'));
    expect(quists).toHaveLength(2);
    expect(await list({ search: 'anna quist' })).toMatchObject({ ids: quists, total: 2, estimated: false });
    const failedMeyers = expected((row) => row.last.includes('Meyer') && row.status === 'failed');
    expect(await list({ search: 'meyer', status: 'failed' })).toMatchObject({ ids: failedMeyers, total: failedMeyers.length, estimated: false });
    expect(await list({ search: 'anna bert' })).toMatchObject({ ids: [], total: 0 });
  });

  it('a page the walk window does not fill is read whole: the same rows, by cursor and by page, in the export too', async () => {
    const walk = COMMON_SEARCH_LIMITS.walk;
    try {
      for (const window of [1, 5, 13]) {
        COMMON_SEARCH_LIMITS.walk = window;
        const annas = expected((row) => row.first === 'Anna');
        expect(await allPages({ search: 'anna' })).toEqual({ byCursor: annas, byNumber: annas });
        const annaMeyers = expected((row) => row.first === 'Anna' && row.last.includes('Meyer'));
        expect(await allPages({ search: 'meyer anna' })).toEqual({ byCursor: annaMeyers, byNumber: annaMeyers });
        expect(await list({ search: 'anna bert' })).toMatchObject({ ids: [], total: 0 });
        const failedAnnas = expected((row) => row.first === 'Anna' && row.status === 'failed');
        expect(await allPages({ search: 'anna', status: 'failed' })).toEqual({ byCursor: failedAnnas, byNumber: failedAnnas });
      }
    } finally {
      COMMON_SEARCH_LIMITS.walk = walk;
    }
  });

  it('probes a common word per payment and reads a rare word from its terms (the statements sent)', async () => {
    const listStatement = async (search: string) => {
      const { statements } = await statementsDuring(t.dataSource, () => list({ search }));
      // The page's statement (per_page 20, one more fetched to know there is a next page).
      const found = statements.filter((sql) => / LIMIT 21\b/.test(sql));
      expect(found).toHaveLength(1);
      return found[0];
    };
    const probes = (sql: string) => (sql.match(/LIMIT 1\) IS NOT NULL/g) ?? []).length;
    const semiJoins = (sql: string) => (sql.match(/ IN \(SELECT/g) ?? []).length;
    const common = await listStatement('anna meyer');
    expect([probes(common), semiJoins(common)]).toEqual([2, 0]);
    const mixed = await listStatement('anna quist');
    expect([probes(mixed), semiJoins(mixed)]).toEqual([1, 1]);
    const rare = await listStatement('quist');
    expect([probes(rare), semiJoins(rare)]).toEqual([0, 1]);
  });

  it('the export and the totals of a common-word search hold every match', async () => {
    const annas = expected((row) => row.first === 'Anna');
    const limits = { ...COMMON_SEARCH_LIMITS };
    const batch = { ...PAYMENT_EXPORT_LIMITS };
    try {
      // Batches of 4 in walks of 6: some batches filled by the walk, the others read whole.
      COMMON_SEARCH_LIMITS.walk = 6;
      PAYMENT_EXPORT_LIMITS.batchSize = 4;
      const small = await get('/export.csv', { search: 'anna' }).buffer(true).parse((res, done) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => done(null, text));
      });
      expect(parseCsv(small.body as string).slice(1).map((record) => Number(record[0]))).toEqual(annas);
    } finally {
      Object.assign(COMMON_SEARCH_LIMITS, limits);
      Object.assign(PAYMENT_EXPORT_LIMITS, batch);
    }
    const file = await get('/export.csv', { search: 'anna' }).buffer(true).parse((res, done) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => done(null, text));
    });
    expect(file.status).toBe(200);
    expect(file.headers['x-wp-total']).toBe('30');
    expect(parseCsv(file.body as string).slice(1).map((record) => Number(record[0]))).toEqual(annas);
    const totals = await get('/totals', { search: 'anna' });
    expect(totals.status).toBe(200);
    expect(totals.body.totals).toEqual([expect.objectContaining({ mode: 'test', currency: 'USD', payments: 30, paid: 0, failed: expected((row) => row.first === 'Anna' && row.status === 'failed').length })]);
  });

  it(`past ${COMMON_SEARCH_LIMITS.countSample} payments, the total of an all-common search is estimated from the newest ones' share`, async () => {
    // Older payments without names: the newest COMMON_SEARCH_LIMITS.countSample hold every Anna.
    const table = `${t.dataSource.options.entityPrefix ?? ''}checkout_payments`;
    const at = t.dataSource.options.type === 'better-sqlite3' ? '2025-06-01 00:00:00.000' : new Date('2025-06-01T00:00:00.000Z');
    for (let start = 0; start < COMMON_SEARCH_LIMITS.countSample; start += 500) {
      const rows = Array.from({ length: 500 }, (_, index) => start + index);
      await t.dataSource.query(
        `INSERT INTO ${table} (gateway, payment_method, mode, status, amount, currency, frequency, secret_nonce, created_at, updated_at) VALUES ${rows.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        rows.flatMap(() => ['gateway_a', 'ccard', 'test', 'completed', 100, 'USD', 'one-time', randomBytes(32).toString('base64url'), at, at]),
      );
    }
    const annas = expected((row) => row.first === 'Anna');
    // 30 of the newest 5,000, applied to 5,040 payments: 30.24, rounded.
    expect(await list({ search: 'anna', per_page: 5 })).toMatchObject({ ids: annas.slice(0, 5), total: 30, estimated: true });
    // A rare word beside it keeps the count exact.
    expect(await list({ search: 'anna quist' })).toMatchObject({ total: 2, estimated: false });
    expect(await list({ search: 'anna meyer', per_page: 5 })).toMatchObject({ total: 16, estimated: true });
    // A page that holds the list's end says the total itself, exactly.
    expect(await list({ search: 'anna meyer', per_page: 100 })).toMatchObject({ ids: expected((row) => row.first === 'Anna' && row.last.includes('Meyer')), total: 16, estimated: false });
    expect(await list({ search: 'anna', per_page: 7, page: 5 })).toMatchObject({ ids: annas.slice(28), total: 30, estimated: false });
  });
});
