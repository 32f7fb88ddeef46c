/**
 * The exact bytes of one member's value in a JSON object, as they appear in the document (no
 * re-serialisation): `rawMemberValue('{"a": {"b" : 1 } }', 'a')` is the bytes `{"b" : 1 }`.
 * Used by the fake's verify-webhook-signature, which checks the signature over the event bytes it
 * was sent inside `webhook_event`. The document must be valid JSON (it is parsed first); like
 * JSON.parse, the last of duplicated keys wins. Returns undefined when the document is not an
 * object or has no such member.
 */
export function rawMemberValue(document: Buffer | string, key: string): Buffer | undefined {
  const bytes = Buffer.isBuffer(document) ? document : Buffer.from(document, 'utf8');
  JSON.parse(bytes.toString('utf8')); // throws SyntaxError for anything that is not JSON
  let i = skipWhitespace(bytes, 0);
  if (bytes[i] !== OPEN_OBJECT) return undefined;
  i = skipWhitespace(bytes, i + 1);
  let found: Buffer | undefined;
  while (bytes[i] !== CLOSE_OBJECT) {
    const keyEnd = skipString(bytes, i);
    const name = JSON.parse(bytes.subarray(i, keyEnd).toString('utf8')) as string;
    i = skipWhitespace(bytes, keyEnd);
    i = skipWhitespace(bytes, i + 1); // the colon
    const valueEnd = skipValue(bytes, i);
    if (name === key) found = bytes.subarray(i, valueEnd);
    i = skipWhitespace(bytes, valueEnd);
    if (bytes[i] === COMMA) i = skipWhitespace(bytes, i + 1);
  }
  return found;
}

const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;

function skipWhitespace(bytes: Buffer, i: number): number {
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d)) i += 1;
  return i;
}

/** `bytes[i]` is the opening quote; returns the index after the closing one. UTF-8 continuation
 * bytes are >= 0x80, so they are never mistaken for a quote or a backslash. */
function skipString(bytes: Buffer, i: number): number {
  i += 1;
  while (i < bytes.length) {
    if (bytes[i] === BACKSLASH) i += 2;
    else if (bytes[i] === QUOTE) return i + 1;
    else i += 1;
  }
  throw new SyntaxError('unterminated string');
}

function skipValue(bytes: Buffer, i: number): number {
  const first = bytes[i];
  if (first === QUOTE) return skipString(bytes, i);
  if (first === OPEN_OBJECT || first === OPEN_ARRAY) {
    let depth = 0;
    while (i < bytes.length) {
      const byte = bytes[i];
      if (byte === QUOTE) {
        i = skipString(bytes, i);
        continue;
      }
      if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) depth += 1;
      else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
        depth -= 1;
        if (depth === 0) return i + 1;
      }
      i += 1;
    }
    throw new SyntaxError('unterminated value');
  }
  // number, true, false, null: up to the next delimiter
  while (i < bytes.length && ![COMMA, CLOSE_OBJECT, CLOSE_ARRAY, 0x20, 0x09, 0x0a, 0x0d].includes(bytes[i])) i += 1;
  return i;
}
