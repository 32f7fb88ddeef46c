import type { Request } from 'express';

/**
 * The common case of a JSON request body, read without body-parser's per-request machinery (on
 * the hot public routes it cost ~15 % of a minimal Express app's CPU per request, against ~1 % for
 * reading and parsing the same bytes: five stream listeners added and removed, an AsyncResource,
 * the Content-Type parsed two or three times, an iconv decoder built per body).
 *
 * Only a request whose headers leave nothing to interpret is taken: Content-Type exactly
 * `application/json` (optionally `; charset=utf-8`), a Content-Length within the limit, no
 * Content-Encoding or Transfer-Encoding, a stream nobody has started reading. Anything else returns
 * false and body-parser reads it as before. What it does with the bytes is what body-parser's
 * strict JSON parser does: UTF-8 decoding without a leading BOM, `{}` for an empty body, a
 * refusal of a body that does not start with `{` or `[`, JSON.parse; its errors carry the same
 * `type` (the error answers are chosen by it), and a differential test compares both readers.
 */
// body-parser's own test of the first character (strict mode).
// eslint-disable-next-line no-control-regex
const FIRST_NON_WHITESPACE = /^[\x20\x09\x0a\x0d]*([^\x20\x09\x0a\x0d]|$)/;

export function readCommonJsonBody(req: Request, limit: number, done: (error?: unknown) => void): boolean {
  const headers = req.headers;
  const contentType = headers['content-type'];
  if (contentType !== 'application/json' && contentType !== 'application/json; charset=utf-8') return false;
  if (headers['content-encoding'] !== undefined || headers['transfer-encoding'] !== undefined) return false;
  const length = headers['content-length'];
  if (length === undefined || !/^[0-9]{1,9}$/.test(length) || Number(length) > limit) return false;
  if (req.readableEnded || req.readableFlowing !== null || req.listenerCount('data') > 0 || req.listenerCount('readable') > 0) return false;

  if (!('body' in req)) (req as { body?: unknown }).body = undefined;
  const expected = Number(length);
  const chunks: Buffer[] = [];
  let received = 0;
  const cleanup = () => {
    req.removeListener('data', onData);
    req.removeListener('end', onEnd);
    req.removeListener('error', onError);
    req.removeListener('aborted', onAborted);
    req.removeListener('close', cleanup);
  };
  const fail = (type: string, cause?: unknown) => {
    cleanup();
    done(Object.assign(new Error(type), { type, status: 400, cause }));
  };
  function onData(chunk: Buffer) {
    received += chunk.length;
    chunks.push(chunk);
  }
  function onAborted() {
    fail('request.aborted');
  }
  function onError(error: unknown) {
    cleanup();
    done(error);
  }
  function onEnd() {
    cleanup();
    if (received !== expected) return fail('request.size.invalid');
    let text = Buffer.concat(chunks, received).toString('utf8');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (text.length === 0) {
      (req as { body?: unknown }).body = {};
      return done();
    }
    const first = FIRST_NON_WHITESPACE.exec(text)?.[1];
    if (first !== '{' && first !== '[') return fail('entity.parse.failed');
    try {
      (req as { body?: unknown }).body = JSON.parse(text);
    } catch (error) {
      return fail('entity.parse.failed', error);
    }
    done();
  }
  req.on('aborted', onAborted);
  req.on('close', cleanup);
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onError);
  return true;
}
