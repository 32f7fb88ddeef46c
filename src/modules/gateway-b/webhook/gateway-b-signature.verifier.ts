import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DomainError, GatewayUnavailableError, UnavailableError } from '../../../common/errors/index.js';
import type { GatewayMode } from '../../gateways/index.js';
import { OptionsService } from '../../settings/index.js';
import { InvalidSignatureError, type WebhookDelivery, type WebhookVerifier, WebhookVerifiers } from '../../webhooks/index.js';
import { GatewayBClientFactory } from '../client/gateway-b-client.factory.js';
import type { GatewayBClient } from '../client/gateway-b-client.js';
import { GatewayBError } from '../client/gateway-b-errors.js';
import { GATEWAY_B_TRANSMISSION_HEADERS, isGatewayBWebhookId } from '../client/webhook-postback.js';
import { gatewayBOption } from '../gateway-b-options.js';

/**
 * `@SignedWebhookRoute('gateway_b')` (decisions §8, spec Authentication 7): the five transmission
 * headers are all required, and the delivery is verified by PayPal's verify-webhook-signature API
 * with the mode's Webhook ID and credentials, the received bytes posted back verbatim. Refused
 * (400 `checkout_invalid_signature`) with no provider call: a header missing, no Webhook ID stored
 * for the mode, the mode not connected, a body that is not an event. PayPal answers FAILURE: 400.
 * PayPal cannot be asked (unreachable, refused, nonsense) or our stored settings cannot be read:
 * 503, so that PayPal delivers again later.
 */
@Injectable()
export class GatewayBSignatureVerifier implements WebhookVerifier, OnModuleInit {
  readonly scheme = 'gateway_b';
  private readonly logger = new Logger('GatewayBWebhook');

  constructor(
    private readonly options: OptionsService,
    private readonly clients: GatewayBClientFactory,
    private readonly verifiers: WebhookVerifiers,
  ) {}

  onModuleInit(): void {
    this.verifiers.register(this);
  }

  async verify(delivery: WebhookDelivery): Promise<void> {
    const mode = delivery.mode;
    if (!mode) throw new InvalidSignatureError();
    const headers: Record<string, string> = {};
    const missing = GATEWAY_B_TRANSMISSION_HEADERS.filter((name) => {
      const value = delivery.header(name);
      if (value === undefined || value.trim() === '') return true;
      headers[name] = value;
      return false;
    });
    if (missing.length > 0) return this.refuse(mode, 'missing_headers', { headers: missing });

    const { webhookId, client } = await this.settings(mode);
    if (!webhookId) return this.refuse(mode, 'no_webhook_id');
    if (!isGatewayBWebhookId(webhookId)) return this.refuse(mode, 'invalid_webhook_id');
    if (!client) return this.refuse(mode, 'not_connected');

    let verification;
    try {
      verification = await client.verifyWebhookSignature({ headers, webhookId, rawBody: delivery.rawBody });
    } catch (error) {
      if (!(error instanceof GatewayBError)) throw error;
      this.logger.warn({ mode, err: error.message }, 'gateway B webhook: the signature could not be verified now');
      throw new GatewayUnavailableError();
    }
    if (!verification.verified) return this.refuse(mode, verification.reason, verification.headers ? { headers: verification.headers } : {});
  }

  /** The mode's Webhook ID and client; a database outage or a secret that no longer opens is 503, never 500. */
  private async settings(mode: GatewayMode): Promise<{ webhookId: string | null; client: GatewayBClient | null }> {
    try {
      return { webhookId: await this.options.getSecret(gatewayBOption.webhookId(mode)), client: await this.clients.findForMode(mode) };
    } catch (error) {
      if (error instanceof DomainError) throw error;
      this.logger.error({ mode, err: error instanceof Error ? error.name : 'unknown' }, 'gateway B webhook: the stored settings cannot be read');
      throw new UnavailableError();
    }
  }

  private refuse(mode: GatewayMode, reason: string, details: Record<string, unknown> = {}): never {
    this.logger.warn({ mode, reason, ...details }, 'gateway B webhook refused: signature');
    throw new InvalidSignatureError();
  }
}
