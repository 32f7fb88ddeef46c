import { GatewayBAftermathReader } from './aftermath/gateway-b-aftermath.reader.js';
import { GatewayBRefunds } from './refunds/gateway-b-refunds.js';
import { Inject, Injectable } from '@nestjs/common';
import { InvalidParamsError } from '../../common/errors/index.js';
import {
  type BrowserConfig,
  GATEWAY_MODES,
  GatewayAdapterBase,
  type GatewayDashboardFacts,
  type GatewayDiagnosis,
  type GatewayMode,
  type GatewayModeFacts,
  type GatewayNotice,
  GatewayRegistry,
  type GatewaySettingField,
  type HeldProviderPayment,
  type HostedCheckout,
  type PaymentGatewayAdapter,
  type WebhookSettingsInput,
  type WebhookSettingsView,
} from '../gateways/index.js';
import { OptionsService } from '../settings/index.js';
import { gatewayBHostedCheckout } from './browser/gateway-b-hosted-checkout.js';
import { GatewayBOrdersService } from './checkout/gateway-b-orders.service.js';
import { isGatewayBWebhookId } from './client/webhook-postback.js';
import { GatewayBCredentialsService } from './credentials/gateway-b-credentials.service.js';
import { GatewayBDiagnostics } from './diagnose/gateway-b-diagnostics.js';
import { GatewayBReconciler } from './reconcile/gateway-b-reconciler.js';
import { GATEWAY_B_CONFIG, type GatewayBConfig } from './gateway-b.config.js';
import { GATEWAY_B_SLICE } from './gateway-b.slice.js';
import { GATEWAY_B_API_CREDENTIALS, GATEWAY_B_CREDENTIALS, gatewayBOption } from './gateway-b-options.js';

/** Gateway B (the wallet gateway) behind the gateway port: standard one-time checkout only. */
@Injectable()
export class GatewayBAdapter extends GatewayAdapterBase implements PaymentGatewayAdapter {
  readonly id = 'gateway_b' as const;
  readonly label = 'gateway B';
  readonly proOnlyMethods: readonly string[] = [];
  readonly supportsRecurring = false;
  /** The Webhook ID the gateway shows for the listener the merchant created (verification asks the gateway with it). */
  readonly webhookSettingsFields: readonly GatewaySettingField<'webhook_id'>[] = [
    { name: 'webhook_id', label: 'Webhook ID', type: 'text', secret: true, required: true, hint: 'The Webhook ID shown for your listener (letters and digits)' },
  ];
  readonly hostedCheckout: HostedCheckout;

  constructor(
    @Inject(GATEWAY_B_CONFIG.token) config: GatewayBConfig,
    registry: GatewayRegistry,
    options: OptionsService,
    private readonly orders: GatewayBOrdersService,
    readonly credentialSettings: GatewayBCredentialsService,
    readonly reconciler: GatewayBReconciler,
    private readonly diagnostics: GatewayBDiagnostics,
    readonly refunds: GatewayBRefunds,
    readonly providerAftermath: GatewayBAftermathReader,
  ) {
    super(registry, options);
    this.hostedCheckout = gatewayBHostedCheckout(config.jsUrl);
  }

  /** Section B `/gateway/configure`: the same credentials service, with `api_key` = `<client id>:<secret>`. */
  get apiKeyConfiguration(): GatewayBCredentialsService {
    return this.credentialSettings;
  }

  /** The mode's client id and secret (what every API call needs; the email is the account's label): connected when both are stored. */
  connectionOptions(mode: GatewayMode): readonly string[] {
    return GATEWAY_B_API_CREDENTIALS.map((field) => gatewayBOption.credential(mode, field));
  }

  /** The JS SDK takes the REST app's client id (public by design; the secret never leaves the server). */
  async browserConfig(mode: GatewayMode): Promise<BrowserConfig | null> {
    const clientId = await this.options.get<string | null>(gatewayBOption.credential(mode, 'client_id'), null);
    return clientId ? { client_id: clientId } : null;
  }

  /** For `doctor`: the stored credentials and the saved Webhook ID's listener, asked of the gateway. */
  diagnose(mode: GatewayMode): Promise<GatewayDiagnosis[]> {
    return this.diagnostics.diagnose(mode);
  }

  /** Gateway B has no webhook contract that pauses checkout. */
  async checkoutPaused(): Promise<null> {
    return null;
  }

  async disconnect(mode: GatewayMode): Promise<void> {
    await this.options.delete([...GATEWAY_B_CREDENTIALS.map((field) => gatewayBOption.credential(mode, field)), gatewayBOption.webhookId(mode)]);
  }

  /** The order the record holds is approved or captured (read from the gateway). */
  paymentUnderway(payment: HeldProviderPayment): Promise<boolean> {
    return this.orders.paymentUnderway(payment);
  }

  /** The mode's Webhook ID (PayPal's format: letters and digits), sealed; answered only as a mask. */
  async saveWebhookSettings(mode: GatewayMode, input: WebhookSettingsInput): Promise<WebhookSettingsView> {
    const misplaced = (['signing_secret', 'manual_configuration_complete'] as const).filter((field) => input[field] !== undefined);
    if (misplaced.length > 0) throw new InvalidParamsError(Object.fromEntries(misplaced.map((field) => [field, `${field} is not a gateway_b setting`])));
    if (input.webhook_id === undefined) throw new InvalidParamsError({ webhook_id: 'webhook_id is required for gateway_b' });
    if (!isGatewayBWebhookId(input.webhook_id)) throw new InvalidParamsError({ webhook_id: 'webhook_id must be the Webhook ID shown by the gateway (letters and digits, at most 50)' });
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
          message: `${GATEWAY_B_SLICE.catalog.label} is connected in ${mode} mode without its Webhook ID: its payment updates cannot be checked and are refused. Enter the Webhook ID ${GATEWAY_B_SLICE.catalog.label} shows for your webhook.`,
          route: 'POST /payment-gateway/save-webhook-settings',
          facts: { mode },
        });
      }
    }
    return { modes, upgrade: null, notices };
  }
}
