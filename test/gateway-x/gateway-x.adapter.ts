import { Inject, Injectable } from '@nestjs/common';
import { InvalidParamsError } from '../../src/common/errors/index.js';
import {
  type BrowserConfig,
  GATEWAY_MODES,
  GatewayAdapterBase,
  type GatewayDashboardFacts,
  type GatewayMode,
  type GatewayModeFacts,
  GatewayRegistry,
  type GatewaySettingField,
  type HeldProviderPayment,
  type HostedCheckout,
  type PaymentGatewayAdapter,
  STAND_IN_LIBRARY_CSP,
  type WebhookSettingsInput,
  type WebhookSettingsView,
} from '../../src/modules/gateways/index.js';
import { OptionsService } from '../../src/modules/settings/index.js';
import { GatewayXClient } from './gateway-x-client.js';
import { GATEWAY_X, GATEWAY_X_METHOD } from './gateway-x.slice.js';
import { GATEWAY_X_CONFIG, type GatewayXConfig } from './gateway-x.config.js';
import { GATEWAY_X_PROVIDER, type GatewayXProvider, gatewayXOption } from './gateway-x-options.js';

/**
 * The test-only gateway X behind the gateway port: a card gateway with only the required members,
 * `browserConfig` and `hostedCheckout` (its driver `x_test_card`). Connected = the mode's public
 * id and API key are stored (tests store them through OptionsService, as no connect capability
 * is offered).
 */
@Injectable()
export class GatewayXAdapter extends GatewayAdapterBase implements PaymentGatewayAdapter {
  readonly id = GATEWAY_X;
  readonly label = 'gateway X';
  readonly proOnlyMethods: readonly string[] = [];
  readonly supportsRecurring = false;
  readonly webhookSettingsFields: readonly GatewaySettingField<'signing_secret'>[] = [
    { name: 'signing_secret', label: 'Signing secret', type: 'text', secret: true, required: true, hint: 'xwhsec_…' },
  ];
  readonly hostedCheckout: HostedCheckout;

  constructor(
    @Inject(GATEWAY_X_PROVIDER) provider: GatewayXProvider,
    @Inject(GATEWAY_X_CONFIG.token) config: GatewayXConfig,
    registry: GatewayRegistry,
    options: OptionsService,
    private readonly client: GatewayXClient,
  ) {
    super(registry, options);
    this.hostedCheckout = {
      driver: 'x_test_card',
      methods: [GATEWAY_X_METHOD],
      // The slice's route its driver calls (checkout/gateway-x-checkout.controller.ts).
      routes: { charge: '/gateway-x/charge' },
      libraryUrl: config.jsUrl ?? new URL('/x.js', provider.url).toString(),
      // A stand-in library at its own origin: the page allows exactly that origin.
      csp: STAND_IN_LIBRARY_CSP,
    };
  }

  connectionOptions(mode: GatewayMode): readonly string[] {
    return [gatewayXOption.publicId(mode), gatewayXOption.apiKey(mode)];
  }

  /** The library takes the mode's public id (public by design), in the port's `client_id`. */
  async browserConfig(mode: GatewayMode): Promise<BrowserConfig | null> {
    const publicId = await this.options.get<string | null>(gatewayXOption.publicId(mode), null);
    return publicId ? { client_id: publicId } : null;
  }

  async checkoutPaused(): Promise<null> {
    return null;
  }

  async disconnect(mode: GatewayMode): Promise<void> {
    await this.options.delete([...this.connectionOptions(mode), gatewayXOption.signingSecret(mode)]);
  }

  async saveWebhookSettings(mode: GatewayMode, input: WebhookSettingsInput): Promise<WebhookSettingsView> {
    const misplaced = (['webhook_id', 'manual_configuration_complete'] as const).filter((field) => input[field] !== undefined);
    if (misplaced.length > 0) throw new InvalidParamsError(Object.fromEntries(misplaced.map((field) => [field, `${field} is not a ${GATEWAY_X} setting`])));
    if (!input.signing_secret || !/^xwhsec_[A-Za-z0-9]{16,64}$/.test(input.signing_secret)) throw new InvalidParamsError({ signing_secret: 'signing_secret must be a gateway X signing secret (xwhsec_…)' });
    await this.options.setSecret(gatewayXOption.signingSecret(mode), input.signing_secret);
    return { signing_secret: await this.options.getSecretMask(gatewayXOption.signingSecret(mode)) };
  }

  /** The charge the record holds is settled or settling at the provider. */
  async paymentUnderway(payment: HeldProviderPayment): Promise<boolean> {
    if (!payment.provider_payment_ref) return false;
    const charge = await this.client.getCharge(payment.mode, payment.provider_payment_ref);
    return charge !== null && charge.status !== 'failed';
  }

  async dashboardFacts(): Promise<GatewayDashboardFacts> {
    const modes = {} as Record<GatewayMode, GatewayModeFacts>;
    for (const mode of GATEWAY_MODES) {
      const webhookConfigured = (await this.options.get<unknown>(gatewayXOption.signingSecret(mode), null)) !== null;
      modes[mode] = { connected: await this.isConnected(mode), testKeys: null, webhookConfigured, contract: null };
    }
    return { modes, upgrade: null, notices: [] };
  }
}
