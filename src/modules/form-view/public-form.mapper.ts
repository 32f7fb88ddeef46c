import { createHash } from 'node:crypto';
import type { PayerLocale } from '../../common/i18n/index.js';
import { currencyRule } from '../../common/money/index.js';
import { describePrice } from '../forms/index.js';
import type { PublicFormView } from './form-view.service.js';
import { frequencyInterval } from './payer-form.js';
import type { PublicFormDto } from './public-form.dto.js';

/** The public read of a form: the read model as JSON, public values only (the read model holds no secret). */
export function toPublicFormDto({ form, gateways }: PublicFormView, locale: PayerLocale): PublicFormDto {
  return {
    form_id: form.id,
    locale,
    title: form.title,
    show_title: form.showTitle,
    description: form.description,
    plans: form.plans.map((plan, planIndex) => ({
      plan_index: planIndex,
      title: plan.title,
      prices: plan.prices.map((price, priceIndex) => {
        const rule = currencyRule(price.currency);
        return {
          price_index: priceIndex,
          amount: price.amount,
          currency: rule.code,
          currency_exponent: rule.exponent,
          frequency: price.frequency,
          interval: frequencyInterval(price.frequency),
          setup_amount: price.frequency !== 'one-time' && price.setup_amount ? price.setup_amount : null,
          custom_amount: price.custom_amount ? { min: price.custom_amount.min, max: price.custom_amount.max } : null,
          label: describePrice(price),
        };
      }),
    })),
    fields: form.fields.map((field) => ({
      name: field.name,
      label: field.label,
      type: field.type,
      required: field.required,
      ...(field.type === 'select' ? { options: [...(field.options ?? [])], option_labels: [...(field.optionLabels ?? field.options ?? [])] } : {}),
    })),
    success_message: form.successMessage,
    redirect_url: form.redirectUrl,
    button_label: form.buttonLabel,
    gateways: gateways.map((gateway) => ({
      gateway: gateway.id,
      label: gateway.label,
      mode: gateway.mode,
      supports_recurring: gateway.supportsRecurring,
      methods: gateway.methods.map((method) => ({ id: method.id, label: method.label })),
      browser: {
        ...(gateway.browser.publishable_key ? { publishable_key: gateway.browser.publishable_key } : {}),
        ...(gateway.browser.client_id ? { client_id: gateway.browser.client_id } : {}),
      },
    })),
  };
}

/** A strong ETag of the answer's exact JSON: a custom checkout revalidates with If-None-Match and gets 304 while nothing changed. */
export function publicFormEtag(json: string): string {
  return `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`;
}
