import { currencyRule, toDecimalString } from '../../common/money/index.js';
import { CORE_FIELDS, describePrice, type FormField, type PaymentFormSettings } from '../forms/index.js';
import { escapeHtml } from '../mail/index.js';

export interface PreviewMethod {
  gateway: string;
  method: string;
  label: string;
  /** Whether the site has the method active for its gateway; inactive ones are shown disabled */
  active: boolean;
}

export interface PreviewInput {
  title: string;
  settings: PaymentFormSettings;
  methods: PreviewMethod[];
}

/**
 * Server-rendered HTML of a payment form as the payer would see it, for the builder's live
 * preview. Every merchant-provided string passes through escapeHtml; the page carries no script
 * (the route also sends a CSP that forbids any).
 */
export function renderLivePreview({ title, settings, methods }: PreviewInput): string {
  const display = settings.display ?? {};
  const accent = typeof display.primary_color === 'string' && /^#[0-9a-fA-F]{6}$/.test(display.primary_color) ? display.primary_color : '#2563eb';
  const layout = display.layout === 'compact' ? 'compact' : 'stacked';
  const buttonLabel = typeof display.button_label === 'string' && display.button_label ? display.button_label : 'Pay';
  const body: string[] = ['<p class="preview-banner">Preview: payments are disabled.</p>'];
  if (display.show_title !== false) body.push(`<h1>${escapeHtml(title)}</h1>`);
  if (typeof display.description === 'string' && display.description) body.push(`<p class="description">${escapeHtml(display.description)}</p>`);
  body.push(renderPlans(settings), renderFields(settings.fields), renderMethods(methods));
  body.push(`<button type="button" disabled>${escapeHtml(buttonLabel)}</button>`);

  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>Preview: ${escapeHtml(title)}</title>`,
    `<style>${styles(accent)}</style>`,
    '</head>',
    '<body>',
    `<form class="checkout-form layout-${layout}" action="#" method="post" novalidate>`,
    ...body,
    '</form>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function renderPlans(settings: PaymentFormSettings): string {
  const rows: string[] = ['<fieldset class="plans">', '<legend>Choose an option</legend>'];
  let first = true;
  settings.plans.forEach((plan, planIndex) => {
    plan.prices.forEach((price, priceIndex) => {
      const id = `price-${planIndex}-${priceIndex}`;
      rows.push(
        `<label class="price" for="${id}"><input type="radio" id="${id}" name="price" value="${planIndex}:${priceIndex}"${first ? ' checked' : ''}>` +
          ` <span class="plan-title">${escapeHtml(plan.title)}</span> <span class="amount">${escapeHtml(describePrice(price))}</span></label>`,
      );
      if (price.custom_amount) {
        // The smallest amount step the gateway accepts in this currency (0.01 USD, 1 JPY, 0.010 KWD, 1.00 ISK).
        const step = toDecimalString(currencyRule(price.currency).step, price.currency);
        rows.push(
          `<label class="custom-amount" for="${id}-amount">Amount (${escapeHtml(price.currency)})` +
            ` <input type="number" id="${id}-amount" name="amount" min="${toDecimalString(price.custom_amount.min, price.currency)}"` +
            ` max="${toDecimalString(price.custom_amount.max, price.currency)}" step="${step}" value="${toDecimalString(price.amount, price.currency)}"></label>`,
        );
      }
      first = false;
    });
  });
  rows.push('</fieldset>');
  return rows.join('\n');
}

function renderFields(fields: FormField[]): string {
  const rows: string[] = ['<fieldset class="fields">', '<legend>Your details</legend>'];
  for (const field of fields) {
    const id = `field-${escapeHtml(field.name)}`;
    const name = escapeHtml(field.name);
    const required = field.required ? ' required' : '';
    const label = `${escapeHtml(field.label)}${field.required ? ' <span class="required">*</span>' : ''}`;
    const core = (CORE_FIELDS as readonly string[]).includes(field.name) ? ' core' : '';
    switch (field.type) {
      case 'textarea':
        rows.push(`<div class="field${core}"><label for="${id}">${label}</label><textarea id="${id}" name="${name}"${required}></textarea></div>`);
        break;
      case 'select':
        rows.push(
          `<div class="field${core}"><label for="${id}">${label}</label><select id="${id}" name="${name}"${required}>` +
            (field.options ?? []).map((option) => `<option value="${escapeHtml(option)}">${escapeHtml(option)}</option>`).join('') +
            '</select></div>',
        );
        break;
      case 'checkbox':
        rows.push(`<div class="field checkbox${core}"><label for="${id}"><input type="checkbox" id="${id}" name="${name}" value="1"${required}> ${label}</label></div>`);
        break;
      default: {
        const type = field.type === 'phone' ? 'tel' : field.type;
        rows.push(`<div class="field${core}"><label for="${id}">${label}</label><input type="${type}" id="${id}" name="${name}"${required}></div>`);
      }
    }
  }
  rows.push('</fieldset>');
  return rows.join('\n');
}

function renderMethods(methods: PreviewMethod[]): string {
  const rows: string[] = ['<fieldset class="methods">', '<legend>Payment method</legend>'];
  let first = true;
  for (const method of methods) {
    const id = `method-${escapeHtml(method.gateway)}-${escapeHtml(method.method)}`;
    const checked = first && method.active ? ' checked' : '';
    if (method.active) first = false;
    rows.push(
      `<label class="method${method.active ? '' : ' inactive'}" for="${id}"><input type="radio" id="${id}" name="payment_method"` +
        ` value="${escapeHtml(`${method.gateway}:${method.method}`)}"${checked}${method.active ? '' : ' disabled'}> ${escapeHtml(method.label)}` +
        `${method.active ? '' : ' <small>(not active on this site)</small>'}</label>`,
    );
  }
  if (methods.length === 0) rows.push('<p class="warning">No payment method is enabled for this form.</p>');
  rows.push('</fieldset>');
  return rows.join('\n');
}

function styles(accent: string): string {
  return [
    'body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#0f172a;margin:0;padding:24px;background:#f8fafc}',
    '.checkout-form{max-width:480px;margin:0 auto;background:#fff;border:1px solid #e2e8f0;border-radius:8px;padding:24px}',
    '.layout-compact{max-width:360px;padding:16px}',
    '.preview-banner{font-size:12px;color:#64748b;margin:0 0 12px}',
    'fieldset{border:0;padding:0;margin:0 0 16px}legend{font-weight:600;margin-bottom:8px}',
    'label{display:block;margin:6px 0}.price{padding:8px;border:1px solid #e2e8f0;border-radius:6px}',
    '.field input,.field select,.field textarea,.custom-amount input{display:block;width:100%;box-sizing:border-box;padding:8px;border:1px solid #cbd5e1;border-radius:4px}',
    '.checkbox input{display:inline;width:auto}.required{color:#dc2626}.inactive{color:#94a3b8}',
    `button{width:100%;padding:12px;border:0;border-radius:6px;background:${accent};color:#fff;font-size:16px}`,
  ].join('\n');
}
