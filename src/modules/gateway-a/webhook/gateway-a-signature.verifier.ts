import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { Clock } from '../../../common/clock/index.js';
import { SIGNATURE_TOLERANCE_SECONDS, verifyTimestampedSignature } from '../../../common/crypto/index.js';
import { DomainError, UnavailableError } from '../../../common/errors/index.js';
import type { GatewayMode } from '../../gateways/index.js';
import { InvalidSignatureError, type WebhookDelivery, type WebhookVerifier, WebhookVerifiers } from '../../webhooks/index.js';
import { GatewayAContractService } from './gateway-a-contract.service.js';

/**
 * `@SignedWebhookRoute('gateway_a')`: `Gateway-A-Signature` (or the gateway's own
 * `Stripe-Signature`) over the raw bytes with the mode's signing secret, 300 s tolerance,
 * compared in constant time. No secret configured: refused, nothing processed.
 */
@Injectable()
export class GatewayASignatureVerifier implements WebhookVerifier, OnModuleInit {
  readonly scheme = 'gateway_a';
  private readonly logger = new Logger('GatewayAWebhook');

  constructor(
    private readonly contracts: GatewayAContractService,
    private readonly clock: Clock,
    private readonly verifiers: WebhookVerifiers,
  ) {}

  onModuleInit(): void {
    this.verifiers.register(this);
  }

  /**
   * The mode's signing secret. Reading it must not fail an unauthenticated caller with a 500: a
   * database outage or a secret that no longer opens (CHECKOUT_SECRET changed; the boot canary
   * normally stops the service first) is 503, so the provider retries once it is fixed.
   */
  private async signingSecret(mode: GatewayMode): Promise<string | null> {
    try {
      return await this.contracts.getSigningSecret(mode);
    } catch (error) {
      if (error instanceof DomainError) throw error;
      this.logger.error({ mode, err: error instanceof Error ? error.name : 'unknown' }, 'gateway A webhook: the signing secret cannot be read');
      throw new UnavailableError();
    }
  }

  async verify(delivery: WebhookDelivery): Promise<void> {
    if (!delivery.mode) throw new InvalidSignatureError();
    const secret = await this.signingSecret(delivery.mode);
    const signature = delivery.header('gateway-a-signature') ?? delivery.header('stripe-signature');
    const check = verifyTimestampedSignature(delivery.rawBody, signature, secret, SIGNATURE_TOLERANCE_SECONDS, this.clock.now().getTime());
    if (!check.valid) {
      this.logger.warn({ mode: delivery.mode, reason: check.reason }, 'gateway A webhook refused: signature');
      throw new InvalidSignatureError();
    }
  }
}
