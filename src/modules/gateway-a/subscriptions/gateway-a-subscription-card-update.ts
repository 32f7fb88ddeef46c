import { Injectable } from '@nestjs/common';
import { ConflictError } from '../../../common/errors/index.js';
import type { HeldSubscription, SubscriptionCardUpdate } from '../../gateways/index.js';
import { PaymentLedgerService } from '../../payments/index.js';
import { type GatewayASetupIntent, type GatewayASubscription, MalformedGatewayAAnswer, parseSetupIntent, parseSubscription } from '../client/gateway-a-answers.js';
import { GatewayAClientFactory } from '../client/gateway-a-client.factory.js';
import { GatewayAFailures } from '../client/gateway-a-failures.js';
import { InstallationScope } from '../client/installation-scope.js';

/** Statuses a subscription never leaves: no card to change. */
const ENDED = new Set(['canceled', 'incomplete_expired']);
/** The metadata that marks a card-change setup: the subscription's first payment, never `checkout_payment_id` (its success moves no payment). */
const CARD_SETUP_KEY = 'checkout_card_for_payment_id';

/** 409 `checkout_invalid_state` (docs/decisions.md §2). */
class CardNotChangeableError extends ConflictError {
  constructor(message: string) {
    super('checkout_invalid_state', message);
  }
}

/**
 * The payer changes a gateway-A subscription's card from the manage page (docs/hosted-page.md,
 * "The payer's manage page"). `start` makes a SetupIntent for the subscription's customer, marked
 * with this installation and `checkout_card_for_payment_id` but no `checkout_payment_id`, so its
 * `setup_intent.succeeded` moves no payment. `finish` checks that setup (ours, this customer's,
 * succeeded), sets its payment method as the subscription's `default_payment_method` and, when the
 * subscription is `past_due` with an open latest invoice, pays that invoice with it once
 * (`POST /v1/invoices/{id}/pay`, an idempotency key per invoice and setup).
 */
@Injectable()
export class GatewayASubscriptionCardUpdate implements SubscriptionCardUpdate {
  /** browser/driver/card_setup.driver.ts: the Payment Element in setup mode. */
  readonly driver = 'card_setup';

  constructor(
    private readonly clients: GatewayAClientFactory,
    private readonly failures: GatewayAFailures,
    private readonly scope: InstallationScope,
    private readonly ledger: PaymentLedgerService,
  ) {}

  async start(held: HeldSubscription, actor: string): Promise<{ clientSecret: string; setupRef: string }> {
    const account = await this.clients.forMode(held.mode);
    const subscription = await this.subscription(held, actor);
    const metadata = this.scope.metadata({ [CARD_SETUP_KEY]: String(held.id) });
    const setup = await this.call(
      held.id,
      'Starting the card change',
      async () =>
        parseSetupIntent(
          await account.client.setupIntents.create({ customer: subscription.customer, usage: 'off_session', allowed_payment_method_types: ['card'], metadata }),
          'setupIntents.create',
          { customer: subscription.customer, metadata, clientSecret: true },
        ),
      actor,
    );
    return { clientSecret: setup.client_secret!, setupRef: setup.id };
  }

  async finish(held: HeldSubscription, setupRef: string, actor: string): Promise<{ invoicePaid: boolean }> {
    if (!/^seti_[A-Za-z0-9]{1,250}$/.test(setupRef)) throw new CardNotChangeableError('This card setup is not one of this subscription.');
    const account = await this.clients.forMode(held.mode);
    const subscription = await this.subscription(held, actor);
    const metadata = this.scope.metadata({ [CARD_SETUP_KEY]: String(held.id) });
    let setup: GatewayASetupIntent;
    try {
      setup = parseSetupIntent(await account.client.setupIntents.retrieve(setupRef), 'setupIntents.retrieve', { id: setupRef, customer: subscription.customer, metadata });
    } catch (error) {
      // Another installation's, another customer's or another subscription's setup: not this one (nothing to log as a provider failure).
      if (error instanceof MalformedGatewayAAnswer) throw new CardNotChangeableError('This card setup is not one of this subscription.');
      throw await this.failures.record(held.id, error, { event: 'subscription_card_failed', what: 'Reading the card setup', source: actor });
    }
    if (setup.status !== 'succeeded' || !setup.payment_method) throw new CardNotChangeableError('The new card has not been confirmed yet.');
    const paymentMethod = setup.payment_method;
    const updated = await this.call(
      held.id,
      'Setting the new card',
      async () =>
        parseSubscription(await account.client.subscriptions.update(subscription.id, { default_payment_method: paymentMethod, expand: ['latest_invoice'] }), 'subscriptions.update', {
          id: subscription.id,
        }),
      actor,
    );
    await this.ledger.log({
      paymentId: held.id,
      level: 'info',
      event: 'subscription_card_changed',
      message: "The payer changed the subscription's card.",
      context: { source: actor, subscription: subscription.id, setup_intent: setup.id },
    });
    const invoiceId = updated.status === 'past_due' ? updated.latest_invoice?.id : undefined;
    if (!invoiceId) return { invoicePaid: false };
    const invoice = await this.call(held.id, 'Reading the open invoice', async () => invoiceStatus(await account.client.invoices.retrieve(invoiceId), 'invoices.retrieve', invoiceId), actor);
    if (invoice !== 'open') return { invoicePaid: false };
    const paid = await this.call(
      held.id,
      'Paying the open invoice with the new card',
      async () =>
        invoiceStatus(
          await account.client.invoices.pay(invoiceId, { payment_method: paymentMethod, off_session: true }, { idempotencyKey: `checkout-${this.scope.id}-invoice-pay-${invoiceId}-${setup.id}` }),
          'invoices.pay',
          invoiceId,
        ),
      actor,
    );
    await this.ledger.log({
      paymentId: held.id,
      level: 'info',
      event: 'subscription_invoice_paid_with_new_card',
      message: `The open invoice was paid with the new card (invoice status ${paid}).`,
      context: { source: actor, subscription: subscription.id, invoice: invoiceId, status: paid },
    });
    return { invoicePaid: paid === 'paid' };
  }

  /** The subscription of this payment (this installation's), refused when it has ended. */
  private async subscription(held: HeldSubscription, actor: string): Promise<GatewayASubscription> {
    const account = await this.clients.forMode(held.mode);
    const expected = { id: held.provider_subscription_ref, metadata: this.scope.metadata({ checkout_payment_id: String(held.id) }) };
    const subscription = await this.call(held.id, 'Reading the subscription', async () => parseSubscription(await account.client.subscriptions.retrieve(held.provider_subscription_ref), 'subscriptions.retrieve', expected), actor);
    if (ENDED.has(subscription.status)) throw new CardNotChangeableError('This subscription has ended: it takes no new card.');
    return subscription;
  }

  private async call<T>(paymentId: number, what: string, request: () => Promise<T>, actor: string): Promise<T> {
    try {
      return await request();
    } catch (error) {
      throw await this.failures.record(paymentId, error, { event: 'subscription_card_failed', what, source: actor });
    }
  }
}

/** An invoice answer's status, after checking it is the invoice asked for. */
function invoiceStatus(answer: unknown, operation: string, invoiceId: string): string {
  const record = typeof answer === 'object' && answer !== null ? (answer as Record<string, unknown>) : null;
  if (!record || record.object !== 'invoice') throw new MalformedGatewayAAnswer(operation, 'the answer is not an invoice');
  if (record.id !== invoiceId) throw new MalformedGatewayAAnswer(operation, 'invoice.id is not the invoice asked for');
  if (typeof record.status !== 'string' || record.status.length > 64) throw new MalformedGatewayAAnswer(operation, 'invoice.status is missing');
  return record.status;
}
