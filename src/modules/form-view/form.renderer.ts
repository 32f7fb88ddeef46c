import { currencyRule, toDecimalString } from '../../common/money/index.js';
import { CORE_FIELDS, describePrice, type FormField } from '../forms/index.js';
import { escapeHtml } from '../mail/index.js';
import type { PayerForm } from './payer-form.js';

/** The form's stylesheet (assets/form.css), served beside the hosted page's script. */
export const FORM_STYLESHEET_PATH = '/pay/assets/form.css';

/** The stylesheet that gives a form its accent colour (six hex digits): no inline style is needed for it. */
export function accentStylesheetPath(accent: string): string {
  return `/pay/assets/accent/${accent}.css`;
}

/** A payment method as the form shows it. */
export interface RenderMethod {
  gateway: string;
  method: string;
  label: string;
  /** False: shown disabled, with `note` (the preview's methods the site has not activated) */
  available: boolean;
  note?: string;
  /** Its gateway takes one-time prices only: the page script disables it while a recurring price is chosen */
  oneTimeOnly: boolean;
  /** The page script's driver that pays with it (the hosted page only) */
  driver?: string;
}

export interface FormPageOptions {
  /** `preview`: the builder's live preview, marked as such, payment disabled, no script; `payment`: the hosted page */
  purpose: 'preview' | 'payment';
  methods: RenderMethod[];
  /** Further elements of `<head>` (the hosted page's script tag), already HTML */
  head?: string[];
  /** `data-*` attributes of the `<form>` (names without `data-`), escaped here */
  formData?: Record<string, string | number>;
  /** HTML after the methods (the hosted page's gateway containers) */
  gatewayContainers?: string;
}

/**
 * The one renderer of a payment form (the hosted page `/pay/{form_id}` and the builder's live
 * preview): a whole HTML document drawn from a `PayerForm`. Every merchant string passes through
 * `escapeHtml`; there is no inline script, no inline style and no style attribute (the styles are
 * `form.css` and the accent stylesheet), so both answers can send a CSP without 'unsafe-inline'.
 *
 * The markup is the contract with the hosted page's script (assets/hosted-page.js) and with
 * docs/hosted-page.md: `form#checkout-form` with `data-form-id`, `data-rest-base`,
 * `data-redirect-url`; price radios `input[name=price]` with `data-plan-index`, `data-price-index`,
 * `data-currency`, `data-exponent`, `data-frequency` and, for a customer-entered amount,
 * `data-custom-min`/`-max` and a `label.custom-amount[data-for=<price id>]`; payer fields
 * `[data-field=core|custom]`; method radios `input[name=method]` with `data-gateway`, `data-method`,
 * `data-driver`, `data-one-time-only`; then the gateway containers, `#pay-button`, `#status`,
 * `#failure` (`#failure-message`, `#retry-button`) and `#success` (`#success-message`).
 */
export function renderFormPage(form: PayerForm, options: FormPageOptions): string {
  const preview = options.purpose === 'preview';
  const body: string[] = [];
  if (preview) body.push('<p class="preview-banner" role="note">Preview: payments are disabled.</p>');
  body.push(`<h1 id="form-title"${form.showTitle ? '' : ' class="visually-hidden"'}>${escapeHtml(form.title)}</h1>`);
  if (form.description) body.push(`<p class="description">${escapeHtml(form.description)}</p>`);
  body.push(renderPlans(form), renderFields(form.fields));

  const available = options.methods.some((method) => method.available);
  if (options.methods.length === 0 && !preview) {
    body.push('<p class="notice" id="no-methods">This form cannot take payments right now. Please try again later.</p>');
  } else {
    body.push(renderMethods(options.methods));
    if (options.gatewayContainers) body.push(options.gatewayContainers);
    body.push(
      preview
        ? `<button type="button" id="pay-button" class="pay-button" disabled>${escapeHtml(form.buttonLabel)}</button>`
        : `<button type="submit" id="pay-button" class="pay-button"${available ? '' : ' disabled'}>${escapeHtml(form.buttonLabel)}</button>`,
    );
  }
  if (!preview) {
    body.push('<div id="status" role="status" aria-live="polite"></div>');
    body.push('<div id="failure" class="failure" role="alert" hidden><p id="failure-message"></p><button type="button" id="retry-button">Try again</button></div>');
    body.push(`<div id="success" class="success" hidden><p id="success-message">${escapeHtml(form.successMessage)}</p></div>`);
  }

  const data = Object.entries(options.formData ?? {})
    .map(([name, value]) => ` data-${name}="${escapeHtml(value)}"`)
    .join('');
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    // No favicon request (the service has none to serve).
    '<link rel="icon" href="data:,">',
    `<title>${preview ? 'Preview: ' : ''}${escapeHtml(form.title)}</title>`,
    `<link rel="stylesheet" href="${FORM_STYLESHEET_PATH}">`,
    `<link rel="stylesheet" href="${accentStylesheetPath(form.accent)}">`,
    ...(options.head ?? []),
    '</head>',
    `<body class="${preview ? 'form-preview' : 'form-page'}">`,
    '<main>',
    `<form id="checkout-form" class="checkout-form layout-${form.layout}" novalidate aria-labelledby="form-title"${data}>`,
    ...body,
    '</form>',
    '</main>',
    ...(preview ? [] : ['<noscript><p class="notice">This payment page needs JavaScript.</p></noscript>']),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function renderPlans(form: PayerForm): string {
  const out: string[] = ['<fieldset class="plans">', '<legend>Choose</legend>'];
  let first = true;
  form.plans.forEach((plan, planIndex) => {
    plan.prices.forEach((price, priceIndex) => {
      const id = `price-${planIndex}-${priceIndex}`;
      const rule = currencyRule(price.currency);
      const attrs = [
        `id="${id}"`,
        'type="radio"',
        'name="price"',
        `value="${planIndex}:${priceIndex}"`,
        `data-plan-index="${planIndex}"`,
        `data-price-index="${priceIndex}"`,
        `data-currency="${escapeHtml(rule.code)}"`,
        `data-exponent="${rule.exponent}"`,
        `data-frequency="${escapeHtml(price.frequency)}"`,
        price.custom_amount ? `data-custom-min="${price.custom_amount.min}" data-custom-max="${price.custom_amount.max}" data-default-amount="${price.amount}"` : '',
        first ? 'checked' : '',
      ].filter(Boolean);
      out.push(
        `<label class="choice price" for="${id}"><input ${attrs.join(' ')}> <span class="plan-title">${escapeHtml(plan.title)}</span> <span class="price-label">${escapeHtml(describePrice(price))}</span></label>`,
      );
      if (price.custom_amount) {
        // The smallest amount step the gateway accepts in this currency (0.01 USD, 1 JPY, 0.010 KWD, 1.00 ISK).
        const step = toDecimalString(rule.step, rule.code);
        out.push(
          `<label class="custom-amount" data-for="${id}"${first ? '' : ' hidden'}>Amount (${escapeHtml(rule.code)}) <input type="number" name="custom_amount" inputmode="decimal"` +
            ` min="${toDecimalString(price.custom_amount.min, rule.code)}" max="${toDecimalString(price.custom_amount.max, rule.code)}" step="${step}" value="${toDecimalString(price.amount, rule.code)}"></label>`,
        );
      }
      first = false;
    });
  });
  out.push('</fieldset>');
  return out.join('\n');
}

const AUTOCOMPLETE: Readonly<Record<string, string>> = { email_address: 'email', first_name: 'given-name', last_name: 'family-name' };

function renderFields(fields: FormField[]): string {
  const out: string[] = ['<fieldset class="payer">', '<legend>Your details</legend>'];
  const core = CORE_FIELDS as readonly string[];
  for (const field of fields) {
    const id = `field-${escapeHtml(field.name)}`;
    const kind = core.includes(field.name) ? 'core' : 'custom';
    const common = `id="${id}" name="${escapeHtml(field.name)}" data-field="${kind}"${field.required ? ' required' : ''}`;
    const label = `${escapeHtml(field.label)}${field.required ? ' <span class="required" aria-hidden="true">*</span>' : ''}`;
    switch (field.type) {
      case 'textarea':
        out.push(`<div class="field"><label for="${id}">${label}</label><textarea ${common} maxlength="500"></textarea></div>`);
        break;
      case 'select':
        out.push(
          `<div class="field"><label for="${id}">${label}</label><select ${common}><option value=""></option>` +
            (field.options ?? []).map((option) => `<option value="${escapeHtml(option)}">${escapeHtml(option)}</option>`).join('') +
            '</select></div>',
        );
        break;
      case 'checkbox':
        out.push(`<div class="field checkbox"><label for="${id}"><input type="checkbox" ${common} value="1"> ${label}</label></div>`);
        break;
      default: {
        const type = field.type === 'phone' ? 'tel' : field.type;
        const autocomplete = AUTOCOMPLETE[field.name];
        out.push(
          `<div class="field"><label for="${id}">${label}</label><input type="${escapeHtml(type)}" ${common} maxlength="500"${autocomplete ? ` autocomplete="${autocomplete}"` : ''}></div>`,
        );
      }
    }
  }
  out.push('</fieldset>');
  return out.join('\n');
}

function renderMethods(methods: RenderMethod[]): string {
  const out: string[] = ['<fieldset class="methods">', '<legend>Pay with</legend>'];
  let first = true;
  for (const method of methods) {
    const id = `method-${escapeHtml(method.gateway)}-${escapeHtml(method.method)}`;
    const checked = first && method.available ? ' checked' : '';
    if (method.available) first = false;
    const data = [
      ` data-gateway="${escapeHtml(method.gateway)}"`,
      ` data-method="${escapeHtml(method.method)}"`,
      method.driver ? ` data-driver="${escapeHtml(method.driver)}"` : '',
      method.oneTimeOnly ? ' data-one-time-only="true"' : '',
    ].join('');
    out.push(
      `<label class="choice method${method.available ? '' : ' inactive'}" for="${id}"><input type="radio" id="${id}" name="method"${data}` +
        ` value="${escapeHtml(`${method.gateway}:${method.method}`)}"${checked}${method.available ? '' : ' disabled'}> ${escapeHtml(method.label)}` +
        `${method.note ? ` <small>(${escapeHtml(method.note)})</small>` : ''}</label>`,
    );
  }
  if (methods.length === 0) out.push('<p class="warning">No payment method is enabled for this form.</p>');
  out.push('</fieldset>');
  return out.join('\n');
}
