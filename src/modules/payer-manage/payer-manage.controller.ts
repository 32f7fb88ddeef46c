import { Body, Controller, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { randomBytes } from 'node:crypto';
import { PublicRoute } from '../../common/auth/index.js';
import { DomainError } from '../../common/errors/index.js';
import { choosePayerLocale, type PayerTranslator, payerTranslator } from '../../common/payer-language/index.js';
import { RateLimit } from '../../common/rate-limit/index.js';
import { positiveIdOf } from '../../common/validation/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { GatewayRegistry } from '../gateways/index.js';
import { SettingsService } from '../settings/index.js';
import { hostedPageCsp } from '../hosted-page/index.js';
import { PayerLinkEmails } from './payer-link-emails.js';
import { actionFailedPage, cancelConfirmPage, cardPage, linkNotFoundPage, linkRequestedPage, paymentsPage, receiptPage, requestLinkPage, tooOldToActPage } from './payer-manage.pages.js';
import { type PayerPaymentView, PayerManageService, type PayerSession } from './payer-manage.service.js';

/** An address as a link request takes it: one line, an @, at most 254 characters (no control characters). */
const ADDRESS = /^[^\s@\p{Cc}]{1,64}@[^\s@\p{Cc}]{1,189}$/u;

/**
 * Headers of every answer of the manage pages: the hosted page's strict CSP (forms post to this
 * origin only), no referrer (the link is a credential in the address bar), never cached, never framed.
 */
function setPageHeaders(res: Response, csp: string): void {
  res.setHeader('Content-Security-Policy', csp);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cache-Control', 'no-store');
  // The language follows the browser's Accept-Language.
  res.setHeader('Vary', 'Accept-Language');
}

/** The hosted page's policy, its forms allowed to post to this origin (the page's own POSTs, nowhere else). */
export function managePageCsp(nonce: string, libraries: Parameters<typeof hostedPageCsp>[1] = []): string {
  return hostedPageCsp(nonce, libraries, []).replace("form-action 'none'", "form-action 'self'");
}

/**
 * The payer's manage page (docs/hosted-page.md, "The payer's manage page"; docs/decisions.md §22):
 * `/pay/manage/{token}` beside `/pay/{form_id}`, outside the REST namespace and the OpenAPI
 * document. Public (the link is the payer's credential); every POST needs a same-origin request
 * and, below a link, the link's CSRF token.
 */
@ApiExcludeController()
@Controller('pay/manage')
export class PayerManageController {
  private readonly ownOrigin: string;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly manage: PayerManageService,
    private readonly linkEmails: PayerLinkEmails,
    private readonly registry: GatewayRegistry,
    private readonly settings: SettingsService,
  ) {
    this.ownOrigin = new URL(config.publicBaseUrl).origin;
  }

  @Get()
  @PublicRoute()
  @RateLimit('public_payment')
  async requestForm(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.send(res, 200, requestLinkPage(await this.translator(req)));
  }

  @Post('link')
  @HttpCode(200)
  @PublicRoute()
  @RateLimit('account_recovery')
  async requestLink(@Req() req: Request, @Body() body: unknown, @Res() res: Response): Promise<void> {
    if (!this.sameOrigin(req)) return this.forbidden(res);
    const t = await this.translator(req);
    const email = field(body, 'email_address')?.trim() ?? '';
    if (!ADDRESS.test(email)) {
      this.send(res, 400, requestLinkPage(t, true));
      return;
    }
    await this.linkEmails.request(email);
    this.send(res, 200, linkRequestedPage(t));
  }

  @Get(':token')
  @PublicRoute()
  @RateLimit('public_payment')
  async payments(@Req() req: Request, @Param('token') token: string, @Res() res: Response): Promise<void> {
    const session = await this.manage.session(token);
    if (!session) return this.notFound(req, res);
    const views = await this.manage.payments(session);
    this.send(res, 200, paymentsPage(session, views, undefined, await this.translator(req, views)));
  }

  @Get(':token/receipts/:payment_id')
  @PublicRoute()
  @RateLimit('public_payment')
  async receipt(@Req() req: Request, @Param('token') token: string, @Param('payment_id') paymentId: string, @Res() res: Response): Promise<void> {
    const found = await this.find(token, paymentId);
    if (!found) return this.notFound(req, res);
    this.send(res, 200, receiptPage(found.session, found.view, await this.translator(req, [found.view])));
  }

  /** A fresh link to the same address, asked from a link (too old to act, or any). */
  @Post(':token/link')
  @HttpCode(200)
  @PublicRoute()
  @RateLimit('account_recovery')
  async freshLink(@Req() req: Request, @Param('token') token: string, @Body() body: unknown, @Res() res: Response): Promise<void> {
    if (!this.sameOrigin(req)) return this.forbidden(res);
    const session = await this.manage.session(token);
    if (!session) return this.notFound(req, res);
    if (!this.manage.csrfMatches(session, field(body, 'csrf_token'))) return this.forbidden(res);
    await this.linkEmails.request(this.manage.freshLinkAddress(session));
    this.send(res, 200, linkRequestedPage(await this.translator(req)));
  }

  @Get(':token/subscriptions/:payment_id/cancel')
  @PublicRoute()
  @RateLimit('public_payment')
  async confirmCancel(@Req() req: Request, @Param('token') token: string, @Param('payment_id') paymentId: string, @Res() res: Response): Promise<void> {
    const found = await this.find(token, paymentId);
    if (!found || !found.view.cancelable) return this.notFound(req, res);
    const t = await this.translator(req, [found.view]);
    if (!found.session.canAct) return this.send(res, 403, tooOldToActPage(found.session, t));
    this.send(res, 200, cancelConfirmPage(found.session, found.view, t));
  }

  @Post(':token/subscriptions/:payment_id/cancel')
  @HttpCode(200)
  @PublicRoute()
  @RateLimit('public_payment')
  async cancel(@Req() req: Request, @Param('token') token: string, @Param('payment_id') paymentId: string, @Body() body: unknown, @Res() res: Response): Promise<void> {
    const found = await this.authorise(req, res, token, paymentId, body);
    if (!found) return;
    const { session, view } = found;
    const t = await this.translator(req, [view]);
    const cancellation = this.registry.find(view.payment.gateway)?.subscriptionCancellation;
    if (!view.cancelable || !cancellation) return this.send(res, 409, actionFailedPage(session, t.t('manage.cancel.refused'), t));
    try {
      await cancellation.cancel(held(view), true, 'payer');
    } catch (error) {
      if (error instanceof DomainError) return this.send(res, error.status, actionFailedPage(session, error.message, t));
      throw error;
    }
    this.send(res, 200, paymentsPage(session, await this.manage.payments(session), t.t('manage.cancel.done'), t));
  }

  /**
   * The card page: the gateway's element (its slice's browser driver mounts it, confirming a setup
   * the next route makes), then a form POST of the confirmed setup. The CSP admits the gateway's
   * library, as the hosted page's does.
   */
  @Get(':token/subscriptions/:payment_id/card')
  @PublicRoute()
  @RateLimit('public_payment')
  async cardForm(@Req() req: Request, @Param('token') token: string, @Param('payment_id') paymentId: string, @Res() res: Response): Promise<void> {
    const found = await this.find(token, paymentId);
    if (!found || !found.view.cardUpdatable) return this.notFound(req, res);
    const t = await this.translator(req, [found.view]);
    if (!found.session.canAct) return this.send(res, 403, tooOldToActPage(found.session, t));
    const element = await this.manage.cardElement(found.view);
    if (!element) return this.send(res, 503, actionFailedPage(found.session, t.t('manage.card.unavailable'), t));
    const pageNonce = nonce();
    setPageHeaders(res, managePageCsp(pageNonce, [element.checkout]));
    res.status(200).type('html').send(cardPage(found.session, found.view, { nonce: pageNonce, ...element.page }, t));
  }

  /** A new card's setup at the provider (JSON for the page's script): what the element confirms it with. */
  @Post(':token/subscriptions/:payment_id/card/setup')
  @HttpCode(200)
  @PublicRoute()
  @RateLimit('public_payment')
  async cardSetup(@Req() req: Request, @Param('token') token: string, @Param('payment_id') paymentId: string, @Body() body: unknown, @Res() res: Response): Promise<void> {
    const found = await this.authorise(req, res, token, paymentId, body);
    if (!found) return;
    const update = this.registry.find(found.view.payment.gateway)?.subscriptionCardUpdate;
    if (!found.view.cardUpdatable || !update) return this.json(res, 409, { code: 'checkout_invalid_state', message: 'This subscription takes no new card here.' });
    try {
      const setup = await update.start(held(found.view), 'payer');
      this.json(res, 200, { setup_intent: setup.setupRef, client_secret: setup.clientSecret });
    } catch (error) {
      if (error instanceof DomainError) return this.json(res, error.status, { code: error.code, message: error.message });
      throw error;
    }
  }

  /** The confirmed setup becomes the subscription's card; a past-due subscription's open invoice is paid with it once. */
  @Post(':token/subscriptions/:payment_id/card')
  @HttpCode(200)
  @PublicRoute()
  @RateLimit('public_payment')
  async changeCard(@Req() req: Request, @Param('token') token: string, @Param('payment_id') paymentId: string, @Body() body: unknown, @Res() res: Response): Promise<void> {
    const found = await this.authorise(req, res, token, paymentId, body);
    if (!found) return;
    const { session, view } = found;
    const t = await this.translator(req, [view]);
    const update = this.registry.find(view.payment.gateway)?.subscriptionCardUpdate;
    if (!view.cardUpdatable || !update) return this.send(res, 409, actionFailedPage(session, t.t('manage.card.none'), t));
    let result: { invoicePaid: boolean };
    try {
      result = await update.finish(held(view), field(body, 'setup_intent') ?? '', 'payer');
    } catch (error) {
      if (error instanceof DomainError) return this.send(res, error.status, actionFailedPage(session, error.message, t));
      throw error;
    }
    const notice = t.t(result.invoicePaid ? 'manage.card.changedPaid' : 'manage.card.changed');
    this.send(res, 200, paymentsPage(session, await this.manage.payments(session), notice, t));
  }

  /**
   * What every action POST checks, in this order: a same-origin request (403), a good link (404),
   * its CSRF token (403), a link young enough to act (403, offering a fresh one), a payment of
   * this payer (404). Null when it has answered.
   */
  private async authorise(req: Request, res: Response, token: string, paymentId: string, body: unknown): Promise<{ session: PayerSession; view: PayerPaymentView } | null> {
    if (!this.sameOrigin(req)) {
      this.forbidden(res);
      return null;
    }
    const session = await this.manage.session(token);
    if (!session) {
      await this.notFound(req, res);
      return null;
    }
    if (!this.manage.csrfMatches(session, field(body, 'csrf_token') ?? headerOf(req, 'x-csrf-token'))) {
      this.forbidden(res);
      return null;
    }
    if (!session.canAct) {
      this.send(res, 403, tooOldToActPage(session, await this.translator(req)));
      return null;
    }
    const id = positiveIdOf(paymentId);
    const view = id === null ? null : await this.manage.payment(session, id);
    if (!view) {
      await this.notFound(req, res);
      return null;
    }
    return { session, view };
  }

  private async find(token: string, paymentId: string): Promise<{ session: PayerSession; view: PayerPaymentView } | null> {
    const session = await this.manage.session(token);
    const id = positiveIdOf(paymentId);
    if (!session || id === null) return null;
    const view = await this.manage.payment(session, id);
    return view ? { session, view } : null;
  }

  /**
   * A browser's POST from this site's own page. `Sec-Fetch-Site`, when sent, must say
   * `same-origin`; `Origin`, when it names one, must be this origin (PUBLIC_BASE_URL's, or the
   * origin the request was addressed to: its scheme and Host). The pages send `Referrer-Policy:
   * no-referrer`, under which a browser's form POST carries `Origin: null`: then `Sec-Fetch-Site:
   * same-origin` is what proves it. A request proving neither (no header at all: not a browser, or
   * one too old to say) is refused. No CORS_ORIGINS exception.
   */
  private sameOrigin(req: Request): boolean {
    const origin = headerOf(req, 'origin');
    const site = headerOf(req, 'sec-fetch-site')?.toLowerCase();
    if (site !== undefined && site !== 'same-origin') return false;
    if (origin !== undefined && origin !== 'null') return origin === this.ownOrigin || origin === addressedOrigin(req);
    return site === 'same-origin';
  }

  private json(res: Response, status: number, body: Record<string, unknown>): void {
    setPageHeaders(res, managePageCsp(nonce()));
    res.status(status).json(body);
  }

  private async notFound(req: Request, res: Response): Promise<void> {
    this.send(res, 404, linkNotFoundPage(await this.translator(req)));
  }

  /**
   * The page's language: the browser's Accept-Language, else the language of the payer's latest
   * payment shown (the one its page used), else the site's default.
   */
  private async translator(req: Request, views: readonly PayerPaymentView[] = []): Promise<PayerTranslator> {
    const latest = [...views].sort((a, b) => b.payment.created_at.localeCompare(a.payment.created_at)).find((view) => view.payment.locale)?.payment.locale;
    const fallback = latest ?? (await this.settings.payerLanguage());
    return payerTranslator(choosePayerLocale({ acceptLanguage: req.headers['accept-language'], siteDefault: fallback }));
  }

  private forbidden(res: Response): void {
    res.status(403);
    setPageHeaders(res, managePageCsp(nonce()));
    res.type('text/plain').send('Forbidden: this request did not come from this page.');
  }

  private send(res: Response, status: number, html: string): void {
    setPageHeaders(res, managePageCsp(nonce()));
    res.status(status).type('html').send(html);
  }
}

function held(view: PayerPaymentView): { id: number; mode: PayerPaymentView['payment']['mode']; provider_subscription_ref: string } {
  return { id: view.payment.id, mode: view.payment.mode, provider_subscription_ref: view.payment.provider_subscription_ref! };
}

function nonce(): string {
  return randomBytes(18).toString('base64');
}

function field(body: unknown, name: string): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}

/** The origin the request was sent to: its scheme (X-Forwarded-Proto only behind TRUST_PROXY) and Host. */
function addressedOrigin(req: Request): string | null {
  if (!req.host) return null;
  try {
    return new URL(`${req.protocol}://${req.host}`).origin;
  } catch {
    return null;
  }
}

function headerOf(req: Request, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}
