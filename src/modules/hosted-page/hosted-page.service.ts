import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, REST_NAMESPACE } from '../../config/index.js';
import { FormsService, type PaymentForm } from '../forms/index.js';
import { type BrowserConfig, type CheckoutGateway, GatewayRegistry, GatewayStateService } from '../gateways/index.js';

/** The payment methods the hosted page can drive in the payer's browser, per gateway. */
export const PAGE_METHODS: Readonly<Partial<Record<CheckoutGateway, string>>> = {
  gateway_a: 'ccard',
  gateway_b: 'standard_checkout',
};

export interface PageMethod {
  gateway: CheckoutGateway;
  method: string;
  /** Public values for the provider's browser library (publishable key, client id) */
  browser: BrowserConfig;
  /** One-time prices only (gateway B) */
  oneTimeOnly: boolean;
}

export interface HostedPageView {
  form: PaymentForm;
  methods: PageMethod[];
  /** `/wp-json/checkout/v1`: the public routes the page's script calls */
  restBase: string;
  gatewayAJsUrl: string;
  gatewayBJsUrl: string;
}

/**
 * What the hosted payment page shows: a published form, and of its payment methods those the
 * page can drive whose gateway is connected in its current mode, has the method active and is not
 * paused. Gateways are reached through the registry only; no secret is read.
 */
@Injectable()
export class HostedPageService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly forms: FormsService,
    private readonly registry: GatewayRegistry,
    private readonly state: GatewayStateService,
  ) {}

  /** Null for an unknown or unpublished form (the page answers 404 either way). */
  async view(formId: number): Promise<HostedPageView | null> {
    const form = await this.forms.findById(formId);
    if (!form || form.status !== 'publish') return null;
    return {
      form,
      methods: await this.methodsOf(form),
      restBase: `/${this.config.restRoot}/${REST_NAMESPACE}`,
      gatewayAJsUrl: this.config.gatewayAJsUrl,
      gatewayBJsUrl: this.config.gatewayBJsUrl,
    };
  }

  private async methodsOf(form: PaymentForm): Promise<PageMethod[]> {
    const methods: PageMethod[] = [];
    for (const adapter of this.registry.all()) {
      const method = PAGE_METHODS[adapter.id];
      if (!method || !(form.settings.payment_methods[adapter.id] ?? []).includes(method)) continue;
      if (!(await this.state.getActiveMethods(adapter.id)).includes(method)) continue;
      const mode = await this.state.getMode(adapter.id);
      if (!(await adapter.isConnected(mode)) || (await adapter.checkoutPaused(mode)) === true) continue;
      const browser = adapter.browserConfig ? await adapter.browserConfig(mode) : null;
      if (!browser) continue;
      methods.push({ gateway: adapter.id, method, browser, oneTimeOnly: !adapter.supportsRecurring });
    }
    return methods;
  }
}
