import { type PayerTranslator, payerTranslator } from '../../common/payer-language/index.js';
import { currencyRule, toDecimalString } from '../../common/money/index.js';
import { CORE_FIELDS, type FormPrice } from '../forms/index.js';
import type { DriverMethodOptions } from '../gateways/index.js';
import { escapeHtml } from '../../common/html/index.js';
import { DEFAULT_BUTTON_LABEL, DEFAULT_SUCCESS_MESSAGE, type PayerField, type PayerForm } from './payer-form.js';

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
  /** What the driver gives the provider's library for this method (the hosted page only; JSON in `data-driver-options`) */
  driverOptions?: DriverMethodOptions;
  /** Its gateway is in test mode: the method is marked, and the page carries the test-mode banner */
  testMode?: boolean;
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
  /** Drawn inside another site's page (`/pay/{id}?embed=1`): no page margins, the body class `embedded` */
  embedded?: boolean;
  /**
   * The payer's language (common/i18n): every text of the service on the page, `<html lang>`,
   * amounts and the pay button. The merchant's own texts are shown as written. Default: English.
   */
  translator?: PayerTranslator;
}

/**
 * The one renderer of a payment form (the hosted page `/pay/{form_id}` and the builder's live
 * preview): a whole HTML document drawn from a `PayerForm`. Every merchant string passes through
 * `escapeHtml`; there is no inline script, no inline style and no style attribute (the styles are
 * `form.css` and the accent stylesheet), so both answers can send a CSP without 'unsafe-inline'.
 *
 * The markup is the contract with the hosted page's script (hosted-page/page/) and with
 * docs/hosted-page.md: `form#checkout-form` with `data-form-id`, `data-rest-base`,
 * `data-redirect-url`; price radios `input[name=price]` with `data-plan-index`, `data-price-index`,
 * `data-currency`, `data-exponent`, `data-frequency` and, for a customer-entered amount,
 * `data-custom-min`/`-max` and a `label.custom-amount[data-for=<price id>]`; payer fields
 * `[data-field=core|custom]`; method radios `input[name=method]` with `data-gateway`, `data-method`,
 * `data-driver`, `data-driver-options`, `data-mode`, `data-one-time-only`; then the gateway
 * containers (drawn by the hosted page: `data-driver`, `data-driver-src`, `data-routes`, …), `#pay-button` (its text names the amount: each price radio carries `data-amount`,
 * `data-display-digits`, `data-pay-verb` and `data-pay-suffix`),
 * `#status`, `#error-summary` (its `ul`), one `#error-<field>` per payer field, `#failure`
 * (`#failure-message`, `#retry-button`) and `#success` (`#success-message`, `#success-amount`,
 * `#success-reference`); `#test-mode` when a method's gateway is in test mode; `#page-messages` (after the
 * form: `data-locale`, the payer's language, and `data-messages`, the catalog's `js.*` texts as JSON).
 */
export function renderFormPage(form: PayerForm, options: FormPageOptions): string {
  const preview = options.purpose === 'preview';
  const t = options.translator ?? payerTranslator('en');
  const body: string[] = [];
  if (preview) body.push('<p class="preview-banner" role="note">Preview: payments are disabled.</p>');
  const testMethods = options.methods.filter((method) => method.testMode);
  // Every method in test mode: the banner says it for the page; some: each of those carries a badge.
  const allTest = testMethods.length > 0 && testMethods.length === options.methods.length;
  if (!preview && testMethods.length > 0) {
    const all = allTest;
    body.push(
      `<p class="test-mode-banner" id="test-mode" role="note"><strong>${escapeHtml(t.t('page.testMode'))}</strong> ${escapeHtml(
        all ? t.t('page.testMode.all') : t.t('page.testMode.some'),
      )}</p>`,
    );
  }
  body.push(`<h1 id="form-title"${form.showTitle ? '' : ' class="visually-hidden"'}>${escapeHtml(form.title)}</h1>`);
  if (form.description) body.push(`<p class="description">${escapeHtml(form.description)}</p>`);
  if (!preview) {
    // Filled by the page script after a refused submit: one link per field in error; focus moves here.
    body.push(`<div id="error-summary" class="error-summary" tabindex="-1" role="group" aria-labelledby="error-summary-title" hidden><h2 id="error-summary-title">${escapeHtml(t.t('page.errorSummary'))}</h2><ul></ul></div>`);
  }
  body.push(renderPlans(form, t), renderFields(form.fields, t));

  const available = options.methods.some((method) => method.available);
  if (options.methods.length === 0 && !preview) {
    body.push(`<p class="notice" id="no-methods">${escapeHtml(t.t('page.noMethods'))}</p>`);
  } else {
    body.push(renderMethods(options.methods, !preview && !allTest, t));
    if (options.gatewayContainers) body.push(options.gatewayContainers);
    // The button names what the first price charges; the page script follows the payer's choice.
    const first = form.plans[0]?.prices[0];
    const label = first ? payLabel(form, first, t) : form.buttonLabel;
    body.push(
      preview
        ? `<button type="button" id="pay-button" class="pay-button" disabled>${escapeHtml(label)}</button>`
        : `<button type="submit" id="pay-button" class="pay-button"${available ? '' : ' disabled'}>${escapeHtml(label)}</button>`,
    );
  }
  if (!preview) {
    body.push('<div id="status" role="status" aria-live="polite"></div>');
    body.push(`<div id="failure" class="failure" tabindex="-1" role="alert" hidden><p id="failure-message"></p><button type="button" id="retry-button">${escapeHtml(t.t('page.tryAgain'))}</button></div>`);
    body.push(
      `<div id="success" class="success" tabindex="-1" hidden><p id="success-message">${escapeHtml(form.successMessage === DEFAULT_SUCCESS_MESSAGE ? t.t('page.success') : form.successMessage)}</p>` +
        '<p id="success-amount"></p><p id="success-reference"></p></div>',
    );
  }

  const data = Object.entries(options.formData ?? {})
    .map(([name, value]) => ` data-${name}="${escapeHtml(value)}"`)
    .join('');
  return [
    '<!doctype html>',
    `<html lang="${escapeHtml(t.lang)}">`,
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
    `<body class="${preview ? 'form-preview' : 'form-page'}${options.embedded ? ' embedded' : ''}">`,
    '<main>',
    `<form id="checkout-form" class="checkout-form layout-${form.layout}" novalidate aria-labelledby="form-title"${data}>`,
    ...body,
    '</form>',
    '</main>',
    // The page script's language: its texts (the catalog's `js.*`) and the locale it writes amounts in, as data attributes like the form's own settings (no inline script).
    ...(preview ? [] : [pageMessagesElement(t)]),
    ...(preview ? [] : [`<noscript><p class="notice">${escapeHtml(t.t('page.noscript'))}</p></noscript>`]),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function renderPlans(form: PayerForm, t: PayerTranslator): string {
  const out: string[] = ['<fieldset class="plans">', `<legend>${escapeHtml(t.t('page.choose'))}</legend>`];
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
        `data-pay-template="${escapeHtml(payTemplate(form, price, t))}"`,
        price.custom_amount ? `data-custom-min="${price.custom_amount.min}" data-custom-max="${price.custom_amount.max}" data-default-amount="${price.amount}"` : '',
        `data-amount="${price.amount}" data-display-digits="${rule.displayDigits}"`,
        `data-pay-verb="${escapeHtml(payVerb(form, price))}" data-pay-suffix="${escapeHtml(paySuffix(price, t))}"`,
        first ? 'checked' : '',
      ].filter(Boolean);
      out.push(
        `<label class="choice price" for="${id}"><input ${attrs.join(' ')}> <span class="plan-title">${escapeHtml(plan.title)}</span> <span class="price-label">${escapeHtml(describePayerPrice(price, t))}</span></label>`,
      );
      if (price.custom_amount) {
        // The smallest amount step the gateway accepts in this currency (0.01 USD, 1 JPY, 0.010 KWD, 1.00 ISK).
        const step = toDecimalString(rule.step, rule.code);
        out.push(
          `<label class="custom-amount" data-for="${id}"${first ? '' : ' hidden'}>${escapeHtml(t.t('page.customAmount', { currency: rule.code }))} <input type="number" name="custom_amount" inputmode="decimal"` +
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

function renderFields(fields: PayerField[], t: PayerTranslator): string {
  const out: string[] = ['<fieldset class="payer">', `<legend>${escapeHtml(t.t('page.yourDetails'))}</legend>`];
  const core = CORE_FIELDS as readonly string[];
  for (const field of fields) {
    const id = `field-${escapeHtml(field.name)}`;
    const kind = core.includes(field.name) ? 'core' : 'custom';
    const common = `id="${id}" name="${escapeHtml(field.name)}" data-field="${kind}"${field.required ? ' required' : ''}`;
    // Where the page script writes this field's own message (and points aria-describedby at it).
    const error = `<p class="field-error" id="error-${escapeHtml(field.name)}" hidden></p>`;
    const label = `${escapeHtml(field.label)}${field.required ? ' <span class="required" aria-hidden="true">*</span>' : ''}`;
    switch (field.type) {
      case 'textarea':
        out.push(`<div class="field"><label for="${id}">${label}</label>${error}<textarea ${common} maxlength="500"></textarea></div>`);
        break;
      case 'select':
        out.push(
          `<div class="field"><label for="${id}">${label}</label>${error}<select ${common}><option value=""></option>` +
            // The value is the choice as written (what is submitted and stored); only the label is the payer's language's.
            (field.options ?? []).map((option, i) => `<option value="${escapeHtml(option)}">${escapeHtml(field.optionLabels?.[i] ?? option)}</option>`).join('') +
            '</select></div>',
        );
        break;
      case 'checkbox':
        out.push(`<div class="field checkbox">${error}<label for="${id}"><input type="checkbox" ${common} value="1"> ${label}</label></div>`);
        break;
      default: {
        const type = field.type === 'phone' ? 'tel' : field.type;
        const autocomplete = AUTOCOMPLETE[field.name];
        out.push(
          `<div class="field"><label for="${id}">${label}</label>${error}<input type="${escapeHtml(type)}" ${common} maxlength="500"${autocomplete ? ` autocomplete="${autocomplete}"` : ''}></div>`,
        );
      }
    }
  }
  out.push('</fieldset>');
  return out.join('\n');
}

function renderMethods(methods: RenderMethod[], testBadges: boolean, t: PayerTranslator): string {
  const out: string[] = ['<fieldset class="methods">', `<legend>${escapeHtml(t.t('page.payWith'))}</legend>`];
  let first = true;
  for (const method of methods) {
    const id = `method-${escapeHtml(method.gateway)}-${escapeHtml(method.method)}`;
    const checked = first && method.available ? ' checked' : '';
    if (method.available) first = false;
    const data = [
      ` data-gateway="${escapeHtml(method.gateway)}"`,
      ` data-method="${escapeHtml(method.method)}"`,
      method.driver ? ` data-driver="${escapeHtml(method.driver)}"` : '',
      method.driverOptions ? ` data-driver-options="${escapeHtml(JSON.stringify(method.driverOptions))}"` : '',
      method.testMode !== undefined ? ` data-mode="${method.testMode ? 'test' : 'live'}"` : '',
      method.oneTimeOnly ? ' data-one-time-only="true"' : '',
    ].join('');
    out.push(
      `<label class="choice method${method.available ? '' : ' inactive'}" for="${id}"><input type="radio" id="${id}" name="method"${data}` +
        ` value="${escapeHtml(`${method.gateway}:${method.method}`)}"${checked}${method.available ? '' : ' disabled'}> ${escapeHtml(t.methodLabel(method.method, method.label))}` +
        `${testBadges && method.testMode ? ` <span class="test-badge">${escapeHtml(t.t('page.testBadge'))}</span>` : ''}` +
        `${method.note ? ` <small>(${escapeHtml(method.note)})</small>` : ''}</label>`,
    );
  }
  if (methods.length === 0) out.push('<p class="warning">No payment method is enabled for this form.</p>');
  out.push('</fieldset>');
  return out.join('\n');
}

/** The default button label is the form's `Pay`; a recurring price subscribes. A label of the merchant's own is kept. */
function payVerb(form: PayerForm, price: FormPrice): string {
  return price.frequency !== 'one-time' && form.buttonLabel === DEFAULT_BUTTON_LABEL ? 'Subscribe' : form.buttonLabel;
}

/**
 * An amount of the price as the payer reads it, with `amount` standing for the money: the interval
 * and a setup fee in the payer's language ("{amount} / Monat + 5,00 € Einrichtungsgebühr").
 */
function amountText(price: FormPrice, amount: string, t: PayerTranslator): string {
  const every = price.frequency === 'one-time' ? amount : t.t('price.recurring', { amount, interval: t.t(`freq.${price.frequency}`) });
  return price.setup_amount ? t.t('price.setupFee', { amount: every, fee: t.money(price.setup_amount, price.currency) }) : every;
}

/** What follows the amount on the button: the interval and a setup fee (" / month + $5.00 setup fee"). */
function paySuffix(price: FormPrice, t: PayerTranslator): string {
  return amountText(price, '', t);
}

/**
 * The button's text with `{amount}` where the page script puts the chosen amount and its suffix
 * ("Pay {amount}", "{amount} bezahlen"); a label of the merchant's own comes first, as written.
 */
function payTemplate(form: PayerForm, price: FormPrice, t: PayerTranslator): string {
  if (form.buttonLabel !== DEFAULT_BUTTON_LABEL) return `${form.buttonLabel} {amount}`;
  return t.t(price.frequency === 'one-time' ? 'page.pay' : 'page.subscribe', { amount: '{amount}' });
}

/** A price as the payer reads it in their language: "$10.00", "9,99 € / Monat", "Any amount from $1.00 to $10,000.00". */
export function describePayerPrice(price: FormPrice, t: PayerTranslator): string {
  const base = price.custom_amount
    ? t.t('price.any', { min: t.money(price.custom_amount.min, price.currency), max: t.money(price.custom_amount.max, price.currency) })
    : t.money(price.amount, price.currency);
  return amountText(price, base, t);
}

/**
 * The Pay button's text for a price: what will be charged ("Pay $10.00", "Subscribe $9.00 /
 * month", "10,00 € bezahlen"); a customer-entered amount starts at its suggested amount.
 */
export function payLabel(form: PayerForm, price: FormPrice, t: PayerTranslator = payerTranslator('en')): string {
  return payTemplate(form, price, t).replace('{amount}', amountText(price, t.money(price.amount, price.currency), t));
}

/**
 * `#page-messages`: a payer page script's texts (the catalog's `js.*`) and its language as data
 * attributes (no inline script), read by common/browser-driver/page-messages.ts. The hosted page
 * and the manage page's card page carry it.
 */
export function pageMessagesElement(t: PayerTranslator): string {
  return `<div id="page-messages" hidden data-locale="${escapeHtml(t.locale)}" data-messages="${escapeHtml(JSON.stringify(t.browserMessages()))}"></div>`;
}
