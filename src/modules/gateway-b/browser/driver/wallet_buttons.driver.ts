/*
 * Gateway B's browser driver `wallet_buttons` (bundled by scripts/build-hosted-page.mjs; the
 * adapter names it in `hostedCheckout.driver`): PayPal's JS SDK renders the wallet's own buttons,
 * which replace the page's Pay button; one-time prices only. Its routes are the slice's own, given
 * as data by `gatewayBHostedCheckout` (`routes.order`, `routes.capture`).
 */
import { type Choice, defineCheckoutDriver, type DriverContext, isPayerFacing, type PaymentReference } from '../../../../common/browser-driver/index.js';

/** The part of the JS SDK (`window.paypal`) the driver uses. */
interface WalletSdk {
  Buttons(options: {
    onClick(data: unknown, actions?: { resolve?(): unknown; reject?(): unknown }): unknown;
    createOrder(): Promise<string>;
    onApprove(data: { orderID: string }): Promise<void>;
    onCancel(): void;
    onError(error: unknown): void;
  }): { render(selector: string): Promise<void> };
}

type SdkWindow = Window & { paypal?: WalletSdk };

/** The JS SDK's `locale` parameter for a payer language: language_COUNTRY, the country where the language is mostly spoken by our payers. */
const WALLET_SDK_LOCALES: Readonly<Record<string, string>> = {
  en: 'en_US',
  de: 'de_DE',
  fr: 'fr_FR',
  es: 'es_ES',
  it: 'it_IT',
  nl: 'nl_NL',
  'pt-BR': 'pt_BR',
  pl: 'pl_PL',
  ja: 'ja_JP',
};

export function walletSdkLocale(locale: string): string {
  return WALLET_SDK_LOCALES[locale] ?? 'en_US';
}

function walletButtonsDriver(context: DriverContext) {
  const sdkWindow = window as SdkWindow;
  /** The SDK the last load defined (read afresh: loading it replaces the global). */
  const loadedSdk = (): WalletSdk | undefined => sdkWindow.paypal;
  /** The currency the SDK is loaded for: it takes one currency per load. */
  let loadedCurrency: string | null = null;
  let starting: Promise<void> | null = null;

  async function render(currency: string): Promise<void> {
    if (sdkWindow.paypal && loadedCurrency === currency) return;
    if (sdkWindow.paypal) {
      // The SDK is loaded for one currency: a price in another one needs it again.
      document.querySelectorAll('script[data-checkout-wallet]').forEach((script) => script.remove());
      delete sdkWindow.paypal;
    }
    const url = new URL(context.libraryUrl);
    url.searchParams.set('client-id', context.browserConfig.client_id ?? '');
    url.searchParams.set('currency', currency);
    url.searchParams.set('intent', 'capture');
    url.searchParams.set('components', 'buttons');
    // The SDK's `locale` is language_COUNTRY (`de_DE`, `pt_BR`, `ja_JP`).
    url.searchParams.set('locale', walletSdkLocale(context.locale));
    await context.loadScript(url.toString(), { 'data-csp-nonce': context.nonce, 'data-checkout-wallet': 'true' });
    const sdk = loadedSdk();
    if (!sdk || typeof sdk.Buttons !== 'function') throw context.payerError(context.text('walletLoad'));
    loadedCurrency = currency;
    context.mount.element.textContent = '';
    let walletRef: PaymentReference | null = null;
    await sdk
      .Buttons({
        onClick: (_data, actions) => {
          try {
            context.beginAttempt();
            return actions?.resolve ? actions.resolve() : true;
          } catch (error) {
            context.fail(error);
            return actions?.reject ? actions.reject() : false;
          }
        },
        createOrder: async () => {
          context.setBusy(true);
          try {
            walletRef = await context.sync();
            const order = await context.api<{ order_id: string }>(context.routes.order, walletRef, 'order');
            return order.order_id;
          } catch (error) {
            context.fail(error);
            throw error;
          }
        },
        onApprove: async (data) => {
          try {
            context.setStatus('Confirming your payment…');
            await context.api(context.routes.capture, { order_id: data.orderID, ...walletRef });
            await context.finish(walletRef!);
          } catch (error) {
            context.fail(error);
          }
        },
        onCancel: () => context.fail(context.payerError(context.text('walletCanceled'))),
        onError: (error) => {
          // An error of ours (createOrder's) was shown already.
          if (!context.isBusy() && isPayerFacing(error)) return;
          context.fail(context.payerError(context.text('walletDeclined')));
        },
      })
      .render(context.mount.selector);
  }

  /** Renders the buttons for the chosen price's currency (one load at a time). */
  async function start(choice: Choice): Promise<void> {
    const previous = starting ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => render(choice.price.currency));
    starting = next;
    return next;
  }

  return { ownButtons: true, start };
}

defineCheckoutDriver('wallet_buttons', walletButtonsDriver);
