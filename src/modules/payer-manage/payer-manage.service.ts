import { Injectable } from '@nestjs/common';
import { CryptoService } from '../../common/crypto/index.js';
import { type FormTranslation, FormsService, type PaymentForm } from '../forms/index.js';
import { GatewayRegistry, type HostedCheckout } from '../gateways/index.js';
import { escapeHtml } from '../../common/html/index.js';
import { PageBundles } from '../hosted-page/index.js';
import { PayerLinks } from '../payer-links/index.js';
import { type PaymentRecord, PaymentQueriesService } from '../payments/index.js';

/** Payments a page lists at most (newest first). */
export const PAYER_PAYMENTS_SHOWN = 100;
/** Subscription statuses with nothing left to cancel or pay. */
const ENDED_SUBSCRIPTION = new Set(['canceled', 'incomplete_expired']);

/** A verified link: the payer's address, when it was issued and whether it may still act. */
export interface PayerSession {
  token: string;
  email: string;
  issuedAt: Date;
  canAct: boolean;
  /** The CSRF token of this link's forms (an HMAC of the link: bound to it, useless with another). */
  csrf: string;
}

/** One payment as the manage page shows it, with what the payer may do with it. */
export interface PayerPaymentView {
  payment: PaymentRecord;
  /** The form's title as written; null when the payment has no form. The page shows it in its own language (payer-manage.pages.ts) */
  formTitle: string | null;
  /** The form's email sender name, when it names one */
  fromName: string | null;
  /** The form's own texts per payer language (`settings.translations`) */
  formTranslations: readonly FormTranslation[];
  /** A gateway-A-style subscription (first payment) the gateway can cancel now at the period's end */
  cancelable: boolean;
  /** Its card can be changed here (the gateway offers it and the subscription has not ended) */
  cardUpdatable: boolean;
}

/**
 * The payer's manage page's reads and rules (docs/hosted-page.md, "The payer's manage page"): a
 * link is verified through PayerLinks; a payment is the payer's only when its address is the
 * link's (compared lower-cased), so a link never shows or acts on another payer's payment.
 */
@Injectable()
export class PayerManageService {
  constructor(
    private readonly links: PayerLinks,
    private readonly crypto: CryptoService,
    private readonly queries: PaymentQueriesService,
    private readonly forms: FormsService,
    private readonly registry: GatewayRegistry,
    private readonly bundles: PageBundles,
  ) {}

  /** The session of a link, or null for a bad, tampered, revoked or expired one. */
  async session(token: string): Promise<PayerSession | null> {
    const claims = await this.links.verify(token);
    if (!claims) return null;
    return { token, email: claims.email, issuedAt: claims.issuedAt, canAct: this.links.canAct(claims), csrf: this.csrfFor(token) };
  }

  /** Whether `submitted` is the CSRF token of `session`'s link (constant time). */
  csrfMatches(session: PayerSession, submitted: unknown): boolean {
    return typeof submitted === 'string' && this.crypto.safeEqual(submitted, session.csrf);
  }

  /** The payer's payments on this site, newest first. */
  async payments(session: PayerSession): Promise<PayerPaymentView[]> {
    const records = await this.queries.findByPayerEmail(session.email, PAYER_PAYMENTS_SHOWN);
    const forms = new Map<number, PaymentForm | null>();
    const views: PayerPaymentView[] = [];
    for (const payment of records) {
      if (payment.form_id !== null && !forms.has(payment.form_id)) forms.set(payment.form_id, await this.forms.findById(payment.form_id));
      views.push(this.view(payment, payment.form_id === null ? null : (forms.get(payment.form_id) ?? null)));
    }
    return views;
  }

  /** One of the payer's payments, or null when there is none with this id for this address. */
  async payment(session: PayerSession, paymentId: number): Promise<PayerPaymentView | null> {
    const payment = await this.queries.findById(paymentId);
    if (!payment || payment.status === 'pending' || payment.email_address?.toLowerCase() !== session.email) return null;
    return this.view(payment, payment.form_id === null ? null : await this.forms.findById(payment.form_id));
  }

  /**
   * What the card page needs: the gateway's library (for the CSP) and the page's markup (the
   * manage script, the container naming the slice's card driver, the library and its public
   * values). Null while the scripts are not built or the gateway's mode is not connected.
   */
  async cardElement(view: PayerPaymentView): Promise<{ checkout: HostedCheckout; page: { pageScript: string; container: string } } | null> {
    const adapter = this.registry.find(view.payment.gateway);
    const checkout = adapter?.hostedCheckout;
    const update = adapter?.subscriptionCardUpdate;
    const pageScript = this.bundles.manageScript;
    const driverScript = update ? this.bundles.driver(update.driver) : null;
    const browser = adapter?.browserConfig ? await adapter.browserConfig(view.payment.mode) : null;
    if (!checkout || !update || !pageScript || !driverScript || !browser) return null;
    const container =
      `<div class="provider" id="card-provider" data-driver="${escapeHtml(update.driver)}" data-driver-src="${escapeHtml(driverScript)}"` +
      ` data-library-url="${escapeHtml(checkout.libraryUrl)}" data-browser-config="${escapeHtml(JSON.stringify(browser))}">` +
      `<div class="provider-mount driver-payment_element" id="card-mount"></div></div>`;
    return { checkout, page: { pageScript, container } };
  }

  /** The address a fresh link goes to for a session (the same payer). */
  freshLinkAddress(session: PayerSession): string {
    return session.email;
  }

  private view(payment: PaymentRecord, form: PaymentForm | null): PayerPaymentView {
    const adapter = this.registry.find(payment.gateway);
    const subscription =
      payment.parent_payment_id === null && payment.frequency !== 'one-time' && payment.provider_subscription_ref !== null && payment.status === 'completed' && !ENDED_SUBSCRIPTION.has(payment.subscription_status ?? '');
    return {
      payment,
      formTitle: form?.title ?? null,
      fromName: form?.settings.email.from_name || null,
      formTranslations: form?.settings.translations ?? [],
      cancelable: subscription && adapter?.subscriptionCancellation !== undefined && !payment.subscription_cancel_at_period_end,
      cardUpdatable: subscription && adapter?.subscriptionCardUpdate !== undefined,
    };
  }

  private csrfFor(token: string): string {
    return this.crypto.hmac('payer-manage-csrf', token).toString('base64url');
  }
}

/** An HMAC of the address for a counter's key, so no address is written to Redis or memory as such. */
export function addressKey(crypto: CryptoService, email: string): string {
  return crypto.hmac('payer-link-request', email.trim().toLowerCase()).toString('base64url').slice(0, 32);
}

