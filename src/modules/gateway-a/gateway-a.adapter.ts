import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InvalidParamsError } from '../../common/errors/index.js';
import {
  type BrowserConfig,
  GATEWAY_MODES,
  GatewayAdapterBase,
  type GatewayDashboardFacts,
  type GatewayDiagnosis,
  type GatewayMode,
  GatewayRegistry,
  type GatewaySettingField,
  type HeldProviderPayment,
  type HostedCheckout,
  type PaymentGatewayAdapter,
  type WebhookSettingsInput,
  type WebhookSettingsView,
} from '../gateways/index.js';
import { OptionsService } from '../settings/index.js';
import { GatewayAAdminService } from './admin/gateway-a-admin.service.js';
import { GatewayAAftermathReader } from './aftermath/gateway-a-aftermath.reader.js';
import { gatewayAHostedCheckout } from './browser/gateway-a-hosted-checkout.js';
import { GatewayAIntentsService } from './checkout/gateway-a-intents.service.js';
import { GatewayAClientFactory } from './client/gateway-a-client.factory.js';
import { GatewayAConnectService } from './connect/gateway-a-connect.service.js';
import { GatewayADiagnostics } from './diagnose/gateway-a-diagnostics.js';
import { GATEWAY_A_CONFIG, type GatewayAConfig } from './gateway-a.config.js';
import { buildGatewayADashboardFacts, type GatewayAModeInput } from './gateway-a-dashboard-facts.js';
import { GATEWAY_A_CREDENTIALS, gatewayAOption } from './gateway-a-options.js';
import { GatewayAReconciler } from './reconcile/gateway-a-reconciler.js';
import { GatewayASubscriptionCancellation } from './subscriptions/gateway-a-subscription-cancellation.js';
import { GatewayASubscriptionCardUpdate } from './subscriptions/gateway-a-subscription-card-update.js';
import { GatewayARefunds } from './refunds/gateway-a-refunds.js';
import { GatewayAContractService } from './webhook/gateway-a-contract.service.js';
import { GatewayAWebhookUpgradeTask } from './webhook/webhook-upgrade.task.js';

/** The form of the signing secret the provider shows for an endpoint (checked here: the settings route takes any gateway's secret). */
const GATEWAY_A_SIGNING_SECRET = /^whsec_[A-Za-z0-9+/=_-]{16,240}$/;

/** Gateway A (the card gateway) behind the gateway port: what the neutral routes may ask of it. */
@Injectable()
export class GatewayAAdapter extends GatewayAdapterBase implements PaymentGatewayAdapter {
  readonly id = 'gateway_a' as const;
  readonly label = 'gateway A';
  /** Bank debit (docs/decisions.md §10; a Pro-only method, docs/interface.md). */
  readonly proOnlyMethods = ['sepa'];
  readonly supportsRecurring = true;
  /** The manual webhook path (docs/decisions.md §7): a signing secret, then the flag that unpauses checkout. */
  readonly webhookSettingsFields: readonly GatewaySettingField<'signing_secret' | 'manual_configuration_complete'>[] = [
    { name: 'signing_secret', label: 'Webhook signing secret', type: 'text', secret: true, required: false, hint: 'whsec_… of the endpoint you created' },
    { name: 'manual_configuration_complete', label: 'The endpoint sends the 12 events', type: 'boolean', secret: false, required: false },
  ];
  readonly hostedCheckout: HostedCheckout;

  constructor(
    @Inject(GATEWAY_A_CONFIG.token) config: GatewayAConfig,
    registry: GatewayRegistry,
    options: OptionsService,
    private readonly contract: GatewayAContractService,
    private readonly clients: GatewayAClientFactory,
    private readonly dataSource: DataSource,
    private readonly intents: GatewayAIntentsService,
    readonly oauthConnect: GatewayAConnectService,
    readonly adminCharges: GatewayAAdminService,
    readonly reconciler: GatewayAReconciler,
    private readonly diagnostics: GatewayADiagnostics,
    private readonly webhookUpgrade: GatewayAWebhookUpgradeTask,
    readonly subscriptionCancellation: GatewayASubscriptionCancellation,
    readonly subscriptionCardUpdate: GatewayASubscriptionCardUpdate,
    readonly providerAftermath: GatewayAAftermathReader,
    readonly refunds: GatewayARefunds,
  ) {
    super(registry, options);
    this.hostedCheckout = gatewayAHostedCheckout(config.jsUrl);
  }

  /** Connecting with the merchant's own keys: the same service and credential path as the OAuth callback. */
  get keyConnect(): GatewayAConnectService {
    return this.oauthConnect;
  }

  connectionOptions(mode: GatewayMode): readonly string[] {
    return GATEWAY_A_CREDENTIALS.map((field) => gatewayAOption.credential(mode, field));
  }

  /** Stripe.js takes the account's publishable key (public by design); nothing else leaves the server. */
  async browserConfig(mode: GatewayMode): Promise<BrowserConfig | null> {
    const publishableKey = await this.options.get<string | null>(gatewayAOption.credential(mode, 'public_key'), null);
    return publishableKey ? { publishable_key: publishableKey } : null;
  }

  async checkoutPaused(mode: GatewayMode): Promise<boolean> {
    return !(await this.contract.isCheckoutAvailable(mode));
  }

  /**
   * Credentials and the mode's webhook state go. The endpoint this service created is retired at
   * the gateway first (best effort; a manual endpoint is never touched).
   */
  async disconnect(mode: GatewayMode): Promise<void> {
    const record = await this.contract.getRecord(mode);
    if (record?.management === 'automatic' && record.endpoint_id) {
      const account = await this.clients.findForMode(mode, { maxNetworkRetries: 0, timeoutMs: 5_000 });
      if (account && (!record.account_id || record.account_id === account.accountId)) {
        await this.contract.retireManagedEndpoint(account.client, record.endpoint_id);
      }
    }
    await this.dataSource.transaction(async (manager) => {
      await this.options.delete(
        GATEWAY_A_CREDENTIALS.map((field) => gatewayAOption.credential(mode, field)),
        manager,
      );
      await this.contract.clear(mode, manager);
    });
  }

  diagnose(mode: GatewayMode): Promise<GatewayDiagnosis[]> {
    return this.diagnostics.diagnose(mode);
  }

  paymentUnderway(payment: HeldProviderPayment): Promise<boolean> {
    return this.intents.paymentUnderway(payment);
  }

  /** The manual path: a signing secret and/or `manual_configuration_complete` (docs/decisions.md §7). */
  async saveWebhookSettings(mode: GatewayMode, input: WebhookSettingsInput): Promise<WebhookSettingsView> {
    if (input.webhook_id !== undefined) throw new InvalidParamsError({ webhook_id: 'gateway_a takes a signing_secret, not a webhook_id' });
    if (input.signing_secret !== undefined && !GATEWAY_A_SIGNING_SECRET.test(input.signing_secret)) {
      throw new InvalidParamsError({ signing_secret: 'signing_secret must be a webhook signing secret (whsec_...)' });
    }
    const { mode: _mode, ...view } = await this.contract.saveManual(mode, { signingSecret: input.signing_secret, complete: input.manual_configuration_complete });
    return view;
  }

  /** Per-mode connection, key kind and webhook contract, the 1.5.3 upgrade task, and the notices they raise. */
  async dashboardFacts(currentMode: GatewayMode): Promise<GatewayDashboardFacts> {
    const modes = {} as Record<GatewayMode, GatewayAModeInput>;
    for (const mode of GATEWAY_MODES) {
      modes[mode] = {
        connected: await this.isConnected(mode),
        publicKey: await this.options.get<string | null>(gatewayAOption.credential(mode, 'public_key'), null),
        secretKey: await this.options.getSecret(gatewayAOption.credential(mode, 'secret_key')),
        contract: await this.contract.view(mode),
      };
    }
    return buildGatewayADashboardFacts({ currentMode, modes, upgrade: await this.webhookUpgrade.progress() });
  }
}
