import { type JsonSchema, reference, type ReferenceObject } from './gateway-a-contract.js';

/**
 * Every field the gateway-A slice (src/modules/gateway-a/) reads from an SDK answer or an event
 * object, checked against the reference at the pinned API version: the field exists, and when the
 * reference lets it be absent (optional) or null, the entry says how the code handles that. An
 * SDK upgrade that drops a field, or makes one optional or nullable, fails here until the code
 * and this list are reviewed. Keep the list in step with the code.
 */
interface FieldRead {
  object: ReferenceObject;
  /** Dotted path into the object (`parent.subscription_details.subscription`). */
  path: string;
  where: string;
  /** How the code handles the field missing or null; required when the reference allows either. */
  whenAbsent?: string;
}

const READS: FieldRead[] = [
  // Refunds: created and listed by the refunds capability.
  { object: 'Refund', path: 'id', where: 'refunds (provider_refund_id)' },
  { object: 'Refund', path: 'status', where: 'refunds (refundStatus)', whenAbsent: 'null: pending until a reconcile reads it again' },
  { object: 'Refund', path: 'amount', where: 'refunds (the amount refunded)' },
  { object: 'Refund', path: 'metadata', where: 'refunds (our refund id and installation)', whenAbsent: 'no metadata: a refund made at the provider (source provider)' },
  { object: 'Refund', path: 'failure_reason', where: 'refunds (failure_code of a failed refund)', whenAbsent: 'null failure code' },
  // Payment intents: checkout, intents, admin charges, reconciliation, webhook effects.
  { object: 'PaymentIntent', path: 'id', where: 'intents, checkout, admin, webhook effects' },
  { object: 'PaymentIntent', path: 'object', where: 'checkout (intent kind), intents answer' },
  { object: 'PaymentIntent', path: 'status', where: 'intents, checkout, admin, reconcile (intentOutcome)' },
  { object: 'PaymentIntent', path: 'amount', where: 'intents matchesPayment, contractDifferences, webhook effects' },
  { object: 'PaymentIntent', path: 'currency', where: 'intents matchesPayment, contractDifferences, webhook effects' },
  { object: 'PaymentIntent', path: 'amount_received', where: 'checkout, admin, reconcile, webhook effects (falls back to amount)' },
  { object: 'PaymentIntent', path: 'customer', where: 'contractDifferences, matchesPayment, webhook locateIntent', whenAbsent: 'null: expandableId gives null; a differing or missing customer is a mismatch' },
  { object: 'PaymentIntent', path: 'latest_charge', where: 'checkout, admin, reconcile (capture ref); expanded for the card (chargeCard)', whenAbsent: 'null: stored as a null capture ref, no card' },
  // The charge of an intent (expanded `latest_charge`): the card's brand and last four digits.
  { object: 'Charge', path: 'payment_intent', where: 'chargeCard (the charge must be the intent\'s)', whenAbsent: 'null: not this intent\'s charge, a malformed answer' },
  { object: 'Charge', path: 'payment_method_details', where: 'chargeCard', whenAbsent: 'null: no card stored' },
  { object: 'Charge', path: 'payment_method_details.type', where: 'chargeCard (only `card` names a card)', whenAbsent: 'no payment_method_details: no card stored' },
  { object: 'Charge', path: 'payment_method_details.card', where: 'chargeCard', whenAbsent: 'absent: no card stored' },
  { object: 'Charge', path: 'payment_method_details.card.brand', where: 'chargeCard (card_brand)', whenAbsent: 'null: no card stored' },
  { object: 'Charge', path: 'payment_method_details.card.last4', where: 'chargeCard (card_last4)', whenAbsent: 'null: no card stored' },
  { object: 'PaymentIntent', path: 'metadata', where: 'contractDifferences, matchesPayment, webhook locate' },
  { object: 'PaymentIntent', path: 'setup_future_usage', where: 'intents matchesPayment', whenAbsent: 'null means no saved method (`?? null`)' },
  { object: 'PaymentIntent', path: 'client_secret', where: 'intents answer', whenAbsent: "null answered as '' (item 4 of issue 21 refuses such an answer)" },
  { object: 'PaymentIntent', path: 'last_payment_error', where: 'webhook failureReason (payment_intent.payment_failed)', whenAbsent: 'null: the failed payment stores no failure_reason' },
  { object: 'PaymentIntent', path: 'last_payment_error.type', where: 'webhook failureReason (the code when `code` is absent)', whenAbsent: 'no error object: no failure_reason' },
  { object: 'PaymentIntent', path: 'last_payment_error.code', where: 'webhook failureReason', whenAbsent: 'the error\'s type is the code' },
  { object: 'PaymentIntent', path: 'last_payment_error.decline_code', where: 'webhook failureReason', whenAbsent: 'null decline_code' },
  { object: 'PaymentIntent', path: 'last_payment_error.message', where: 'webhook failureReason', whenAbsent: 'null message' },
  { object: 'PaymentIntent', path: 'application_fee_amount', where: "invoicePayments (the fee of a renewal, read from its invoice's payment)", whenAbsent: 'null: the renewal row stores no fee' },
  // Setup intents: intents, checkout, subscriptions, reconcile, webhook effects.
  { object: 'SetupIntent', path: 'id', where: 'intents, webhook effects' },
  { object: 'SetupIntent', path: 'object', where: 'checkout (intent kind)' },
  { object: 'SetupIntent', path: 'status', where: 'intents, checkout, ensureSubscription, reconcile' },
  { object: 'SetupIntent', path: 'customer', where: 'contractDifferences, matchesSetup, webhook locateIntent', whenAbsent: 'null: a missing customer is a mismatch' },
  { object: 'SetupIntent', path: 'metadata', where: 'contractDifferences, matchesSetup, webhook locate', whenAbsent: 'null: read with ?., so no payment id and no installation id (a mismatch, or ignored)' },
  { object: 'SetupIntent', path: 'last_setup_error', where: 'webhook failureReason (setup_intent.setup_failed)', whenAbsent: 'null: the failed payment stores no failure_reason' },
  { object: 'SetupIntent', path: 'last_setup_error.type', where: 'webhook failureReason (the code when `code` is absent)', whenAbsent: 'no error object: no failure_reason' },
  { object: 'SetupIntent', path: 'last_setup_error.code', where: 'webhook failureReason', whenAbsent: 'the error\'s type is the code' },
  { object: 'SetupIntent', path: 'last_setup_error.decline_code', where: 'webhook failureReason', whenAbsent: 'null decline_code' },
  { object: 'SetupIntent', path: 'last_setup_error.message', where: 'webhook failureReason', whenAbsent: 'null message' },
  { object: 'SetupIntent', path: 'payment_method', where: 'ensureSubscription', whenAbsent: 'null: the subscription is not created (InvalidPaymentStateError)' },
  { object: 'SetupIntent', path: 'client_secret', where: 'intents answer', whenAbsent: "null answered as ''" },
  // Subscriptions: ensureSubscription, reconcile, webhook effects.
  { object: 'Subscription', path: 'id', where: 'ensureSubscription, webhook effects' },
  { object: 'Subscription', path: 'status', where: 'ensureSubscription, reconcile, webhook effects' },
  { object: 'Subscription', path: 'metadata', where: 'webhook locate, subscription cancellation (this installation and payment)' },
  { object: 'Subscription', path: 'cancel_at_period_end', where: 'subscription cancellation (a schedule asked again is 409)' },
  { object: 'Subscription', path: 'latest_invoice', where: 'reconcile (expanded)', whenAbsent: 'null or an id: the reconciler reports a mismatch and moves nothing' },
  // Invoices: webhook effects (events) and reconcile (expanded latest_invoice).
  { object: 'Invoice', path: 'id', where: 'webhook effects' },
  { object: 'Invoice', path: 'amount_paid', where: 'webhook effects (paid), reconcile' },
  { object: 'Invoice', path: 'amount_due', where: 'webhook effects (payment failed)' },
  { object: 'Invoice', path: 'currency', where: 'webhook effects, reconcile' },
  { object: 'Invoice', path: 'billing_reason', where: 'webhook effects, reconcile', whenAbsent: 'null: treated as a renewal (not subscription_create); reconcile reports a mismatch' },
  { object: 'Invoice', path: 'parent.subscription_details.subscription', where: 'invoiceSubscription', whenAbsent: 'no parent or no subscription_details: "the invoice belongs to no subscription", ignored' },
  { object: 'Invoice', path: 'attempt_count', where: 'webhook failedAttempt (the failed-renewal email once per attempt; a value that is no integer ≥ 1 counts as the first attempt)' },
  { object: 'Invoice', path: 'next_payment_attempt', where: 'webhook failedAttempt (the next retry date in the failed-renewal email)', whenAbsent: 'null: the provider makes no further attempt' },
  { object: 'Invoice', path: 'parent.subscription_details.metadata', where: 'invoiceSubscription → webhook locate', whenAbsent: 'null: no installation id, ignored' },
  // Invoice payments: the renewal fee.
  { object: 'InvoicePayment', path: 'status', where: 'invoicePayments (the paid payment first)' },
  { object: 'InvoicePayment', path: 'is_default', where: 'invoicePayments (else the default payment)' },
  { object: 'InvoicePayment', path: 'payment.payment_intent', where: 'invoicePayments (expanded)', whenAbsent: 'absent (a charge or an out-of-band payment) or not expanded: no fee (null)' },
  // Webhook endpoints: provisioning, contract check, upgrade task, diagnostics, retirement.
  { object: 'WebhookEndpoint', path: 'id', where: 'contract, upgrade task' },
  { object: 'WebhookEndpoint', path: 'secret', where: 'contract provisionAutomatic (create answer only)', whenAbsent: 'the contract fails: "the gateway returned no signing secret"' },
  { object: 'WebhookEndpoint', path: 'url', where: 'contract checkEndpoint, diagnostics' },
  { object: 'WebhookEndpoint', path: 'enabled_events', where: 'contract checkEndpoint, upgrade task' },
  { object: 'WebhookEndpoint', path: 'status', where: 'contract checkEndpoint' },
  { object: 'WebhookEndpoint', path: 'livemode', where: 'contract checkEndpoint' },
  { object: 'WebhookEndpoint', path: 'metadata', where: 'contract retireManagedEndpoint, upgrade task (checkout_managed marker)' },
  // Catalog and connect.
  { object: 'Customer', path: 'id', where: 'catalog' },
  { object: 'Product', path: 'id', where: 'catalog' },
  { object: 'Price', path: 'id', where: 'catalog' },
  { object: 'Account', path: 'id', where: 'connectWithKeys (the account the key acts for)' },
  { object: 'Balance', path: 'livemode', where: 'connectWithKeys (the mode the key acts in)' },
  { object: 'OAuthToken', path: 'stripe_user_id', where: 'connect token exchange', whenAbsent: 'exchange_failed, nothing stored' },
  { object: 'OAuthToken', path: 'stripe_publishable_key', where: 'connect token exchange', whenAbsent: 'exchange_failed, nothing stored' },
  { object: 'OAuthToken', path: 'access_token', where: 'connect token exchange', whenAbsent: 'exchange_failed, nothing stored' },
  { object: 'OAuthToken', path: 'livemode', where: 'connect token exchange (must agree with the mode)', whenAbsent: 'exchange_failed, nothing stored' },
  // Refunds and disputes (aftermath/parseRefund: the one mapping of a Refund, for the refunds route, the sweep and reconcile --payment).
  { object: 'Refund', path: 'id', where: 'aftermath parseRefund' },
  { object: 'Refund', path: 'object', where: 'aftermath parseRefund' },
  { object: 'Refund', path: 'amount', where: 'aftermath parseRefund' },
  { object: 'Refund', path: 'currency', where: 'aftermath parseRefund' },
  { object: 'Refund', path: 'status', where: 'aftermath parseRefund', whenAbsent: 'null: a malformed answer (502), nothing applied' },
  { object: 'Refund', path: 'reason', where: 'aftermath parseRefund', whenAbsent: 'null reason' },
  { object: 'Refund', path: 'payment_intent', where: 'aftermath parseRefund (the payment it belongs to)', whenAbsent: 'null: a malformed answer (502), nothing applied' },
  { object: 'Refund', path: 'metadata', where: 'aftermath parseRefund (our refund id and installation)', whenAbsent: 'null: not one of ours (no ownRefundId)' },
  { object: 'Refund', path: 'failure_reason', where: 'aftermath parseRefund (a failed or canceled refund)', whenAbsent: 'null failure code' },
  { object: 'Dispute', path: 'id', where: 'aftermath parseDispute' },
  { object: 'Dispute', path: 'object', where: 'aftermath parseDispute' },
  { object: 'Dispute', path: 'amount', where: 'aftermath parseDispute' },
  { object: 'Dispute', path: 'currency', where: 'aftermath parseDispute' },
  { object: 'Dispute', path: 'created', where: 'aftermath parseDispute' },
  { object: 'Dispute', path: 'status', where: 'aftermath parseDispute' },
  { object: 'Dispute', path: 'reason', where: 'aftermath parseDispute' },
  { object: 'Dispute', path: 'payment_intent', where: 'aftermath parseDispute (the payment it belongs to)', whenAbsent: 'null: a malformed answer (502), nothing applied' },
  { object: 'Dispute', path: 'evidence_details.due_by', where: 'aftermath parseDispute', whenAbsent: 'null: no evidence due date' },
  // Events: the envelope (parseGatewayAEvent, the aftermath sweep's eventItem) and card errors (admin charges).
  { object: 'EventBase', path: 'id', where: 'parseGatewayAEvent' },
  { object: 'EventBase', path: 'type', where: 'parseGatewayAEvent' },
  { object: 'EventBase', path: 'created', where: 'parseGatewayAEvent, subscription event order' },
  { object: 'EventBase', path: 'livemode', where: 'parseGatewayAEvent (must equal the URL mode)' },
  { object: 'EventBase', path: 'data.object', where: 'parseGatewayAEvent' },
  { object: 'ErrorBody', path: 'payment_intent', where: 'admin charge decline', whenAbsent: 'no intent: the failure is a 502, the record failed' },
  { object: 'ErrorBody', path: 'code', where: 'admin charge decline message', whenAbsent: "falls back to decline_code, then 'card_declined'" },
  { object: 'ErrorBody', path: 'decline_code', where: 'admin charge decline message', whenAbsent: "falls back to 'card_declined'" },
];

/** Fields the slice read before and that the pinned API version no longer has (issue 21). */
const GONE: Array<{ object: ReferenceObject; path: string; now: string }> = [
  { object: 'Invoice', path: 'application_fee_amount', now: "the invoice's payment intent's application_fee_amount (invoicePayments)" },
  { object: 'Account', path: 'livemode', now: "the balance's livemode (connectWithKeys)" },
  { object: 'Invoice', path: 'subscription', now: 'parent.subscription_details.subscription' },
  { object: 'Invoice', path: 'payment_intent', now: "the invoice's payments" },
];

interface FieldFacts {
  exists: boolean;
  optional: boolean;
  nullable: boolean;
}

const defs = reference.objects.$defs;

function resolve(schema: JsonSchema): JsonSchema {
  let current = schema;
  while (current.$ref) current = defs[current.$ref.replace('#/$defs/', '')];
  return current;
}

/** What the reference says of `path` in the object: present, optional somewhere on the way, nullable. */
function facts(object: ReferenceObject, path: string): FieldFacts {
  let schemas = [resolve({ $ref: reference.objects.properties[object].$ref })];
  let optional = false;
  let nullable = false;
  for (const segment of path.split('.')) {
    const next: JsonSchema[] = [];
    for (const schema of schemas) {
      const property = schema.properties?.[segment];
      if (!property) continue;
      if (!(schema.required ?? []).includes(segment)) optional = true;
      const branches = (resolve(property).anyOf ?? [property]).map(resolve);
      if (branches.some((branch) => branch.type === 'null')) nullable = true;
      next.push(...branches.filter((branch) => branch.type !== 'null'));
    }
    if (next.length === 0) return { exists: false, optional, nullable };
    // Go on through the object branches (an expandable field's object, a nested object).
    schemas = next.filter((branch) => branch.type === 'object') as JsonSchema[];
    if (schemas.length === 0) schemas = next;
  }
  return { exists: true, optional, nullable };
}

describe(`fields the gateway-A slice reads, against the reference (API ${reference.source.api_version})`, () => {
  it.each(READS.map((read) => [`${read.object}.${read.path}`, read] as const))('%s exists; absence or null is handled where the reference allows it', (_name, read) => {
    const found = facts(read.object, read.path);
    expect(found.exists).toBe(true);
    const mayBeAbsent = found.optional || found.nullable;
    // Optional or nullable in the reference ⇔ the list says how the code handles it.
    expect({ field: `${read.object}.${read.path}`, mayBeAbsent, handled: read.whenAbsent !== undefined }).toEqual({
      field: `${read.object}.${read.path}`,
      mayBeAbsent,
      handled: mayBeAbsent,
    });
  });

  it.each(GONE.map((gone) => [`${gone.object}.${gone.path}`, gone] as const))('%s does not exist at the pinned version (read instead: see the list)', (_name, gone) => {
    expect(facts(gone.object, gone.path).exists).toBe(false);
    expect(gone.now.length).toBeGreaterThan(0);
  });
});
