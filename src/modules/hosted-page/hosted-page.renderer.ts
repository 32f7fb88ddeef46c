import { currencyRule } from '../../common/money/index.js';
import { CORE_FIELDS, describePrice, type FormField, methodLabel } from '../forms/index.js';
import { escapeHtml } from '../mail/index.js';
import type { HostedPageView } from './hosted-page.service.js';

/** Where the page's own script is served (outside the REST namespace, beside the page). */
export const HOSTED_PAGE_SCRIPT_PATH = '/pay/assets/hosted-page.js';

const DEFAULT_SUCCESS = 'Thank you: your payment is complete.';

/**
 * Origins a provider's browser library needs besides its own (frames, API calls, images), from
 * the providers' CSP guidance. Only for the real libraries' origins; a stand-in (tests, a demo)
 * gets exactly its own origin.
 */
const STRIPE = { script: ['https://*.js.stripe.com'], connect: ['https://api.stripe.com'], frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'], img: ['https://*.stripe.com'] };
const PAYPAL = { script: ['https://*.paypal.com', 'https://*.paypalobjects.com'], connect: ['https://*.paypal.com'], frame: ['https://*.paypal.com'], img: ['https://*.paypal.com', 'https://*.paypalobjects.com'] };
const COMPANION_ORIGINS: Record<string, Record<'script' | 'connect' | 'frame' | 'img', string[]>> = {
  'https://js.stripe.com': STRIPE,
  'https://www.paypal.com': PAYPAL,
  'https://www.sandbox.paypal.com': PAYPAL,
};

/**
 * The page's Content-Security-Policy: scripts only with this response's nonce (the page's own
 * script and, loaded by it, the providers' libraries: 'strict-dynamic', with the origins as the
 * fallback of older browsers), no inline script, no plugins, no framing, forms post nowhere.
 */
export function hostedPageCsp(nonce: string, scriptUrls: string[]): string {
  const origins = [...new Set(scriptUrls.map((url) => new URL(url).origin))];
  const extra = (kind: 'script' | 'connect' | 'frame' | 'img') => origins.flatMap((origin) => COMPANION_ORIGINS[origin]?.[kind] ?? []);
  const list = (...items: string[]) => (items.length > 0 ? [...new Set(items)].join(' ') : "'none'");
  return [
    "default-src 'none'",
    // Browsers that know 'strict-dynamic' ignore the origins; older ones need them.
    `script-src ${list(`'nonce-${nonce}'`, "'strict-dynamic'", "'self'", ...origins, ...extra('script'))}`,
    `style-src 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    `connect-src ${list("'self'", ...origins, ...extra('connect'))}`,
    `frame-src ${list(...origins, ...extra('frame'))}`,
    `img-src ${list("'self'", 'data:', ...origins, ...extra('img'))}`,
    "font-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}

/**
 * The hosted payment page of a published form, server-rendered: every merchant string escaped,
 * no inline script (the page's script is a static file carrying the nonce), and of the gateways
 * only public values (publishable key, client id) in data attributes for their browser libraries.
 */
export function renderHostedPage(view: HostedPageView, nonce: string): string {
  const { form } = view;
  const settings = form.settings;
  const display = settings.display ?? {};
  const accent = typeof display.primary_color === 'string' && /^#[0-9a-fA-F]{6}$/.test(display.primary_color) ? display.primary_color : '#2563eb';
  const buttonLabel = typeof display.button_label === 'string' && display.button_label ? display.button_label : 'Pay';
  const successMessage = settings.submit_actions.includes('message') && settings.success_message ? settings.success_message : DEFAULT_SUCCESS;
  const redirect = settings.submit_actions.includes('redirect') && settings.redirect_url ? settings.redirect_url : '';
  const attr = (name: string, value: unknown) => ` ${name}="${escapeHtml(value)}"`;

  const body: string[] = [];
  body.push(`<h1 id="form-title">${escapeHtml(form.title)}</h1>`);
  if (typeof display.description === 'string' && display.description) body.push(`<p class="description">${escapeHtml(display.description)}</p>`);
  body.push(renderPlans(view));
  body.push(renderFields(settings.fields));

  if (view.methods.length === 0) {
    body.push('<p class="notice" id="no-methods">This form cannot take payments right now. Please try again later.</p>');
  } else {
    body.push('<fieldset class="methods"><legend>Pay with</legend>');
    view.methods.forEach((method, index) => {
      body.push(
        `<label class="choice"><input type="radio" name="method"${attr('value', `${method.gateway}:${method.method}`)}${attr('data-gateway', method.gateway)}${attr('data-method', method.method)}` +
          `${method.oneTimeOnly ? ' data-one-time-only="true"' : ''}${index === 0 ? ' checked' : ''}> ${escapeHtml(methodLabel(method.method))}</label>`,
      );
    });
    body.push('</fieldset>');
    body.push('<div id="card-section" class="provider" hidden><div id="card-element" class="card-element"></div></div>');
    body.push('<div id="wallet-section" class="provider" hidden><div id="wallet-buttons"></div></div>');
    body.push(`<button type="submit" id="pay-button">${escapeHtml(buttonLabel)}</button>`);
  }
  body.push('<div id="status" role="status" aria-live="polite"></div>');
  body.push('<div id="failure" class="failure" role="alert" hidden><p id="failure-message"></p><button type="button" id="retry-button">Try again</button></div>');
  body.push(`<div id="success" class="success" hidden><p id="success-message">${escapeHtml(successMessage)}</p></div>`);

  const gatewayA = view.methods.find((method) => method.gateway === 'gateway_a');
  const gatewayB = view.methods.find((method) => method.gateway === 'gateway_b');
  const data = [
    attr('data-form-id', form.id),
    attr('data-rest-base', view.restBase),
    gatewayA ? attr('data-gateway-a-js', view.gatewayAJsUrl) + attr('data-gateway-a-key', gatewayA.browser.publishable_key) : '',
    gatewayB ? attr('data-gateway-b-js', view.gatewayBJsUrl) + attr('data-gateway-b-client-id', gatewayB.browser.client_id) : '',
    redirect ? attr('data-redirect-url', redirect) : '',
  ].join('');

  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    // No favicon request (the service has none to serve).
    '<link rel="icon" href="data:,">',
    `<title>${escapeHtml(form.title)}</title>`,
    `<style nonce="${escapeHtml(nonce)}">${pageStyle(accent)}</style>`,
    `<script src="${HOSTED_PAGE_SCRIPT_PATH}" nonce="${escapeHtml(nonce)}" defer></script>`,
    '</head>',
    '<body>',
    `<main><form id="checkout-form" novalidate${data}>`,
    ...body,
    '</form></main>',
    '<noscript><p class="notice">This payment page needs JavaScript.</p></noscript>',
    '</body>',
    '</html>',
  ].join('\n');
}

function renderPlans(view: HostedPageView): string {
  const out: string[] = ['<fieldset class="plans"><legend>Choose</legend>'];
  let first = true;
  view.form.settings.plans.forEach((plan, planIndex) => {
    plan.prices.forEach((price, priceIndex) => {
      const id = `price-${planIndex}-${priceIndex}`;
      const exponent = currencyRule(price.currency).exponent;
      const attrs = [
        `id="${id}"`,
        'type="radio"',
        'name="price"',
        `value="${planIndex}:${priceIndex}"`,
        `data-plan-index="${planIndex}"`,
        `data-price-index="${priceIndex}"`,
        `data-currency="${escapeHtml(price.currency)}"`,
        `data-exponent="${exponent}"`,
        `data-frequency="${escapeHtml(price.frequency)}"`,
        price.custom_amount ? `data-custom-min="${price.custom_amount.min}" data-custom-max="${price.custom_amount.max}" data-default-amount="${price.amount}"` : '',
        first ? 'checked' : '',
      ].filter(Boolean);
      first = false;
      out.push(
        `<label class="choice price" for="${id}"><input ${attrs.join(' ')}> <span class="plan-title">${escapeHtml(plan.title)}</span> <span class="price-label">${escapeHtml(describePrice(price))}</span></label>`,
      );
      if (price.custom_amount) {
        const step = 1 / 10 ** exponent;
        const major = (minor: number) => (minor / 10 ** exponent).toFixed(exponent);
        out.push(
          `<label class="custom-amount" data-for="${id}" hidden>Amount (${escapeHtml(price.currency)}) <input type="number" name="custom_amount" inputmode="decimal"` +
            ` min="${major(price.custom_amount.min)}" max="${major(price.custom_amount.max)}" step="${step}" value="${major(price.amount)}"></label>`,
        );
      }
    });
  });
  out.push('</fieldset>');
  return out.join('\n');
}

function renderFields(fields: FormField[]): string {
  const out: string[] = ['<fieldset class="payer"><legend>Your details</legend>'];
  const core = CORE_FIELDS as readonly string[];
  const list = fields.some((field) => field.name === 'email_address')
    ? fields
    : [{ name: 'email_address', type: 'email', label: 'Email', required: true } as FormField, ...fields];
  for (const field of list) {
    const id = `field-${field.name}`;
    const kind = core.includes(field.name) ? 'core' : 'custom';
    const required = field.required || field.name === 'email_address';
    const common = `id="${id}" name="${escapeHtml(field.name)}" data-field="${kind}"${required ? ' required' : ''}`;
    const label = `${escapeHtml(field.label)}${required ? ' *' : ''}`;
    let control: string;
    switch (field.type) {
      case 'textarea':
        control = `<textarea ${common} maxlength="500"></textarea>`;
        break;
      case 'select':
        control = `<select ${common}><option value=""></option>${(field.options ?? []).map((option) => `<option value="${escapeHtml(option)}">${escapeHtml(option)}</option>`).join('')}</select>`;
        break;
      case 'checkbox':
        out.push(`<label class="checkbox" for="${id}"><input type="checkbox" ${common}> ${label}</label>`);
        continue;
      default: {
        const type = field.type === 'phone' ? 'tel' : field.type;
        const autocomplete = { email_address: 'email', first_name: 'given-name', last_name: 'family-name' }[field.name];
        control = `<input type="${escapeHtml(type)}" ${common} maxlength="500"${autocomplete ? ` autocomplete="${autocomplete}"` : ''}>`;
      }
    }
    out.push(`<label for="${id}">${label}</label>${control}`);
  }
  out.push('</fieldset>');
  return out.join('\n');
}

function pageStyle(accent: string): string {
  return [
    'body{font-family:system-ui,sans-serif;background:#f4f5f7;margin:0;color:#1f2933}',
    'main{max-width:34rem;margin:2rem auto;background:#fff;padding:1.5rem 2rem;border-radius:10px;box-shadow:0 1px 4px rgba(0,0,0,.08)}',
    'h1{font-size:1.5rem;margin:0 0 1rem}',
    'fieldset{border:0;padding:0;margin:0 0 1.2rem}legend{font-weight:600;margin-bottom:.5rem}',
    '.choice{display:block;padding:.55rem .7rem;border:1px solid #d5d9e0;border-radius:6px;margin-bottom:.4rem;cursor:pointer}',
    '.price-label{float:right;color:#52606d}',
    '.payer label{display:block;margin:.6rem 0 .2rem;font-size:.9rem}',
    'input[type=text],input[type=email],input[type=tel],input[type=number],select,textarea{width:100%;box-sizing:border-box;padding:.5rem;border:1px solid #c3c9d1;border-radius:6px;font:inherit}',
    '.custom-amount{display:block;margin:.3rem 0 .8rem}',
    '.provider{margin:1rem 0}.card-element{padding:.6rem;border:1px solid #c3c9d1;border-radius:6px}',
    `button{background:${accent};color:#fff;border:0;border-radius:6px;padding:.7rem 1.4rem;font:inherit;font-weight:600;cursor:pointer}`,
    'button[disabled]{opacity:.6;cursor:wait}',
    '.failure{color:#9b1c1c;background:#fdecec;padding:.8rem;border-radius:6px;margin-top:1rem}',
    '.success{color:#0f5132;background:#e6f4ea;padding:.8rem;border-radius:6px;margin-top:1rem}',
    '.notice{color:#52606d}#status{margin-top:.8rem;color:#52606d}',
  ].join('\n');
}
