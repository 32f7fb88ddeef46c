import { Inject, Injectable } from '@nestjs/common';
import { InvalidParamsError, NotFoundError } from '../../common/errors/index.js';
import type { AcknowledgementDto } from '../../common/openapi/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { SECTION_B_GATEWAY_IDS, SECTION_B_GATEWAYS, type SectionBGateway } from '../../common/gateway-catalog/index.js';
import { GatewayRegistry } from './gateway-registry.service.js';
import { GatewayStateService } from './gateway-state.service.js';
import type { GatewayListEntryDto } from './gateway-list.dto.js';

/**
 * Section B's `/gateway/*` (docs/decisions.md §10), on the adapters: the two gateways are what their
 * adapters say (connected in the current mode, configured with the adapter's `api_key` form,
 * removed by disconnecting the current mode); bank debit is a Pro-only method of the card gateway
 * (catalog data), enabled when that gateway is connected and the method active, and removed by
 * switching the method off.
 */
@Injectable()
export class GatewayListService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly registry: GatewayRegistry,
    private readonly state: GatewayStateService,
  ) {}

  async list(): Promise<GatewayListEntryDto[]> {
    return Promise.all(SECTION_B_GATEWAYS.map(async (entry) => ({ gateway: entry.id, enabled: await this.enabled(entry) })));
  }

  async configure(gateway: string, apiKey: string, webhookUrl: string | undefined): Promise<AcknowledgementDto> {
    const entry = this.entry(gateway);
    if (entry.methodOf) {
      const parent = this.registry.get(entry.methodOf.gateway);
      throw new InvalidParamsError({
        gateway: `${entry.id} (${entry.kind.replace('_', ' ')}) is ${parent.label}'s ${entry.methodOf.method} method: configure ${parent.id} and switch the method on with POST /payment-gateway/set-payment-methods`,
      });
    }
    const adapter = this.registry.get(entry.id);
    const configuration = adapter.apiKeyConfiguration;
    if (!configuration) {
      const how = adapter.oauthConnect ? 'it is connected through its OAuth connect flow (GET /payment-gateway/connect)' : 'it cannot be configured here';
      throw new InvalidParamsError({ gateway: `${adapter.label} takes no api_key: ${how}` });
    }
    const mode = await this.state.getMode(entry.id);
    const expected = configuration.webhookUrl(mode);
    if (webhookUrl !== undefined && webhookUrl !== expected) {
      throw new InvalidParamsError({ webhook_url: `webhook_url must be this service's ${adapter.label} callback for ${mode} mode: ${expected}` });
    }
    await configuration.configure(mode, apiKey);
    return { success: true, message: `${adapter.label} configured for ${mode} mode; its provider delivers events to ${expected}.` };
  }

  async remove(gateway: string): Promise<AcknowledgementDto> {
    const entry = SECTION_B_GATEWAYS.find((candidate) => candidate.id === gateway);
    if (!entry) throw new NotFoundError('Gateway');
    if (entry.methodOf) {
      const { gateway: parent, method } = entry.methodOf;
      const active = await this.state.getActiveMethods(parent);
      await this.state.setActiveMethods(parent, active.filter((candidate) => candidate !== method));
      return { success: true, message: `${entry.id} removed: ${this.registry.get(parent).label}'s ${method} method is switched off.` };
    }
    const adapter = this.registry.get(entry.id);
    const mode = await this.state.getMode(entry.id);
    await adapter.disconnect(mode);
    return { success: true, message: `${entry.id} removed: ${adapter.label} is disconnected in ${mode} mode.` };
  }

  private entry(gateway: string): SectionBGateway {
    const entry = SECTION_B_GATEWAYS.find((candidate) => candidate.id === gateway);
    if (!entry) throw new InvalidParamsError({ gateway: `gateway must be ${SECTION_B_GATEWAY_IDS.slice(0, -1).join(', ')} or ${SECTION_B_GATEWAY_IDS.at(-1)}` });
    return entry;
  }

  private async enabled(entry: SectionBGateway): Promise<boolean> {
    if (!entry.methodOf) {
      const mode = await this.state.getMode(entry.id);
      return this.state.isConnected(entry.id, mode);
    }
    const { gateway, method } = entry.methodOf;
    if (this.registry.get(gateway).proOnlyMethods.includes(method) && this.config.plan !== 'pro') return false;
    const mode = await this.state.getMode(gateway);
    return (await this.state.isConnected(gateway, mode)) && (await this.state.getActiveMethods(gateway)).includes(method);
  }
}
