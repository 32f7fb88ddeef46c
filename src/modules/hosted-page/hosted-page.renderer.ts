import { FORM_STYLESHEET_PATH, type PublicFormView, type RenderMethod, renderFormPage } from '../form-view/index.js';
import type { HostedCheckout } from '../gateways/index.js';
import { escapeHtml } from '../../common/html/index.js';
import { type PayerTranslator, payerTranslator } from '../../common/payer-language/index.js';

/** The addresses of the page's built scripts (PageBundles): the page script and the drivers by name. */
export interface PageScripts {
  readonly pageScript: string;
  driver(name: string): string | null;
}

/** A gateway the page pays through: its id, the public values for its library, how the page drives it and where its driver's bundle is. */
export interface PageGateway {
  gateway: string;
  browser: Record<string, string>;
  checkout: HostedCheckout;
  driverScript: string;
}

/** The gateways of a read model the page can drive (a built driver for the adapter's `hostedCheckout`), and their methods the page can take. */
export function pageGateways(view: PublicFormView, scripts: PageScripts): Array<PageGateway & { methods: RenderMethod[] }> {
  return view.gateways.flatMap((gateway) => {
    const checkout = gateway.hostedCheckout;
    const driverScript = checkout ? scripts.driver(checkout.driver) : null;
    if (!checkout || !driverScript) return [];
    const methods = gateway.methods
      .filter((method) => checkout.methods.includes(method.id))
      .map((method): RenderMethod => ({
        gateway: gateway.id,
        method: method.id,
        label: method.label,
        available: true,
        oneTimeOnly: !gateway.supportsRecurring,
        driver: checkout.driver,
        ...(checkout.methodOptions?.[method.id] ? { driverOptions: checkout.methodOptions[method.id] } : {}),
        testMode: gateway.mode === 'test',
      }));
    if (methods.length === 0) return [];
    return [{ gateway: gateway.id, browser: { ...gateway.browser }, checkout, driverScript, methods }];
  });
}

/**
 * The page's Content-Security-Policy: scripts only with this response's nonce (the page's own
 * script and, loaded by it, the providers' libraries: 'strict-dynamic', with the origins as the
 * fallback of older browsers), no inline script, no plugins, forms post nowhere, and framed only
 * by the origins of `EMBED_ORIGINS` (`frameAncestors`; none by default: no framing at all).
 * Styles come from the service's own stylesheets; only a provider's real library adds what it
 * needs (its nonce'd `<style>` elements, the style attributes of what it inserts), as its
 * adapter's `hostedCheckout.csp` says.
 */
export function hostedPageCsp(nonce: string, libraries: readonly HostedCheckout[], frameAncestors: readonly string[] = []): string {
  const origins = [...new Set(libraries.map((library) => new URL(library.libraryUrl).origin))];
  const extra = (kind: 'script' | 'connect' | 'frame' | 'img') => libraries.flatMap((library) => library.csp[kind]);
  const list = (...items: string[]) => (items.length > 0 ? [...new Set(items)].join(' ') : "'none'");
  const styleNonce = libraries.some((library) => library.csp.styleNonce);
  const styleAttributes = libraries.some((library) => library.csp.styleAttributes);
  return [
    "default-src 'none'",
    // Browsers that know 'strict-dynamic' ignore the origins; older ones need them.
    `script-src ${list(`'nonce-${nonce}'`, "'strict-dynamic'", "'self'", ...origins, ...extra('script'))}`,
    `style-src ${list("'self'", ...(styleNonce ? [`'nonce-${nonce}'`] : []))}`,
    `style-src-attr ${styleAttributes ? "'unsafe-inline'" : "'none'"}`,
    `connect-src ${list("'self'", ...origins, ...extra('connect'))}`,
    `frame-src ${list(...origins, ...extra('frame'))}`,
    `img-src ${list("'self'", 'data:', ...origins, ...extra('img'))}`,
    "font-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${list(...frameAncestors)}`,
    "object-src 'none'",
  ].join('; ');
}

/**
 * The hosted payment page of a published form: the shared form renderer (form-view/) with the
 * page's script (a built bundle carrying the nonce) and one container per gateway the page pays
 * through, naming the gateway's driver and its bundle. Of the gateways only public values
 * (publishable key, client id) reach the page, in the containers' `data-browser-config`; the
 * script knows gateways only by these attributes.
 */
export function renderHostedPage(
  view: PublicFormView,
  nonce: string,
  restBase: string,
  scripts: PageScripts,
  embed: { embedded: boolean; origins: readonly string[] } = { embedded: false, origins: [] },
  translator: PayerTranslator = payerTranslator('en'),
): string {
  const gateways = pageGateways(view, scripts);
  const containers = gateways.map(
    (entry) =>
      `<div class="provider" id="provider-${escapeHtml(entry.gateway)}" data-gateway="${escapeHtml(entry.gateway)}" data-driver="${escapeHtml(entry.checkout.driver)}"` +
      ` data-library-url="${escapeHtml(entry.checkout.libraryUrl)}" data-browser-config="${escapeHtml(JSON.stringify(entry.browser))}"` +
      ` data-driver-src="${escapeHtml(entry.driverScript)}" data-routes="${escapeHtml(JSON.stringify(entry.checkout.routes))}" hidden>` +
      `<div class="provider-mount driver-${escapeHtml(entry.checkout.driver)}" id="mount-${escapeHtml(entry.gateway)}"></div></div>`,
  );
  return renderFormPage(view.form, {
    purpose: 'payment',
    methods: gateways.flatMap((entry) => entry.methods),
    head: [`<script src="${escapeHtml(scripts.pageScript)}" nonce="${escapeHtml(nonce)}" defer></script>`],
    formData: {
      'form-id': view.form.id,
      'rest-base': restBase,
      ...(view.form.redirectUrl ? { 'redirect-url': view.form.redirectUrl } : {}),
      // The pages allowed to frame this one (public: the CSP header names them too): the only targets of its height messages.
      ...(embed.origins.length > 0 ? { 'embed-origins': embed.origins.join(' ') } : {}),
    },
    gatewayContainers: containers.join('\n'),
    embedded: embed.embedded,
    translator,
  });
}

/** A page a person reads instead of the form (styled by the form stylesheet, no inline style). */
function messagePage(title: string, text: string, lang: string): string {
  return [
    `<!doctype html><html lang="${escapeHtml(lang)}"><head>`,
    '<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title><link rel="icon" href="data:,"><link rel="stylesheet" href="${FORM_STYLESHEET_PATH}"></head>`,
    `<body><main class="not-found"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></main></body></html>`,
  ].join('');
}

/** The page of an unknown or unpublished form. */
export function notFoundPage(t: PayerTranslator = payerTranslator('en')): string {
  return messagePage(t.t('page.notFound.title'), t.t('page.notFound.text'), t.lang);
}

/** The page while the page's scripts are not built (a service started without `npm run build`). */
export function unavailablePage(t: PayerTranslator = payerTranslator('en')): string {
  return messagePage(t.t('page.unavailable.title'), t.t('page.unavailable.text'), t.lang);
}
