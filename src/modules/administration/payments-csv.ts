import { setImmediate as nextTurn } from 'node:timers/promises';
import { type CsvCell, csvLine } from '../../common/csv/index.js';
import { toDecimalString } from '../../common/money/index.js';
import type { AdminPaymentDto, PaymentExport } from '../payments/index.js';

/**
 * Bounds of GET /administration/payments/export.csv. Past `maxRows` matching rows the file holds
 * the newest `maxRows` and the answer says so in `X-Checkout-Truncated: true` (a trailer line would
 * break the file for the programs that read it); narrow the filters (e.g. the date range) to get
 * the rest. `batchSize` rows are read per query. An object so a test can lower them.
 */
export const PAYMENT_EXPORT_LIMITS = { maxRows: 50_000, batchSize: 500 };

/** The columns of the export, in order: the list's fields, plus the amount in major units for people reading it in a spreadsheet. */
const COLUMNS: ReadonlyArray<[header: string, cell: (row: AdminPaymentDto) => CsvCell]> = [
  ['id', (row) => row.id],
  ['created_at', (row) => row.created_at],
  ['updated_at', (row) => row.updated_at],
  ['status', (row) => row.status],
  ['amount', (row) => row.amount],
  ['currency', (row) => row.currency],
  ['amount_decimal', (row) => toDecimalString(row.amount, row.currency)],
  ['gateway', (row) => row.gateway],
  ['payment_method', (row) => row.payment_method],
  ['mode', (row) => row.mode],
  ['email_address', (row) => row.email_address],
  ['first_name', (row) => row.first_name],
  ['last_name', (row) => row.last_name],
  ['form_id', (row) => row.form_id],
  ['form_title', (row) => row.form_title],
  ['parent_payment_id', (row) => row.parent_payment_id],
];

export const PAYMENT_CSV_HEADER = COLUMNS.map(([header]) => header);

/**
 * The file's text, a chunk per batch of rows: the header line first, then the rows (newest first).
 * A turn of the event loop after each batch lets other requests through: on SQLite every read is
 * synchronous, and a client that takes the chunks as fast as they come would otherwise hold the
 * process for the whole file.
 */
export async function* paymentCsvChunks(exported: PaymentExport): AsyncGenerator<string> {
  yield csvLine(PAYMENT_CSV_HEADER);
  for await (const rows of exported.batches()) {
    yield rows.map((row) => csvLine(COLUMNS.map(([, cell]) => cell(row)))).join('');
    await nextTurn();
  }
}

/** `payments-20260131T120000Z.csv`: when it was made, in a name every file system takes. */
export function paymentCsvFileName(now: Date): string {
  return `payments-${now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '')}.csv`;
}
