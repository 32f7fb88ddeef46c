import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Clock } from '../../../src/common/clock/index.js';
import { OptionsService } from '../../../src/modules/settings/index.js';
import { InvalidSignatureError, type WebhookDelivery, type WebhookVerdict, type WebhookVerifier, WebhookVerifiers } from '../../../src/modules/webhooks/index.js';
import { GATEWAY_X } from '../gateway-x.slice.js';
import { gatewayXOption } from '../gateway-x-options.js';
import { GATEWAY_X_SIGNATURE_HEADER, isSignedByGatewayX } from './gateway-x-signature.js';

/** How far a delivery's signed time may be from now, either way. */
const TOLERANCE_SECONDS = 300;

/**
 * `@SignedWebhookRoute('gateway_x')`: the raw bytes signed with the mode's signing secret (HMAC,
 * constant-time compare, a signed time within five minutes); no secret stored for the mode, a
 * missing or wrong signature: 400 `checkout_invalid_signature`.
 */
@Injectable()
export class GatewayXSignatureVerifier implements WebhookVerifier, OnModuleInit {
  readonly scheme = GATEWAY_X;

  constructor(
    private readonly clock: Clock,
    private readonly options: OptionsService,
    private readonly verifiers: WebhookVerifiers,
  ) {}

  onModuleInit(): void {
    this.verifiers.register(this);
  }

  async verify(delivery: WebhookDelivery): Promise<WebhookVerdict> {
    if (!delivery.mode) throw new InvalidSignatureError();
    const secret = await this.options.getSecret(gatewayXOption.signingSecret(delivery.mode));
    if (!secret || !isSignedByGatewayX(delivery.header(GATEWAY_X_SIGNATURE_HEADER), delivery.rawBody, secret, this.clock.now().getTime(), TOLERANCE_SECONDS)) {
      throw new InvalidSignatureError();
    }
    return 'authentic';
  }
}
