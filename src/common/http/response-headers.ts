import type { INestApplication } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';

/**
 * Headers every answer starts with, set before anything else runs (so the body parsers' 400/413,
 * a 404, an error and a guard's refusal carry them too):
 *
 * - `X-Content-Type-Options: nosniff`: a browser never guesses a type other than the one declared
 *   (a JSON error echoing a field value is never run as HTML or script).
 * - `Cache-Control: no-store`: answers hold payment secrets, checkout tokens, provider client
 *   secrets, webhook signing secrets, payer data; no browser or proxy cache may keep any of them.
 *   It is the default rather than a per-route opt-in so that a new route that returns a secret
 *   cannot forget it. A route whose answer is public and meant to be cached sets its own
 *   `Cache-Control` (the bundled template previews, the hosted page's script), which replaces it.
 */
export function installResponseHeaders(app: INestApplication): void {
  app.use((_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
}
