import request from 'supertest';
import { parseCsv } from '../support/csv.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The admin payments list past its exact count (issue 36): 10,050 payments, counted exactly up to
 * 10,000 and estimated past that (X-Checkout-Total-Estimated), and the CSV export's row cap as the
 * PAYMENT_EXPORT_MAX_ROWS setting.
 */
describe('admin payments list at size: estimated totals, export cap', () => {
  let t: TestApp;
  const count = 10_050;
  const get = (path: string, query: Record<string, string | number> = {}) => request(t.http).get(`${t.base}/administration/payments${path}`).query(query).set('Authorization', t.admin.auth);

  beforeAll(async () => {
    t = await startTestApp({ PAYMENT_EXPORT_MAX_ROWS: '120' });
    const sqlite = t.dataSource.options.type === 'better-sqlite3';
    const table = `${t.dataSource.options.entityPrefix ?? ''}checkout_payments`;
    const columns = 'gateway, payment_method, mode, status, amount, currency, frequency, secret_nonce, custom_fields, created_at, updated_at';
    for (let start = 0; start < count; start += 500) {
      const rows = Array.from({ length: Math.min(500, count - start) }, (_, index) => start + index);
      await t.dataSource.query(
        `INSERT INTO ${table} (${columns}) VALUES ${rows.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        rows.flatMap((n) => {
          const at = new Date(Date.UTC(2026, 0, 1) + n * 1000);
          const stored = sqlite ? at.toISOString().replace('T', ' ').replace('Z', '') : at;
          return ['gateway_a', 'ccard', 'test', n % 2 ? 'completed' : 'failed', 100, 'USD', 'one-time', `s${String(n).padStart(42, '0')}`, '{}', stored, stored];
        }),
      );
    }
    if (!sqlite) await t.dataSource.query(`ANALYZE TABLE ${table}`);
  });
  afterAll(() => t.close());

  it('counts a filter exactly up to 10,000 matches, and says when the total is an estimate', async () => {
    const failed = await get('', { status: 'failed', per_page: 10 });
    expect(failed.status).toBe(200);
    expect(failed.headers['x-wp-total']).toBe(String(count / 2));
    expect(failed.headers['x-checkout-total-estimated']).toBe('false');

    const created = await get('', { created_from: '2026-01-01', per_page: 10 });
    expect(created.headers['x-wp-total']).toBe('10000');
    expect(created.headers['x-wp-totalpages']).toBe('1000');
    expect(created.headers['x-checkout-total-estimated']).toBe('true');
    expect(created.body).toHaveLength(10);
    expect(created.headers['x-checkout-next-cursor']).toMatch(/^[A-Za-z0-9_-]+$/);

    // Unfiltered: SQLite counts its rows (COUNT(*) walks its smallest index); MariaDB takes the table's statistics.
    const all = await get('', { per_page: 10 });
    if (t.dataSource.options.type === 'better-sqlite3') {
      expect(all.headers['x-wp-total']).toBe(String(count));
      expect(all.headers['x-checkout-total-estimated']).toBe('false');
    } else {
      expect(all.headers['x-checkout-total-estimated']).toBe('true');
      expect(Number(all.headers['x-wp-total'])).toBeGreaterThan(10_000);
    }
  });

  it('walks the whole list by keyset, newest first, each payment once', async () => {
    let after: string | undefined;
    let pages = 0;
    let previous = Infinity;
    const seen = new Set<number>();
    do {
      const res = await get('', after === undefined ? { per_page: 100 } : { per_page: 100, after });
      expect(res.status).toBe(200);
      for (const row of res.body as Array<{ id: number; created_at: string }>) {
        expect(Date.parse(row.created_at)).toBeLessThanOrEqual(previous);
        previous = Date.parse(row.created_at);
        seen.add(row.id);
      }
      after = res.headers['x-checkout-next-cursor'] as string | undefined;
      pages++;
    } while (after !== undefined);
    expect(pages).toBe(Math.ceil(count / 100));
    expect(seen.size).toBe(count);
  });

  it('caps the CSV export at PAYMENT_EXPORT_MAX_ROWS, the newest rows, saying so', async () => {
    const res = await get('/export.csv').buffer(true).parse((response, done) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => done(null, text));
    });
    expect(res.status).toBe(200);
    expect(res.headers['x-checkout-export-limit']).toBe('120');
    expect(res.headers['x-checkout-truncated']).toBe('true');
    const records = parseCsv(res.body as string).slice(1);
    expect(records).toHaveLength(120);
    const newest = (await get('', { per_page: 1 })).body[0].id as number;
    expect(Number(records[0][0])).toBe(newest);
    const narrow = await get('/export.csv', { created_from: new Date(Date.UTC(2026, 0, 1) + (count - 100) * 1000).toISOString() });
    expect(narrow.headers['x-checkout-truncated']).toBe('false');
    expect(narrow.headers['x-wp-total']).toBe('100');
  });
});
