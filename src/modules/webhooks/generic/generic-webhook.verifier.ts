import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { Clock } from '../../../common/clock/index.js';
import { SIGNATURE_TOLERANCE_SECONDS, verifyTimestampedSignature } from '../../../common/crypto/index.js';
import { DomainError, UnavailableError } from '../../../common/errors/index.js';
import { type WebhookDelivery, type WebhookVerifier, WebhookVerifiers } from '../webhook-verifiers.js';
import { InvalidSignatureError } from '../webhook.errors.js';
import { GenericWebhookSecret } from './generic-webhook-secret.service.js';

export const GENERIC_WEBHOOK_SCHEME = 'checkout_generic';
export const GENERIC_SIGNATURE_HEADER = 'Checkout-Signature';

/**
 * `@SignedWebhookRoute('checkout_generic')`: `Checkout-Signature: t=<unix seconds>,v1=<hex
 * HMAC-SHA256(secret, "t.raw-body")>` (gateway A's scheme, the same pure check) keyed with the
 * site's generic webhook secret, 300 s tolerance, on the raw bytes. A secret that cannot be read
 * is 503, never a 500 for an unauthenticated caller.
 */
@Injectable()
export class GenericWebhookVerifier implements WebhookVerifier, OnModuleInit {
  readonly scheme = GENERIC_WEBHOOK_SCHEME;
  private readonly logger = new Logger('GenericWebhook');

  constructor(
    private readonly secret: GenericWebhookSecret,
    private readonly clock: Clock,
    private readonly verifiers: WebhookVerifiers,
  ) {}

  onModuleInit(): void {
    this.verifiers.register(this);
  }

  async verify(delivery: WebhookDelivery): Promise<void> {
    let secret: string;
    try {
      secret = await this.secret.get();
    } catch (error) {
      if (error instanceof DomainError) throw error;
      this.logger.error({ err: error instanceof Error ? error.name : 'unknown' }, 'generic webhook: the secret cannot be read');
      throw new UnavailableError();
    }
    const check = verifyTimestampedSignature(delivery.rawBody, delivery.header(GENERIC_SIGNATURE_HEADER), secret, SIGNATURE_TOLERANCE_SECONDS, this.clock.now().getTime());
    if (!check.valid) {
      this.logger.warn({ reason: check.reason }, 'generic webhook refused: signature');
      throw new InvalidSignatureError();
    }
  }
}
