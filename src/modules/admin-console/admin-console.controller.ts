import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { PublicRoute } from '../../common/auth/index.js';
import { ConsoleFiles } from './console-files.js';

/**
 * The console's page: scripts, styles, connections and frames from this origin only (the
 * builder's live preview is a same-origin frame), never framed itself, nothing inline.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

const NOT_BUILT_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Admin console not built</title></head>' +
  '<body><h1>The admin console is not built</h1><p>Run <code>npm run build</code> (or <code>npm start</code>, which builds it) and reload.</p></body></html>';

function commonHeaders(res: Response): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
}

/**
 * The admin console (a single-page app built from `console/`) at `/admin/`, outside the REST
 * namespace and the OpenAPI document. Public like any static page: it holds no data; every
 * screen reads the API through the generated client with the signed-in session.
 * Hashed assets are cached for a year; the page itself is revalidated on every load, so a new
 * release is picked up at once. Any other path under /admin/ is a client-side route: the page.
 */
@ApiExcludeController()
@Controller('admin')
export class AdminConsoleController {
  constructor(private readonly files: ConsoleFiles) {}

  @Get('assets/:name')
  @PublicRoute()
  asset(@Param('name') name: string, @Req() req: Request, @Res() res: Response): void {
    const asset = this.files.asset(name);
    commonHeaders(res);
    if (!asset) {
      res.setHeader('Cache-Control', 'no-store');
      res.status(404).type('text/plain').send('Not found');
      return;
    }
    res.setHeader('Content-Type', asset.contentType);
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.setHeader('ETag', asset.etag);
    if (asset.compressible) res.setHeader('Vary', 'Accept-Encoding');
    if (req.headers['if-none-match'] === asset.etag) {
      res.status(304).end();
      return;
    }
    // Express's negotiation honours q-values, so `gzip;q=0` is a refusal.
    const gzip = asset.compressible && req.acceptsEncodings('gzip', 'identity') === 'gzip';
    if (gzip) res.setHeader('Content-Encoding', 'gzip');
    res.status(200).end(gzip ? asset.gzip() : asset.body);
  }

  @Get()
  @PublicRoute()
  root(@Res() res: Response): void {
    this.page(res);
  }

  @Get('*path')
  @PublicRoute()
  route(@Res() res: Response): void {
    this.page(res);
  }

  private page(res: Response): void {
    commonHeaders(res);
    res.setHeader('Content-Security-Policy', CONSOLE_CSP);
    res.setHeader('Cache-Control', 'no-cache');
    if (this.files.indexHtml === null) {
      res.status(503).type('html').send(NOT_BUILT_PAGE);
      return;
    }
    res.status(200).type('html').send(this.files.indexHtml);
  }
}
