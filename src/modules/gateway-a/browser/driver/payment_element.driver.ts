/*
 * Gateway A's browser driver `payment_element` (bundled by scripts/build-hosted-page.mjs; the
 * adapter names it in `hostedCheckout.driver`): Stripe.js's Payment Element in deferred-intent
 * mode, mounted before any intent exists, paid with the page's button. Its routes are the slice's
 * own, given as data by `gatewayAHostedCheckout` (`routes.intent`, `routes.checkout`).
 * docs/hosted-page.md, "Paying with the Payment Element".
 */
import { type Choice, type ChosenMethod, defineCheckoutDriver, type DriverContext, type PaymentReference, type ReturnOutcome } from '../../../../common/browser-driver/index.js';
import type { ElementsOptions, PaymentElementOptions, StripeElements, StripeError, StripeInstance, StripePaymentElement } from './stripe-js.js';

/** What `gatewayAHostedCheckout` gives each method (`methodOptions`): data for the library, passed on as it is. */
interface MethodOptions {
  elements?: Record<string, unknown>;
  modes?: Partial<Record<'payment' | 'setup', Record<string, unknown>>>;
  element?: PaymentElementOptions;
  leaves_page?: boolean;
}

/** The intent route's answer. */
interface IntentAnswer {
  intent_type: 'payment_intent' | 'setup_intent';
  intent_id: string;
  client_secret: string;
}

/** The attempt kept in the tab's sessionStorage while the provider has the payer (3-D Secure, a bank's page). */
interface StoredReturn {
  method: string;
  price: string;
  ref: PaymentReference;
  intent_id: string;
  at: number;
}

/** An attempt older than a checkout token's lifetime is not resumed. */
const RETURN_MAX_AGE_MS = 3600 * 1000;

function paymentElementDriver(context: DriverContext) {
  const returnKey = `checkout-return:${context.formId}`;
  let library: Promise<StripeInstance> | null = null;
  let elements: StripeElements | null = null;
  let element: StripePaymentElement | null = null;
  /** What the mounted element was made for (method, mode, currency): another needs a new element. */
  let shape: string | null = null;
  let amount: number | undefined;
  let currency: string | undefined;

  function loadLibrary(): Promise<StripeInstance> {
    library ??= context.loadScript(context.libraryUrl).then(() => {
      const Stripe = (window as { Stripe?: (key: string) => StripeInstance }).Stripe;
      if (typeof Stripe !== 'function') throw context.payerError(context.text('libraryLoad'));
      return Stripe(context.browserConfig.publishable_key ?? '');
    });
    library.catch(() => (library = null));
    return library;
  }

  function methodOptions(method: ChosenMethod): MethodOptions {
    return method.options as MethodOptions;
  }

  /**
   * The elements options of the chosen method and price: the mode (`payment` for a one-time price,
   * `setup` for a recurring one: the server creates a SetupIntent and then the subscription), the
   * amount and currency of the price, and the method's options from the server (its payment
   * method types or automatic ones, the capture method or future usage of the mode), which are
   * built from the same function as the intent, so the two match.
   */
  function elementsOptions(choice: Choice): ElementsOptions {
    const options = methodOptions(choice.method);
    const mode = choice.price.recurring ? 'setup' : 'payment';
    const result: ElementsOptions = { mode, currency: choice.price.currency.toLowerCase(), ...(options.elements ?? {}), ...(options.modes?.[mode] ?? {}) };
    if (mode === 'payment') result.amount = choice.price.amount || choice.price.customMin || 1;
    return result;
  }

  /** Mounts (or re-mounts, when the method, mode or currency changed) the payment element for the chosen method and price. */
  async function start(choice: Choice): Promise<void> {
    const stripe = await loadLibrary();
    // The price as it is now (the payer may have typed on while the library loaded).
    const now: Choice = { method: choice.method, price: context.choice().price };
    const options = elementsOptions(now);
    const next = JSON.stringify([now.method.value, options.mode, options.currency]);
    if (shape === next && elements) {
      if (options.amount && options.amount !== amount) {
        elements.update({ amount: options.amount });
        amount = options.amount;
      }
      return;
    }
    if (element) element.destroy();
    // Elements' own texts (the card field's labels and errors) in the payer's language: Stripe takes the catalogs' tags as they are (`de`, `pt-BR`, `ja`).
    elements = stripe.elements({ ...options, locale: context.locale });
    element = elements.create('payment', { layout: 'tabs', ...(methodOptions(now.method).element ?? {}) });
    element.mount(context.mount.selector);
    shape = next;
    amount = options.amount;
    currency = options.currency;
  }

  /** A library error: its card and validation messages are written for payers by the provider (a declined card, an incomplete number); anything else gets ours. */
  function providerError(error: StripeError): Error {
    if ((error.type === 'card_error' || error.type === 'validation_error') && error.message) return context.payerError(error.message);
    return context.payerError(context.text('declined'));
  }

  function storeReturn(choice: Choice, ref: PaymentReference, intent: IntentAnswer): void {
    try {
      const stored: StoredReturn = { method: choice.method.value, price: choice.price.id, ref, intent_id: intent.intent_id, at: Date.now() };
      window.sessionStorage.setItem(returnKey, JSON.stringify(stored));
    } catch {
      // No storage (a privacy mode): a return from the provider then shows the provider's outcome only.
    }
  }

  function takeReturn(): StoredReturn | null {
    try {
      const saved = JSON.parse(window.sessionStorage.getItem(returnKey) || 'null') as StoredReturn | null;
      window.sessionStorage.removeItem(returnKey);
      return saved && Date.now() - saved.at < RETURN_MAX_AGE_MS ? saved : null;
    } catch {
      return null;
    }
  }

  async function pay(choice: Choice): Promise<void> {
    if (!elements) throw context.payerError(context.text('stillLoading'));
    const group = elements;
    if (context.framed && methodOptions(choice.method).leaves_page) {
      // This method may send the payer to the provider and back: a frame cannot follow it there (see docs/hosted-page.md).
      return context.handOffToTopLevel(choice.method);
    }
    // First of all, while the click still counts as the payer's gesture (wallet sheets need it): the element checks its fields.
    const submitted = await group.submit();
    if (submitted?.error) throw providerError(submitted.error);
    // Records the method the payer chose; the new checkout token is bound to it, and so is the intent made with it.
    const ref = await context.sync();
    const charged = ref.currency.toLowerCase();
    if (!choice.price.recurring && (ref.amount !== amount || charged !== currency)) {
      // The server's amount is the one charged (and the intent's): the element must say the same or the provider refuses.
      group.update({ amount: ref.amount, currency: charged });
      amount = ref.amount;
      currency = charged;
    }
    context.setStatus('Contacting the payment provider…');
    const intent = await context.api<IntentAnswer>(context.routes.intent, ref, 'intent');
    storeReturn(choice, ref, intent);
    const details = context.payerDetails();
    const billing: { email?: string; name?: string } = { email: details.email_address };
    const name = [details.first_name, details.last_name].filter(Boolean).join(' ');
    if (name) billing.name = name;
    const stripe = await loadLibrary();
    const confirm = intent.intent_type === 'setup_intent' ? stripe.confirmSetup : stripe.confirmPayment;
    const result = await confirm.call(stripe, {
      elements: group,
      clientSecret: intent.client_secret,
      confirmParams: { return_url: context.returnUrl, payment_method_data: { billing_details: billing } },
      redirect: 'if_required',
    });
    takeReturn();
    if (result.error) {
      // Told to the server too, so the record follows the provider's state.
      await context.api(context.routes.checkout, { intent_id: intent.intent_id, ...ref }).catch(() => null);
      throw providerError(result.error);
    }
    context.setStatus('Confirming your payment…');
    await context.api(context.routes.checkout, { intent_id: intent.intent_id, ...ref });
    await context.finish(ref);
  }

  /**
   * Back from the provider after a redirect (3-D Secure outside the page, a wallet's or bank's own
   * page). The provider appends its intent id and client secret to `return_url`; they leave the
   * address bar and the history at once. With this tab's stored attempt (sessionStorage: the same
   * page at the top level) the payment is finished as usual; without it (the payment was started
   * in an embedded frame, whose storage is not this page's, or in another tab) the provider's
   * `redirect_status` says what to tell the payer, and the webhook completes the record.
   */
  async function resume(): Promise<ReturnOutcome> {
    const params = new URLSearchParams(window.location.search);
    const intentId = params.get('payment_intent') || params.get('setup_intent');
    if (!intentId) return 'none';
    const redirectStatus = params.get('redirect_status');
    window.history.replaceState(null, '', window.location.pathname);
    const saved = takeReturn();
    if (saved && saved.intent_id === intentId && context.resumeAttempt({ method: saved.method, price: saved.price, reference: saved.ref })) {
      try {
        await context.api(context.routes.checkout, { intent_id: intentId, ...saved.ref });
        await context.finish(saved.ref);
      } catch (error) {
        context.fail(error);
      }
      return 'handled';
    }
    if (redirectStatus === 'succeeded' || redirectStatus === 'processing') return 'received';
    return 'not_completed';
  }

  return { ownButtons: false, start, pay, amountChanged: start, resume };
}

defineCheckoutDriver('payment_element', paymentElementDriver);
