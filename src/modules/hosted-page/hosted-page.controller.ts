import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { randomBytes } from 'node:crypto';
import { PublicRoute } from '../../common/auth/index.js';
import { RateLimit } from '../../common/rate-limit/index.js';
import { escapeHtml } from '../mail/index.js';
import { HostedPageScript } from './hosted-page.script.js';
import { hostedPageCsp, renderHostedPage } from './hosted-page.renderer.js';
import { HostedPageService } from './hosted-page.service.js';

/** Headers every answer of the page carries: no caching of a payment page, no sniffing, no referrer, no framing. */
function setPageHeaders(res: Response, csp: string): void {
  res.setHeader('Content-Security-Policy', csp);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cache-Control', 'no-store');
}

/**
 * The hosted payment page (decisions §14): `GET /pay/{form_id}` outside the REST namespace and
 * its static script. Public (a payer has no login), rate limited like the public payment routes,
 * and not part of the REST interface, so absent from the OpenAPI document.
 */
@ApiExcludeController()
@Controller('pay')
export class HostedPageController {
  constructor(
    private readonly pages: HostedPageService,
    private readonly script: HostedPageScript,
  ) {}

  /** The page's script: a static file, the same for every form (it reads the form from the page). */
  @Get('assets/hosted-page.js')
  @PublicRoute()
  asset(@Res() res: Response): void {
    res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.setHeader('ETag', this.script.etag);
    res.send(this.script.source);
  }

  @Get(':form_id')
  @PublicRoute()
  @RateLimit('public_payment')
  async page(@Param('form_id') formId: string, @Res() res: Response): Promise<void> {
    const nonce = randomBytes(18).toString('base64');
    const id = /^[1-9]\d{0,9}$/.test(formId) ? Number(formId) : null;
    const view = id !== null && id <= 2_147_483_647 ? await this.pages.view(id) : null;
    if (!view) {
      setPageHeaders(res, hostedPageCsp(nonce, []));
      res.status(404).type('html').send(notFoundPage(nonce));
      return;
    }
    const scripts = [...(view.methods.some((m) => m.gateway === 'gateway_a') ? [view.gatewayAJsUrl] : []), ...(view.methods.some((m) => m.gateway === 'gateway_b') ? [view.gatewayBJsUrl] : [])];
    setPageHeaders(res, hostedPageCsp(nonce, scripts));
    res.status(200).type('html').send(renderHostedPage(view, nonce));
  }
}

function notFoundPage(nonce: string): string {
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Payment page not found</title>',
    `<style nonce="${escapeHtml(nonce)}">body{font-family:system-ui,sans-serif;margin:3rem;color:#1f2933}</style></head>`,
    '<body><h1>Payment page not found</h1><p>This payment form does not exist or is not published.</p></body></html>',
  ].join('');
}
