import { setImmediate as nextTurn } from 'node:timers/promises';
import { type CsvCell, csvCell, csvLine } from '../../common/csv/index.js';
import { toDecimalString } from '../../common/money/index.js';
import { applicationFeeKept, type FailureReason, netAmount, type PaymentExport, type PaymentExportRow } from '../payments/index.js';

/**
 * Bounds of GET /administration/payments/export.csv. Past `maxRows` matching rows the file holds
 * the newest `maxRows` and the answer says so in `X-Checkout-Truncated: true` (a trailer line would
 * break the file for the programs that read it); narrow the filters (e.g. the date range) to get
 * the rest. `batchSize` rows are read per query (one statement each): on SQLite a batch is read and
 * written in one turn of the event loop, so it bounds how long other requests wait, and what a
 * batch leaves for the collector bounds the heap's growth (SQLite, 200,000 rows, one run each: 250 against 500, RSS
 * +32 MB against +52, `POST /payment/status` p95 2.6× idle against 5.6×, the same rows/s;
 * docs/benchmarks.md, "The export at size"). An object so a test can lower them.
 */
export const PAYMENT_EXPORT_LIMITS = { batchSize: 250 };

/**
 * Written before the header: a UTF-8 byte-order mark, so spreadsheets (Excel above all) read the
 * file as UTF-8 and show accents and other non-ASCII text as typed.
 */
export const CSV_BOM = '\uFEFF';

type Column = [header: string, cell: (row: PaymentExportRow) => CsvCell];

/**
 * The columns of the export, in order: the list's fields, plus the amount in major units for people
 * reading it in a spreadsheet, then the ledger's and the provider's facts.
 */
const COLUMNS: readonly Column[] = [
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
  ['amount_refunded', (row) => row.amount_refunded],
  ['amount_refunded_decimal', (row) => toDecimalString(row.amount_refunded, row.currency)],
  ['application_fee_amount', (row) => row.application_fee_amount],
  ['net', (row) => netOf(row)],
  ['provider_payment_reference', (row) => row.provider_payment_reference],
  ['failure_reason', (row) => failureReasonCell(row.failure_reason)],
  ['disputed', (row) => row.disputed],
];

/** Amount received − refunded − the application fee kept (less what refunds gave back of it) − lost disputes; empty while nothing was received. */
function netOf(row: PaymentExportRow): number | null {
  const feeKept = applicationFeeKept(row.application_fee_amount, row.application_fee_refunded);
  return netAmount({ amountReceived: row.amount_received, amountRefunded: row.amount_refunded, applicationFeeKept: feeKept, lostDisputes: row.lost_disputes });
}

/** The header of an export without a `form_id` filter (custom fields in one cell). */
export const PAYMENT_CSV_HEADER = [...COLUMNS.map(([header]) => header), 'custom_fields'];

/** `card_declined (insufficient_funds): Your card has insufficient funds.`: code, decline code when given, message when given. */
function failureReasonCell(reason: FailureReason | null): string | null {
  if (!reason) return null;
  const code = reason.decline_code ? `${reason.code} (${reason.decline_code})` : reason.code;
  return reason.message ? `${code}: ${reason.message}` : code;
}

/**
 * Custom fields as one cell of `key=value` pairs separated by `; `, in stored order. Keys are field
 * names (a-z, 0-9, _); in a value `\`, `;` and `=` are written `\\`, `\;`, `\=`, so the pairs
 * split back unambiguously.
 */
export function customFieldsCell(fields: Readonly<Record<string, string>>, leaveOut: ReadonlySet<string> = new Set()): string {
  return Object.entries(fields)
    .filter(([key]) => !leaveOut.has(key))
    .map(([key, value]) => `${key}=${value.replace(/[\\;=]/g, (c) => `\\${c}`)}`)
    .join('; ');
}

/**
 * The export's columns: with a form's field names (a `form_id` filter), one `custom_fields.<name>`
 * column per field, and `custom_fields` keeps the pairs of names the form no longer has (nothing
 * stored is left out); without, every pair in `custom_fields`.
 */
export function paymentCsvColumns(customFieldKeys: readonly string[]): Column[] {
  const own = new Set(customFieldKeys);
  return [
    ...COLUMNS,
    ...customFieldKeys.map((key): Column => [`custom_fields.${key}`, (row) => (Object.hasOwn(row.custom_fields, key) ? row.custom_fields[key] : null)]),
    ['custom_fields', (row) => customFieldsCell(row.custom_fields, own)],
  ];
}

/**
 * The file's text, a chunk per batch of rows: the byte-order mark and the header line first, then
 * the rows (newest first).
 * A turn of the event loop after each batch lets other requests through: on SQLite every read is
 * synchronous, and a client that takes the chunks as fast as they come would otherwise hold the
 * process for the whole file.
 */
export async function* paymentCsvChunks(exported: PaymentExport): AsyncGenerator<string> {
  const columns = paymentCsvColumns(exported.customFieldKeys);
  const cells = columns.map(([, cell]) => cell);
  yield CSV_BOM + csvLine(columns.map(([header]) => header));
  for await (const rows of exported.batches()) {
    // csvLine's record, written cell by cell: no array per row (a million rows make garbage enough).
    let chunk = '';
    for (const row of rows) {
      let line = csvCell(cells[0](row));
      for (let index = 1; index < cells.length; index++) line += `,${csvCell(cells[index](row))}`;
      chunk += `${line}\r\n`;
    }
    yield chunk;
    await nextTurn();
  }
}

/** `payments-20260131T120000Z.csv`: when it was made, in a name every file system takes. */
export function paymentCsvFileName(now: Date): string {
  return `payments-${now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '')}.csv`;
}
