import { Controller, Get, Headers, Inject, Param, Query, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { randomBytes } from 'node:crypto';
import { PublicRoute } from '../../common/auth/index.js';
import { choosePayerLocale, payerTranslator } from '../../common/payer-language/index.js';
import { RateLimit } from '../../common/rate-limit/index.js';
import { positiveIdOf } from '../../common/validation/index.js';
import { APP_CONFIG, type AppConfig, REST_NAMESPACE } from '../../config/index.js';
import { accentStylesheet, FormStylesheet, FormViewService, localizePayerForm } from '../form-view/index.js';
import { hostedPageCsp, notFoundPage, pageGateways, renderHostedPage, unavailablePage } from './hosted-page.renderer.js';
import { PageBundles } from './page-bundles.js';

/**
 * Headers every answer of the page carries: no caching of a payment page, no sniffing, no
 * referrer, and no framing unless EMBED_ORIGINS lists the framing page's origin (the CSP's
 * `frame-ancestors`; `X-Frame-Options` can name no list of origins, so it is sent, as DENY, only
 * while no origin may frame the page).
 */
function setPageHeaders(res: Response, csp: string, embedOrigins: readonly string[]): void {
  res.setHeader('Content-Security-Policy', csp);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  if (embedOrigins.length === 0) res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cache-Control', 'no-store');
  // The language follows the browser's Accept-Language (a form's `auto` locale).
  res.setHeader('Vary', 'Accept-Language');
}

/** A static asset: the same bytes for every form, revalidated with its ETag (`immutable`: a name that carries its content hash). */
function sendAsset(res: Response, type: string, asset: { source: string; etag: string }, maxAgeSeconds: number, immutable = false): void {
  res.setHeader('Content-Type', type);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cache-Control', `public, max-age=${maxAgeSeconds}${immutable ? ', immutable' : ''}`);
  res.setHeader('ETag', asset.etag);
  res.send(asset.source);
}

/**
 * The hosted payment page (docs/decisions.md §14): `GET /pay/{form_id}` outside the REST namespace and
 * its static assets (the built scripts: the page's and the gateway slices' drivers, the form
 * stylesheet shared with the builder's live preview, the accent stylesheets). Public (a payer has no login), rate limited like the public payment
 * routes, and not part of the REST interface, so absent from the OpenAPI document.
 */
@ApiExcludeController()
@Controller('pay')
export class HostedPageController {
  private readonly stylesheet = new FormStylesheet();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly views: FormViewService,
    private readonly bundles: PageBundles,
  ) {}

  /** The form's stylesheet (also linked by the builder's live preview). */
  @Get('assets/form.css')
  @PublicRoute()
  formStylesheet(@Res() res: Response): void {
    sendAsset(res, 'text/css; charset=utf-8', this.stylesheet, 300);
  }

  /** `--accent` for one colour (`2563eb.css`); the same name always gives the same bytes, so it is cached for a year. */
  @Get('assets/accent/:file')
  @PublicRoute()
  accentStylesheet(@Param('file') file: string, @Res() res: Response): void {
    const sheet = accentStylesheet(file);
    if (!sheet) {
      res.status(404).type('text/plain').send('Not found');
      return;
    }
    sendAsset(res, 'text/css; charset=utf-8', sheet, 31_536_000);
  }

  /**
   * A built script of the page (the page's own, a gateway slice's driver): the same for every form
   * (it reads the form from the page). Its name carries its content hash, so it is cached for a
   * year as immutable; a new build gives new names, which the page (no-store) names at once.
   */
  @Get('assets/:file')
  @PublicRoute()
  bundle(@Param('file') file: string, @Res() res: Response): void {
    const script = this.bundles.file(file);
    if (!script) {
      res.status(404).type('text/plain').send('Not found');
      return;
    }
    sendAsset(res, 'text/javascript; charset=utf-8', script, 31_536_000, true);
  }

  /**
   * The embed script of a merchant's page (`<script src=…/pay/embed.js data-form-id=…>`): the same
   * for every form and every site. Whether a site may frame the page is the page's own
   * `frame-ancestors` (EMBED_ORIGINS), not this script's business.
   */
  @Get('embed.js')
  @PublicRoute()
  embed(@Res() res: Response): void {
    if (!this.bundles.embed) {
      res.status(404).type('text/plain').send('Not found');
      return;
    }
    sendAsset(res, 'text/javascript; charset=utf-8', this.bundles.embed, 300);
  }

  @Get(':form_id')
  @PublicRoute()
  @RateLimit('public_payment')
  async page(
    @Param('form_id') formId: string,
    @Query('embed') embed: unknown,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Res() res: Response,
  ): Promise<void> {
    const nonce = randomBytes(18).toString('base64');
    const origins = this.config.embedOrigins;
    const id = positiveIdOf(formId);
    const view = id !== null ? await this.views.published(id) : null;
    const siteDefault = await this.views.defaultPayerLocale();
    const t = payerTranslator(choosePayerLocale({ formLocale: view?.form.locale, acceptLanguage, siteDefault }));
    if (!view) {
      setPageHeaders(res, hostedPageCsp(nonce, [], origins), origins);
      res.status(404).type('html').send(notFoundPage(t));
      return;
    }
    const pageScript = this.bundles.pageScript;
    if (pageScript === null) {
      setPageHeaders(res, hostedPageCsp(nonce, [], origins), origins);
      res.status(503).type('html').send(unavailablePage(t));
      return;
    }
    const scripts = { pageScript, driver: (name: string) => this.bundles.driver(name) };
    setPageHeaders(res, hostedPageCsp(nonce, pageGateways(view, scripts).map((entry) => entry.checkout), origins), origins);
    // `?embed=1` only changes the layout (no page margins); a frame from an origin not listed is refused by the browser anyway.
    res.status(200).type('html').send(renderHostedPage({ ...view, form: localizePayerForm(view.form, t.locale) }, nonce, `/${this.config.restRoot}/${REST_NAMESPACE}`, scripts, { embedded: embed === '1', origins }, t));
  }
}
