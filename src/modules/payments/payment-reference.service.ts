import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { CryptoService } from '../../common/crypto/index.js';
import { DomainError } from '../../common/errors/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import type { CheckoutGateway } from '../gateways/index.js';
import { CheckoutContextService, FormNotPublishedError } from './checkout-context.service.js';
import type { PaymentEntity } from './payment.entity.js';
import type { PaymentReferenceDto } from './payment-reference.dto.js';
import { type PaymentRecord, toPaymentRecord } from './payment-record.js';
import { PaymentRepository } from './payment.repository.js';
import { type CheckoutTokenClaims, type Hmac, isPaymentSecret, paymentSecret, readCheckoutToken, signCheckoutToken } from './payment-tokens.js';

/** 403 for any payment reference that does not check out; the message never says which part failed. */
export class InvalidPaymentReferenceError extends DomainError {
  constructor() {
    super('checkout_invalid_payment_reference', 403, 'The payment reference is not valid, or the checkout token has expired.');
  }
}

export interface VerifyOptions {
  /** The gateway the route serves; a reference for another gateway is refused. */
  gateway?: CheckoutGateway;
  /** The route opens a checkout at the provider (an intent, an order): 409 when the form is not published. */
  opensCheckout?: boolean;
}

/**
 * Issues and checks the public credentials of a payment record (docs/decisions.md §5): the payment
 * secret (HMAC over id + per-row nonce, never stored) and the checkout token (signed, expiring,
 * bound to payment, form, gateway, method, amount, currency and mode).
 */
@Injectable()
export class PaymentReferenceService {
  private readonly logger = new Logger('PaymentReference');
  private readonly secretHmac: Hmac;
  private readonly tokenHmac: Hmac;
  /** The same, under the current secret then CHECKOUT_SECRET_PREVIOUS during a rotation: what a check accepts. */
  private readonly secretVerifiers: Hmac[];
  private readonly tokenVerifiers: Hmac[];

  constructor(
    crypto: CryptoService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly payments: PaymentRepository,
    private readonly context: CheckoutContextService,
  ) {
    this.secretHmac = (data) => crypto.hmac('payment-secret', data);
    this.tokenHmac = (data) => crypto.hmac('checkout-token', data);
    this.secretVerifiers = crypto.hmacSigners('payment-secret');
    this.tokenVerifiers = crypto.hmacSigners('checkout-token');
  }

  /** A fresh per-row nonce: 32 random bytes, base64url (43 characters, the column's size). */
  newNonce(): string {
    return randomBytes(32).toString('base64url');
  }

  secretOf(row: Pick<PaymentEntity, 'id' | 'secretNonce'>): string {
    return paymentSecret(this.secretHmac, row.id, row.secretNonce);
  }

  hasSecret(row: Pick<PaymentEntity, 'id' | 'secretNonce'>, candidate: unknown): boolean {
    return typeof candidate === 'string' && this.secretVerifiers.some((hmac) => isPaymentSecret(hmac, row.id, row.secretNonce, candidate));
  }

  issueToken(payment: PaymentRecord): { token: string; expiresAt: Date } {
    const now = Date.now();
    const token = signCheckoutToken(this.tokenHmac, claimsOf(payment), now, this.config.checkoutTokenTtlSeconds);
    return { token, expiresAt: new Date((Math.floor(now / 1000) + this.config.checkoutTokenTtlSeconds) * 1000) };
  }

  /**
   * Every check of docs/decisions.md §5 for a public payment route, before anything is written or any
   * provider is called: the record exists, the secret matches, the token is genuine and unexpired,
   * the request, the token and the record agree on form, gateway, method, amount, currency and
   * mode, the gateway is connected in the site's current mode and the method is enabled on the
   * gateway and on the form. Returns the record; throws 403 otherwise.
   */
  async verify(reference: PaymentReferenceDto, options: VerifyOptions = {}): Promise<PaymentRecord> {
    const refuse = (reason: string): never => {
      this.logger.debug({ payment_id: reference.payment_id, reason }, 'payment reference refused');
      throw new InvalidPaymentReferenceError();
    };
    if (options.gateway && reference.payment_gateway !== options.gateway) refuse('route serves another gateway');
    const row = await this.payments.findById(reference.payment_id);
    if (!row) return refuse('unknown payment');
    if (!this.hasSecret(row, reference.payment_secret)) refuse('wrong secret');
    const now = Date.now();
    const token = this.tokenVerifiers.reduce<ReturnType<typeof readCheckoutToken>>((found, hmac) => found ?? readCheckoutToken(hmac, reference.checkout_token, now), null);
    if (!token) return refuse('invalid or expired token');
    const payment = toPaymentRecord(row);
    const requested: Omit<CheckoutTokenClaims, 'mode'> = {
      payment_id: reference.payment_id,
      form_id: reference.form_id,
      gateway: reference.payment_gateway,
      payment_method: reference.payment_method,
      amount: reference.amount,
      currency: reference.currency,
    };
    const stored = claimsOf(payment);
    for (const [field, value] of Object.entries(requested) as Array<[keyof CheckoutTokenClaims, unknown]>) {
      if (token[field] !== value) refuse(`${field} differs from the token`);
      if (stored[field] !== value) refuse(`${field} differs from the record`);
    }
    if (token.mode !== stored.mode) refuse('mode differs between token and record');
    const availability = await this.context.availability({ formId: reference.form_id, gateway: reference.payment_gateway, method: reference.payment_method, mode: token.mode });
    if (availability === 'unavailable') refuse('gateway, mode or method no longer available');
    if (availability === 'unpublished' && options.opensCheckout) throw new FormNotPublishedError();
    return payment;
  }
}

function claimsOf(payment: PaymentRecord): CheckoutTokenClaims {
  return {
    payment_id: payment.id,
    form_id: payment.form_id ?? 0,
    gateway: payment.gateway,
    payment_method: payment.payment_method,
    amount: payment.amount,
    currency: payment.currency,
    mode: payment.mode,
  };
}
