import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InvalidParamsError } from '../../common/errors/index.js';
import {
  GATEWAY_MODES,
  type GatewayDashboardFacts,
  type GatewayMode,
  type GatewayModeFacts,
  type GatewayNotice,
  GatewayRegistry,
  type PaymentGatewayAdapter,
  type WebhookSettingsInput,
  type WebhookSettingsView,
} from '../gateways/index.js';
import { OptionsService } from '../settings/index.js';
import { GATEWAY_B_CREDENTIALS, gatewayBOption } from './gateway-b-options.js';

/** Gateway B (the wallet gateway) behind the gateway port: standard one-time checkout only. */
@Injectable()
export class GatewayBAdapter implements PaymentGatewayAdapter, OnModuleInit {
  readonly id = 'gateway_b' as const;
  readonly label = 'gateway B';
  readonly proOnlyMethods: readonly string[] = [];
  readonly supportsRecurring = false;

  constructor(
    private readonly registry: GatewayRegistry,
    private readonly options: OptionsService,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  async isConnected(mode: GatewayMode): Promise<boolean> {
    const names = GATEWAY_B_CREDENTIALS.map((field) => gatewayBOption.credential(mode, field));
    const stored = await this.options.getMany(names);
    return names.every((name) => stored.has(name));
  }

  /** Gateway B has no webhook contract that pauses checkout. */
  async checkoutPaused(): Promise<null> {
    return null;
  }

  async disconnect(mode: GatewayMode): Promise<void> {
    await this.options.delete([...GATEWAY_B_CREDENTIALS.map((field) => gatewayBOption.credential(mode, field)), gatewayBOption.webhookId(mode)]);
  }

  /** Gateway B takes no payment yet (its orders arrive with the gateway B checkout). */
  async paymentUnderway(): Promise<boolean> {
    return false;
  }

  /** The mode's Webhook ID, sealed; answered only as a mask. */
  async saveWebhookSettings(mode: GatewayMode, input: WebhookSettingsInput): Promise<WebhookSettingsView> {
    const misplaced = (['signing_secret', 'manual_configuration_complete'] as const).filter((field) => input[field] !== undefined);
    if (misplaced.length > 0) throw new InvalidParamsError(Object.fromEntries(misplaced.map((field) => [field, `${field} is not a gateway_b setting`])));
    if (input.webhook_id === undefined) throw new InvalidParamsError({ webhook_id: 'webhook_id is required for gateway_b' });
    await this.options.setSecret(gatewayBOption.webhookId(mode), input.webhook_id);
    return { webhook_id: await this.options.getSecretMask(gatewayBOption.webhookId(mode)) };
  }

  /**
   * Per-mode connection and Webhook ID. Its credentials carry no test/live marker and it has no
   * webhook contract, so `testKeys` and `contract` are null. Notice
   * `gateway_b.webhook_id_missing.{mode}`: a connected mode without a Webhook ID, whose
   * capture-completed webhooks cannot be verified (and are refused).
   */
  async dashboardFacts(): Promise<GatewayDashboardFacts> {
    const modes = {} as Record<GatewayMode, GatewayModeFacts>;
    const notices: GatewayNotice[] = [];
    for (const mode of GATEWAY_MODES) {
      const connected = await this.isConnected(mode);
      const webhookConfigured = (await this.options.get<unknown>(gatewayBOption.webhookId(mode), null)) !== null;
      modes[mode] = { connected, testKeys: null, webhookConfigured, contract: null };
      if (connected && !webhookConfigured) {
        notices.push({
          id: `gateway_b.webhook_id_missing.${mode}`,
          severity: 'warning',
          message: `Gateway B is connected in ${mode} mode without a Webhook ID: its webhooks cannot be verified and are refused. Save the Webhook ID shown by the gateway.`,
          route: 'POST /payment-gateway/save-webhook-settings',
          facts: { mode },
        });
      }
    }
    return { modes, upgrade: null, notices };
  }
}
