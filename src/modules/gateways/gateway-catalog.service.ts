import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { OptionsService } from '../settings/index.js';
import { gatewayCatalog } from '../../common/gateway-catalog/index.js';
import type { GatewayCatalogDto, GatewayCatalogEntryDto, GatewayCatalogMethodDto, GatewayConnectKindDto, GatewaySettingFieldDto } from './gateway-catalog.dto.js';
import type { DeviceWalletSettingsDto } from './payment-gateway.dto.js';
import { GatewayRegistry } from './gateway-registry.service.js';
import { gatewayOption, GatewayStateService } from './gateway-state.service.js';
import type { GatewaySettingField, PaymentGatewayAdapter } from './payment-gateway.port.js';

/**
 * GET /payment-gateway/catalog: every registered gateway as an admin UI draws it, from the
 * catalog (methods and their labels) and each adapter's port facts (pro-only methods, recurring,
 * the hosted page's methods, the connect kinds it offers and their fields). Names no gateway.
 */
@Injectable()
export class GatewayCatalogService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly registry: GatewayRegistry,
    private readonly state: GatewayStateService,
    private readonly options: OptionsService,
  ) {}

  async catalog(): Promise<GatewayCatalogDto> {
    const gateways: GatewayCatalogEntryDto[] = [];
    for (const adapter of this.registry.all()) gateways.push(await this.entry(adapter));
    return { plan: this.config.plan, gateways };
  }

  private async entry(adapter: PaymentGatewayAdapter): Promise<GatewayCatalogEntryDto> {
    const active = await this.state.getActiveMethods(adapter.id);
    const entry = gatewayCatalog.entry(adapter.id);
    const methods: GatewayCatalogMethodDto[] = [];
    for (const { id: method, label, hasSettings = false } of entry.methods) {
      methods.push({
        id: method,
        label,
        pro_only: adapter.proOnlyMethods.includes(method),
        active: active.includes(method),
        has_settings: hasSettings,
        hosted_page: adapter.hostedCheckout?.methods.includes(method) ?? false,
        // What save-payment-method-settings stored, so a console's form starts from it.
        ...(hasSettings ? { settings: await this.options.get<DeviceWalletSettingsDto | null>(gatewayOption.methodSettings(adapter.id, method), null) } : {}),
      });
    }
    return {
      id: adapter.id,
      label: entry.label,
      kind: entry.kind,
      supports_recurring: adapter.supportsRecurring,
      mode: await this.state.getMode(adapter.id),
      methods,
      connect: connectKinds(adapter),
      test_payment: entry.testPayment ?? null,
    };
  }
}

/** The connect kinds an adapter offers: each is a capability of the port, present or absent. */
function connectKinds(adapter: PaymentGatewayAdapter): GatewayConnectKindDto[] {
  const kinds: GatewayConnectKindDto[] = [];
  if (adapter.oauthConnect) kinds.push({ kind: 'oauth', route: 'GET /payment-gateway/connect', takes_mode: true, fields: [] });
  if (adapter.keyConnect) kinds.push({ kind: 'own_keys', route: 'POST /payment-gateway/connect-keys', takes_mode: true, fields: adapter.keyConnect.fields.map(toFieldDto) });
  if (adapter.credentialSettings) {
    kinds.push({ kind: 'credentials', route: 'POST /payment-gateway/save-settings', takes_mode: false, fields: adapter.credentialSettings.fields.map(toFieldDto) });
  }
  kinds.push({ kind: 'webhook_settings', route: 'POST /payment-gateway/save-webhook-settings', takes_mode: true, fields: adapter.webhookSettingsFields.map(toFieldDto) });
  return kinds;
}

function toFieldDto(field: GatewaySettingField): GatewaySettingFieldDto {
  return { name: field.name, label: field.label, type: field.type, secret: field.secret, required: field.required, ...(field.hint ? { hint: field.hint } : {}) };
}
