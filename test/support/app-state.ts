import { Clock } from '../../src/common/clock/index.js';
import type { TestApp } from './test-app.js';

/** Helpers every gateway's e2e specs share: a payment's stored row, its log, the service's clock. */

export async function paymentRow(t: TestApp, id: number): Promise<Record<string, unknown>> {
  const [row] = await t.dataSource.query(`SELECT * FROM ${t.config.tablePrefix}checkout_payments WHERE id = ?`, [id]);
  return row as Record<string, unknown>;
}

export async function logEvents(t: TestApp, id: number): Promise<string[]> {
  const rows: Array<{ event: string }> = await t.dataSource.query(`SELECT event FROM ${t.config.tablePrefix}checkout_log WHERE payment_id = ? ORDER BY id`, [id]);
  return rows.map((row) => row.event);
}

/** Moves the service's clock by `ms` from now on (the HTTP server and DB keep real time). */
export function advanceClock(t: TestApp, ms: number): jest.SpyInstance {
  const clock = t.app.get(Clock);
  const current = clock.now().getTime();
  const spy = jest.isMockFunction(clock.now) ? (clock.now as unknown as jest.SpyInstance) : jest.spyOn(clock, 'now');
  spy.mockImplementation(() => new Date(current + ms));
  return spy;
}
