/*
 * Gateway A's card-setup driver `card_setup` (bundled by scripts/build-hosted-page.mjs; the
 * adapter names it in `subscriptionCardUpdate.driver`): Stripe.js's Payment Element in deferred
 * setup mode for cards, confirming a SetupIntent the manage page's route makes for the
 * subscription's customer. docs/hosted-page.md, "The payer's manage page".
 */
import { type CardSetupContext, defineCardSetupDriver } from '../../../../common/browser-driver/index.js';
import type { StripeElements, StripeError, StripeInstance } from './stripe-js.js';

function cardSetupDriver(context: CardSetupContext) {
  let stripe: StripeInstance | null = null;
  let elements: StripeElements | null = null;

  async function start(): Promise<void> {
    await context.loadScript(context.libraryUrl);
    const Stripe = (window as { Stripe?: (key: string) => StripeInstance }).Stripe;
    if (typeof Stripe !== 'function') throw context.payerError(context.text('card.libraryLoad'));
    stripe = Stripe(context.browserConfig.publishable_key ?? '');
    // The setup the server makes takes cards only (`allowed_payment_method_types: ['card']`): the element says the same.
    elements = stripe.elements({ mode: 'setup', currency: 'usd', paymentMethodTypes: ['card'], locale: context.locale });
    elements.create('payment', { layout: 'tabs' }).mount(context.mount.selector);
  }

  function providerError(error: StripeError): Error {
    if ((error.type === 'card_error' || error.type === 'validation_error') && error.message) return context.payerError(error.message);
    return context.payerError(context.text('card.declined'));
  }

  async function confirm(): Promise<string> {
    if (!stripe || !elements) throw context.payerError(context.text('card.stillLoading'));
    const submitted = await elements.submit();
    if (submitted?.error) throw providerError(submitted.error);
    const setup = await context.createSetup();
    const result = await stripe.confirmSetup({
      elements,
      clientSecret: setup.client_secret,
      confirmParams: { return_url: context.returnUrl, payment_method_data: { billing_details: {} } },
      redirect: 'if_required',
    });
    if (result.error) throw providerError(result.error);
    return setup.setup_intent;
  }

  return { start, confirm };
}

defineCardSetupDriver('card_setup', cardSetupDriver);
