/**
 * CSV as RFC 4180 writes it (comma separator, CRLF line ends, a field quoted when it holds a
 * comma, a double quote, CR or LF, its quotes doubled), with the formula neutralisation OWASP
 * recommends against CSV injection: a text cell that starts with `=`, `+`, `-`, `@`, a tab or a
 * carriage return gets a leading `'`, so a spreadsheet shows it as text instead of running it.
 */
export type CsvCell = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell: numbers and booleans as they are, null/undefined empty, text neutralised and quoted when needed. */
export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('a CSV number cell must be finite');
    return String(value);
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, CRLF-terminated. */
export function csvLine(cells: readonly CsvCell[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
