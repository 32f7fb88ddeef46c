import { Injectable } from '@nestjs/common';
import { FormsService, type PaymentForm } from '../forms/index.js';
import { type BrowserConfig, type CheckoutGateway, gatewayMethods, type GatewayMode, GatewayRegistry, GatewayStateService, type HostedCheckout, methodLabel } from '../gateways/index.js';
import type { PayerLocale } from '../../common/i18n/index.js';
import { SettingsService } from '../settings/index.js';
import { type PayerForm, toPayerForm } from './payer-form.js';

/** A gateway that can take payments for the form now, with what a browser needs to pay through it. */
export interface PayableGateway {
  id: CheckoutGateway;
  /** How messages name it (`gateway A`) */
  label: string;
  /** Its current site mode: the mode payments are made in */
  mode: GatewayMode;
  supportsRecurring: boolean;
  /** The form's methods of this gateway that the site has active, in the gateway's catalog order */
  methods: Array<{ id: string; label: string }>;
  /** The public values its browser library needs (never a secret) */
  browser: BrowserConfig;
  /** How the hosted page pays through it; null when the page cannot */
  hostedCheckout: HostedCheckout | null;
}

/** The one read model of a published form: the hosted page renders it, `GET /payment/form/{form_id}` serializes it. */
export interface PublicFormView {
  form: PayerForm;
  gateways: PayableGateway[];
}

/**
 * Builds the payer's view of a published form: the form's settings resolved for payers, and of
 * its payment methods those whose gateway can take payments now (connected in its current mode,
 * checkout not paused, its browser library's public values known) and that the site has active.
 * Gateways are reached through the registry only; no secret is read.
 */
@Injectable()
export class FormViewService {
  constructor(
    private readonly forms: FormsService,
    private readonly registry: GatewayRegistry,
    private readonly state: GatewayStateService,
    private readonly settings: SettingsService,
  ) {}

  /** The site's default payer language (a form's `auto` locale falls back to it). */
  defaultPayerLocale(): Promise<PayerLocale> {
    return this.settings.payerLanguage();
  }

  /** Null for an unknown or unpublished form. */
  async published(formId: number): Promise<PublicFormView | null> {
    const form = await this.forms.findById(formId);
    if (!form || form.status !== 'publish') return null;
    return { form: toPayerForm(form.id, form.title, form.settings), gateways: await this.payableGateways(form) };
  }

  private async payableGateways(form: PaymentForm): Promise<PayableGateway[]> {
    const gateways: PayableGateway[] = [];
    for (const adapter of this.registry.all()) {
      const wanted = form.settings.payment_methods[adapter.id] ?? [];
      if (wanted.length === 0 || !adapter.browserConfig) continue;
      const { mode, connected, activeMethods } = await this.state.checkoutState(adapter.id);
      const methods = gatewayMethods(adapter.id).filter((method) => wanted.includes(method) && activeMethods.includes(method));
      if (!connected || methods.length === 0 || (await adapter.checkoutPaused(mode)) === true) continue;
      const browser = await adapter.browserConfig(mode);
      if (!browser) continue;
      gateways.push({
        id: adapter.id,
        label: adapter.label,
        mode,
        supportsRecurring: adapter.supportsRecurring,
        methods: methods.map((method) => ({ id: method, label: methodLabel(method) })),
        browser,
        hostedCheckout: adapter.hostedCheckout ?? null,
      });
    }
    return gateways;
  }
}
