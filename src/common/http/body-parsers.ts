import type { INestApplication } from '@nestjs/common';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { wpError } from '../errors/wp-error.js';

export type RawBodyRequest = Request & { rawBody?: Buffer };

/**
 * JSON and form-encoded parsers that keep the raw bytes (webhook signatures are verified on them),
 * enforce the size limits (webhooks get their own), and answer parse failures in WP_Error shape
 * before any handler runs.
 */
export function installBodyParsers(app: INestApplication, options: { webhookPathPrefix: string; limit: number; webhookLimit: number }): void {
  const keepRaw = (req: Request, _res: Response, buffer: Buffer) => {
    (req as RawBodyRequest).rawBody = buffer;
  };
  const parsersFor = (limit: number): RequestHandler[] => [
    express.json({ limit, verify: keepRaw, type: ['application/json', 'application/*+json'] }),
    express.urlencoded({ limit, verify: keepRaw, extended: true, parameterLimit: 200 }),
  ];
  const general = parsersFor(options.limit);
  const webhook = parsersFor(options.webhookLimit);

  app.use((req: Request, res: Response, next: NextFunction) => {
    const chain = req.path.startsWith(options.webhookPathPrefix) ? webhook : general;
    runChain(chain, req, res, (error?: unknown) => {
      if (error) return sendParseError(res, error);
      if (req.body !== undefined && (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body))) {
        return res.status(400).json(wpError('rest_invalid_json', 'The request body must be a JSON object.', 400));
      }
      if (nestedDeeperThan(req.body, MAX_BODY_DEPTH)) {
        return res.status(400).json(wpError('rest_invalid_json', `The request body is nested more than ${MAX_BODY_DEPTH} levels deep.`, 400));
      }
      next();
    });
  });
}

/**
 * Deepest nesting a body may have. No route needs more than a handful of levels; a few thousand
 * overflow the stack of the (recursive) DTO transformation, which would answer 500.
 */
const MAX_BODY_DEPTH = 32;

/** Whether objects/arrays in `value` nest deeper than `max` levels (iterative: no recursion to overflow). */
function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth > max) return true;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return false;
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
