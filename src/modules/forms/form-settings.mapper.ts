import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { InvalidParamsError } from '../../common/errors/index.js';
import { validationFailure } from '../../common/validation/index.js';
import type { FormDisplaySettings, FormPrice, PaymentForm, PaymentFormSettings } from './form-settings.js';
import { CHECKOUT_GATEWAYS } from '../gateways/index.js';
import { type FormPaymentMethodsDto, type FormPriceDto, PaymentFormSettingsDto } from './payment-form-settings.dto.js';
import type { PaymentFormDto } from './payment-form.dto.js';

/** Plain settings from a validated DTO: explicit keys only, no class instances, nothing undefined. */
export function toFormSettings(dto: PaymentFormSettingsDto): PaymentFormSettings {
  const settings: PaymentFormSettings = {
    plans: dto.plans.map((plan) => ({ title: plan.title, prices: plan.prices.map(toPrice) })),
    payment_methods: paymentMethods(dto.payment_methods),
    fields: dto.fields.map((field) => ({
      name: field.name,
      type: field.type,
      label: field.label,
      required: field.required,
      ...(field.options ? { options: [...field.options] } : {}),
    })),
    submit_actions: [...dto.submit_actions],
    email: {
      email_to: dto.email.email_to,
      admin_subject: dto.email.admin_subject,
      payer_subject: dto.email.payer_subject,
      from_name: dto.email.from_name,
      ...(dto.email.renewal_failure_emails !== undefined ? { renewal_failure_emails: dto.email.renewal_failure_emails } : {}),
    },
    display: toDisplay(dto.display),
  };
  if (dto.redirect_url !== undefined) settings.redirect_url = dto.redirect_url;
  if (dto.success_message !== undefined) settings.success_message = dto.success_message;
  if (dto.translations !== undefined) {
    settings.translations = dto.translations.map((entry) => {
      const out: NonNullable<PaymentFormSettings['translations']>[number] = { locale: entry.locale };
      for (const key of ['title', 'description', 'button_label', 'success_message', 'payer_subject'] as const) if (entry[key] !== undefined) out[key] = entry[key];
      if (entry.fields !== undefined) {
        out.fields = entry.fields.map((field) => ({
          name: field.name,
          ...(field.label !== undefined ? { label: field.label } : {}),
          ...(field.options !== undefined ? { options: [...field.options] } : {}),
        }));
      }
      if (entry.plans !== undefined) out.plans = entry.plans.map((plan) => ({ plan_index: plan.plan_index, title: plan.title }));
      return out;
    });
  }
  return settings;
}

/** The validated lists, in catalog order (the DTO declares one property per catalog gateway). */
function paymentMethods(dto: FormPaymentMethodsDto): PaymentFormSettings['payment_methods'] {
  const out: PaymentFormSettings['payment_methods'] = {};
  for (const gateway of CHECKOUT_GATEWAYS) {
    const methods = (dto as Partial<Record<string, string[]>>)[gateway];
    if (methods) out[gateway] = [...methods];
  }
  return out;
}

function toPrice(price: FormPriceDto): FormPrice {
  return {
    amount: price.amount,
    currency: price.currency,
    frequency: price.frequency,
    ...(price.setup_amount !== undefined ? { setup_amount: price.setup_amount } : {}),
    ...(price.custom_amount ? { custom_amount: { min: price.custom_amount.min, max: price.custom_amount.max } } : {}),
  };
}

function toDisplay(display: PaymentFormSettingsDto['display']): FormDisplaySettings {
  const out: FormDisplaySettings = {};
  for (const [key, value] of Object.entries(display ?? {})) {
    if (value !== undefined) out[key] = value as string | number | boolean;
  }
  return out;
}

/**
 * Validates plain settings with exactly the rules of the HTTP write routes. Returns each bad
 * field by dotted path (`prefix` put in front, e.g. `settings.`) with its message, or null.
 */
export function checkFormSettings(plain: unknown, prefix = ''): Record<string, string> | null {
  const result = validateSettings(plain, prefix);
  return 'problems' in result ? result.problems : null;
}

/** Validated plain settings, or a 400 `rest_invalid_param` naming each bad field. */
export function parseFormSettings(plain: unknown, prefix = ''): PaymentFormSettings {
  const result = validateSettings(plain, prefix);
  if ('problems' in result) throw new InvalidParamsError(result.problems);
  return toFormSettings(result.dto);
}

function validateSettings(plain: unknown, prefix: string): { dto: PaymentFormSettingsDto } | { problems: Record<string, string> } {
  const dto = plainToInstance(PaymentFormSettingsDto, plain ?? {});
  const errors = validateSync(dto, { whitelist: true, forbidNonWhitelisted: true, stopAtFirstError: true, validationError: { target: false, value: true } });
  if (!errors.length) return { dto };
  const params = (validationFailure(errors).data.params ?? {}) as Record<string, string>;
  return { problems: Object.fromEntries(Object.entries(params).map(([path, message]) => [prefix + path, message])) };
}

export function toPaymentFormDto(form: PaymentForm): PaymentFormDto {
  return {
    id: form.id,
    title: form.title,
    status: form.status,
    author_id: form.author_id,
    // Same JSON shape; the DTO class only describes it for OpenAPI.
    settings: form.settings as unknown as PaymentFormSettingsDto,
    created_at: form.created_at,
    updated_at: form.updated_at,
  };
}
