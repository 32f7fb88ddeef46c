import type { INestApplication } from '@nestjs/common';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { wpError } from '../errors/index.js';
import { readCommonJsonBody } from './json-body.js';

export type RawBodyRequest = Request & { rawBody?: Buffer };

/**
 * JSON and form-encoded parsers that keep the raw bytes (webhook signatures are verified on them),
 * enforce the size limits (webhooks get their own), and answer parse failures in WP_Error shape
 * before any handler runs. Field names that reach into JavaScript's object machinery
 * (`__proto__`, `constructor`, `prototype`) are refused here, in the body and in the query string,
 * for every route: class-transformer crashes on them (a 500 from any DTO, guard or pipe that
 * transforms the body), Nest's ValidationPipe would silently drop them, and the form and query
 * parsers (qs) silently drop `__proto__` but keep the others. Webhook routes are exempt (below).
 */
export function installBodyParsers(
  app: INestApplication,
  options: { webhookPathPrefix: string; limit: number; webhookLimit: number; /** For the differential test only. */ commonJsonReader?: boolean },
): void {
  const commonJsonReader = options.commonJsonReader ?? true;
  const keepRaw = (req: Request, _res: Response, buffer: Buffer) => {
    (req as RawBodyRequest).rawBody = buffer;
  };
  // The raw bytes are kept where something reads them: signed webhook bodies, and form-encoded
  // bodies (reservedFormKey). A JSON body elsewhere is only parsed: keeping its bytes made
  // body-parser read a Buffer, then decode it whole, and added a property to every request.
  const parsersFor = (limit: number, keepJsonRaw: boolean): RequestHandler[] => [
    express.json({ limit, type: ['application/json', 'application/*+json'], ...(keepJsonRaw ? { verify: keepRaw } : {}) }),
    express.urlencoded({ limit, verify: keepRaw, extended: true, parameterLimit: 200 }),
  ];
  const general = parsersFor(options.limit, false);
  const webhookParsers = parsersFor(options.webhookLimit, true);

  app.use((req: Request, res: Response, next: NextFunction) => {
    const webhook = req.path.startsWith(options.webhookPathPrefix);
    // No body (a GET, HEAD or DELETE without Content-Length or Transfer-Encoding): the parsers
    // would only check that and pass; skipping them saves their per-request work on every read.
    const bodiless = !hasBody(req);
    if (bodiless && !('body' in req)) (req as { body?: unknown }).body = undefined; // as the parsers leave it
    const chain = bodiless ? NO_PARSERS : webhook ? webhookParsers : general;
    const parsed = (error?: unknown) => {
      if (error) return sendParseError(res, error);
      if (req.body !== undefined && (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body))) {
        return res.status(400).json(wpError('rest_invalid_json', 'The request body must be a JSON object.', 400));
      }
      const shape = inspectBody(req.body, MAX_BODY_DEPTH);
      if (shape.tooDeep) {
        return res.status(400).json(wpError('rest_invalid_json', `The request body is nested more than ${MAX_BODY_DEPTH} levels deep.`, 400));
      }
      // Not on webhooks: their routes read the signed raw bytes (no DTO), and a provider event may
      // carry such a key in metadata another API user of the account wrote; refusing it would make
      // the provider retry the event and eventually disable the endpoint.
      const reserved = webhook ? null : (shape.reservedKey ?? reservedFormKey(req) ?? reservedQueryKey(req));
      if (reserved) {
        return res
          .status(400)
          .json(wpError('rest_invalid_param', `Invalid parameter(s): ${reserved}`, 400, { params: { [reserved]: `${reserved} is not an allowed field name` } }));
      }
      next();
    };
    // The common JSON body of a public route skips body-parser (json-body.ts); everything else goes through it.
    if (bodiless || webhook || !commonJsonReader || !readCommonJsonBody(req, options.limit, parsed)) runChain(chain, req, res, parsed);
  });
}

const NO_PARSERS: RequestHandler[] = [];

/** The test body-parser (type-is `hasBody`) makes before it reads anything. */
function hasBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || !Number.isNaN(Number(req.headers['content-length']));
}

/**
 * Deepest nesting a body may have. No route needs more than a handful of levels; a few thousand
 * overflow the stack of the (recursive) DTO transformation, which would answer 500.
 */
const MAX_BODY_DEPTH = 32;

/** Field names no request may use (see installBodyParsers). */
const RESERVED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * One walk over the parsed body (iterative: no recursion to overflow): whether objects/arrays nest
 * deeper than `max` levels, and the dotted path of the first reserved key (JSON.parse keeps
 * `"__proto__"` as an own key, so it is seen here).
 */
function inspectBody(value: unknown, max: number): { tooDeep: boolean; reservedKey?: string } {
  if (typeof value !== 'object' || value === null) return { tooDeep: false };
  // Only objects and arrays are stacked (a scalar has nothing below it), and a path is built only for them.
  const stack: Array<[object, number, string]> = [[value, 1, '']];
  while (stack.length > 0) {
    const [current, depth, path] = stack.pop()!;
    if (depth > max) return { tooDeep: true };
    for (const key of Object.keys(current)) {
      if (RESERVED_KEYS.has(key)) return { tooDeep: false, reservedKey: path ? `${path}.${key}` : key };
      const child = (current as Record<string, unknown>)[key];
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1, path ? `${path}.${key}` : key]);
    }
  }
  return { tooDeep: false };
}

/**
 * A reserved segment in the keys of a form-encoded body (`__proto__[x]=1`, `a[constructor]=1`),
 * read from the raw bytes because qs drops `__proto__` before the parsed body can show it.
 */
function reservedFormKey(req: Request): string | null {
  const raw = (req as RawBodyRequest).rawBody;
  if (!raw || !req.is('application/x-www-form-urlencoded')) return null;
  return reservedKeyIn(raw.toString('latin1'));
}

/** The same for the query string, which Express parses with qs as well ('query parser' extended). */
function reservedQueryKey(req: Request): string | null {
  const at = req.originalUrl.indexOf('?');
  return at === -1 ? null : reservedKeyIn(req.originalUrl.slice(at + 1));
}

function reservedKeyIn(encoded: string): string | null {
  for (const pair of encoded.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const key = decodeKey(equals === -1 ? pair : pair.slice(0, equals));
    // qs reads `a[b][c]` as a → b → c (and stops at its depth limit, which only makes this stricter).
    const segments = key.split(/[[\]]/).filter((segment) => segment !== '');
    const at = segments.findIndex((segment) => RESERVED_KEYS.has(segment));
    if (at !== -1) return segments.slice(0, at + 1).join('.');
  }
  return null;
}

/** As qs decodes a key: `+` is a space, percent-escapes are decoded, a malformed escape leaves the key as it is. */
function decodeKey(key: string): string {
  const spaced = key.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

function runChain(chain: RequestHandler[], req: Request, res: Response, done: (error?: unknown) => void, index = 0): void {
  if (index >= chain.length) return done();
  chain[index](req, res, (error?: unknown) => (error ? done(error) : runChain(chain, req, res, done, index + 1)));
}

function sendParseError(res: Response, error: unknown): void {
  const type = (error as { type?: string }).type;
  if (type === 'entity.too.large') {
    res.status(413).json(wpError('checkout_payload_too_large', 'The request body is too large.', 413));
  } else if (type === 'entity.parse.failed') {
    res.status(400).json(wpError('rest_invalid_json', 'The request body is not valid JSON.', 400));
  } else if (type === 'parameters.too.many') {
    res.status(413).json(wpError('checkout_payload_too_large', 'The request has too many parameters.', 413));
  } else {
    res.status(400).json(wpError('rest_invalid_request', 'The request body could not be read.', 400));
  }
}
