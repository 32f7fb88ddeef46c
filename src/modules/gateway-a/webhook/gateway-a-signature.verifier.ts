import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { Clock } from '../../../common/clock/index.js';
import { InvalidSignatureError, type WebhookDelivery, type WebhookVerifier, WebhookVerifiers } from '../../webhooks/index.js';
import { GatewayAContractService } from './gateway-a-contract.service.js';
import { SIGNATURE_TOLERANCE_SECONDS, verifyGatewayASignature } from './webhook-signature.js';

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

  async verify(delivery: WebhookDelivery): Promise<void> {
    if (!delivery.mode) throw new InvalidSignatureError();
    const secret = await this.contracts.getSigningSecret(delivery.mode);
    const signature = delivery.header('gateway-a-signature') ?? delivery.header('stripe-signature');
    const check = verifyGatewayASignature(delivery.rawBody, signature, secret, SIGNATURE_TOLERANCE_SECONDS, this.clock.now().getTime());
    if (!check.valid) {
      this.logger.warn({ mode: delivery.mode, reason: check.reason }, 'gateway A webhook refused: signature');
      throw new InvalidSignatureError();
    }
  }
}
