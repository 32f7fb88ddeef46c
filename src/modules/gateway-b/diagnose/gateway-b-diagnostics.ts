import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import type { GatewayDiagnosis, GatewayMode } from '../../gateways/index.js';
import { OptionsService } from '../../settings/index.js';
import type { GatewayBClient } from '../client/gateway-b-client.js';
import { GatewayBClientFactory } from '../client/gateway-b-client.factory.js';
import { GatewayBCredentialsError, GatewayBError, GatewayBRefusedError } from '../client/gateway-b-errors.js';
import { gatewayBWebhookUrl } from '../credentials/gateway-b-credentials.service.js';
import { gatewayBOption } from '../gateway-b-options.js';
import { GATEWAY_B_CAPTURE_COMPLETED } from '../webhook/gateway-b-event-source.js';

/**
 * What `doctor` asks gateway B about a connected mode: does PayPal grant a token for the stored
 * client id and secret, and does the stored Webhook ID name a listener of this app that delivers
 * the capture-completed event to this service's URL (else payers pay and records wait for
 * reconciliation). Reads only; never prints the secret or the Webhook ID.
 */
@Injectable()
export class GatewayBDiagnostics {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly options: OptionsService,
    private readonly clients: GatewayBClientFactory,
  ) {}

  async diagnose(mode: GatewayMode): Promise<GatewayDiagnosis[]> {
    const client = await this.clients.findForMode(mode);
    if (!client) return [];
    const connect = `save working credentials again (POST /payment-gateway/save-settings in ${mode} mode)`;
    const checks: GatewayDiagnosis[] = [];
    try {
      await client.verifyCredentials();
      checks.push({ check: `gateway_b ${mode} credentials`, status: 'ok', message: `the gateway grants a token for the stored ${mode} client id` });
    } catch (error) {
      if (!(error instanceof GatewayBError)) throw error;
      checks.push(
        error instanceof GatewayBCredentialsError
          ? { check: `gateway_b ${mode} credentials`, status: 'fail', message: 'the gateway refuses the stored client id and secret', fix: connect }
          : { check: `gateway_b ${mode} credentials`, status: 'warn', message: `the gateway could not be asked (${error.message})`, fix: 'check the network path to the gateway and run doctor again' },
      );
      return checks;
    }

    checks.push(await this.webhookCheck(mode, client));
    return checks;
  }

  private async webhookCheck(mode: GatewayMode, client: GatewayBClient): Promise<GatewayDiagnosis> {
    const check = `gateway_b ${mode} webhook`;
    const url = gatewayBWebhookUrl(this.config, mode);
    const fix = `add a webhook listener for ${url} with ${GATEWAY_B_CAPTURE_COMPLETED} to the REST app, then POST /payment-gateway/save-webhook-settings (mode ${mode}, webhook_id)`;
    const webhookId = await this.options.getSecret(gatewayBOption.webhookId(mode));
    if (!webhookId) return { check, status: 'fail', message: 'no Webhook ID is saved: capture-completed webhooks cannot be verified and are refused', fix };
    try {
      const listener = await client.getWebhook(webhookId);
      if (listener.url !== url) return { check, status: 'fail', message: `the saved Webhook ID delivers to ${listener.url}, not to ${url}`, fix };
      if (!listener.eventTypes.some((type) => type === GATEWAY_B_CAPTURE_COMPLETED || type === '*')) {
        return { check, status: 'fail', message: `the saved Webhook ID does not subscribe to ${GATEWAY_B_CAPTURE_COMPLETED}`, fix };
      }
      return { check, status: 'ok', message: `the saved Webhook ID delivers ${GATEWAY_B_CAPTURE_COMPLETED} to ${url}` };
    } catch (error) {
      if (!(error instanceof GatewayBError)) throw error;
      if (error instanceof GatewayBRefusedError && error.status === 404) {
        return { check, status: 'fail', message: 'the saved Webhook ID is not a listener of this REST app', fix };
      }
      return { check, status: 'warn', message: `the gateway could not be asked about the Webhook ID (${error.message})`, fix: 'check the network path to the gateway and run doctor again' };
    }
  }
}
