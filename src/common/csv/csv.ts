/**
 * CSV as RFC 4180 writes it (comma separator, CRLF line ends, a field quoted when it holds a
 * comma, a double quote, CR or LF, its quotes doubled), with the formula neutralisation OWASP
 * recommends against CSV injection: a piece of text that starts with `=`, `+`, `-`, `@`, a tab or a
 * carriage return gets a leading `'`, so a spreadsheet shows it as text instead of running it.
 * Every piece, not only the cell's start: a spreadsheet that splits on `;` (Excel's default in
 * most European locales), on tabs or on line breaks makes a cell of each piece, so
 * `x;=1+1;y` would otherwise become a formula in its second cell.
 */
export type CsvCell = string | number | boolean | null | undefined;

/** A piece's start (the cell's start, or just after a `;`, tab, CR or LF) followed by a formula character. */
const FORMULA_PIECE_START = /(^|[;\t\r\n])(?=[=+\-@\t\r])/g;
const NEEDS_QUOTES = /[",\r\n]/;
/**
 * Text no formula character starts and without a piece separator or a character that needs quotes:
 * the common cell, written as it is without the two passes below (an export of a million rows
 * writes twenty million cells).
 */
const PLAIN_TEXT = /^[^=+\-@\t\r\n;",][^;\t\r\n",]*$/;

/** One cell: numbers and booleans as they are, null/undefined empty, text neutralised and quoted when needed. */
export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('a CSV number cell must be finite');
    return String(value);
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (PLAIN_TEXT.test(value)) return value;
  const text = value.replace(FORMULA_PIECE_START, "$1'");
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, CRLF-terminated. */
export function csvLine(cells: readonly CsvCell[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
