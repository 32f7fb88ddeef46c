import { CSV_BOM } from '../../src/modules/administration/payments-csv.js';

/** RFC 4180 records of a CSV text (quoted fields, doubled quotes, CRLF inside quotes), after the file's byte-order mark. */
export function parseCsv(file: string): string[][] {
  expect(file.startsWith(CSV_BOM)).toBe(true);
  const text = file.slice(CSV_BOM.length);
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c === '"') {
      quoted = true;
    } else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else {
      field += c;
    }
  }
  expect({ unterminated: field !== '' || record.length > 0 }).toEqual({ unterminated: false });
  return records;
}
