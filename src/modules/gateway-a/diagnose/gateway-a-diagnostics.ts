import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import type { GatewayDiagnosis, GatewayMode } from '../../gateways/index.js';
import { parseWebhookEndpointList } from '../client/gateway-a-answers.js';
import { GatewayAClientFactory } from '../client/gateway-a-client.factory.js';
import { describeGatewayFailure, gatewayStatusOf } from '../client/gateway-a-errors.js';
import { GatewayAContractService } from '../webhook/gateway-a-contract.service.js';
import { gatewayAWebhookUrl } from '../webhook/webhook-contract.js';

/**
 * What `doctor` asks gateway A about a connected mode: are the stored keys accepted, and does the
 * webhook setup deliver the contract's events to this service's URL (else checkout is paused or
 * payments wait for reconciliation). Reads only; never prints a key. An answer that is not what was
 * asked for is reported like an unreachable gateway (a warning), never as a pass.
 */
@Injectable()
export class GatewayADiagnostics {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clients: GatewayAClientFactory,
    private readonly contract: GatewayAContractService,
  ) {}

  async diagnose(mode: GatewayMode): Promise<GatewayDiagnosis[]> {
    const account = await this.clients.findForMode(mode, { maxNetworkRetries: 0 });
    if (!account) return [];
    const connect = `connect gateway A again (GET /payment-gateway/connect?mode=${mode})`;
    const checks: GatewayDiagnosis[] = [];
    try {
      parseWebhookEndpointList(await account.client.webhookEndpoints.list({ limit: 100 }), 'webhookEndpoints.list');
      checks.push({ check: `gateway_a ${mode} credentials`, status: 'ok', message: `the gateway accepts the stored ${mode} keys of account ${account.accountId}` });
    } catch (error) {
      const status = gatewayStatusOf(error);
      if (status === 401 || status === 403) {
        checks.push({ check: `gateway_a ${mode} credentials`, status: 'fail', message: 'the gateway refuses the stored secret key', fix: connect });
      } else {
        checks.push({ check: `gateway_a ${mode} credentials`, status: 'warn', message: `the gateway could not be asked (${describeGatewayFailure(error)})`, fix: 'check the network path to the gateway and run doctor again' });
      }
      return checks;
    }

    const url = gatewayAWebhookUrl(this.config, mode);
    const view = await this.contract.view(mode);
    const record = await this.contract.getRecord(mode);
    const check = `gateway_a ${mode} webhook`;
    const manualFix = `configure an endpoint for ${url} with the 12 events at the gateway, then POST /payment-gateway/save-webhook-settings (mode ${mode}, signing_secret, manual_configuration_complete: true)`;
    if (!record) {
      checks.push({ check, status: 'fail', message: 'no webhook endpoint is configured: checkout is paused', fix: `${connect}, or ${manualFix}` });
    } else if (record.management === 'automatic' && record.endpoint_id) {
      const endpoint = await this.contract.checkEndpoint(account.client, record.endpoint_id, mode);
      checks.push(
        !endpoint.ok && endpoint.retryable
          ? { check, status: 'warn', message: `endpoint ${record.endpoint_id} could not be read (${endpoint.reason})`, fix: 'check the network path to the gateway and run doctor again' }
          : endpoint.ok && !view.checkout_paused
          ? { check, status: 'ok', message: `endpoint ${record.endpoint_id} delivers the 12 events to ${url}` }
          : { check, status: 'fail', message: endpoint.ok ? 'the contract is not verified: checkout is paused' : `endpoint ${record.endpoint_id}: ${endpoint.reason}`, fix: connect },
      );
    } else if (view.checkout_paused) {
      checks.push({ check, status: 'fail', message: 'the manual webhook configuration is not complete: checkout is paused', fix: manualFix });
    } else {
      // A manually managed endpoint is never touched; look for one pointing here.
      try {
        const endpoints = parseWebhookEndpointList(await account.client.webhookEndpoints.list({ limit: 100 }), 'webhookEndpoints.list');
        const pointingHere = endpoints.some((endpoint) => endpoint.url === url && endpoint.status === 'enabled');
        if (!pointingHere) checks.push({ check, status: 'warn', message: `no enabled endpoint at the gateway delivers to ${url}`, fix: manualFix });
        else checks.push({ check, status: 'ok', message: `a manually managed endpoint delivers to ${url}` });
      } catch (error) {
        checks.push({ check, status: 'warn', message: `the gateway could not be asked for its endpoints (${describeGatewayFailure(error)})`, fix: 'check the network path to the gateway and run doctor again' });
      }
    }
    return checks;
  }
}
