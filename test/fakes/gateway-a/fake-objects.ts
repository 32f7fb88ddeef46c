/**
 * Every field the gateway's objects carry at the pinned API version, with the value a fresh
 * object of this fake has when nothing set it (mostly null). The fake spreads these under the
 * fields it models, so its answers carry the whole object as the reference describes it (no
 * field missing, none invented): test/contracts/gateway-a/ checks each answer against the schemas
 * generated from the SDK's type declarations.
 */
type Json = Record<string, unknown>;

const empty = <T>(): T[] => [];

export function accountFields(account: { id: string }): Json {
  return { id: account.id, object: 'account', charges_enabled: true, details_submitted: true, email: null, payouts_enabled: true, type: 'standard', country: 'US', default_currency: 'usd' };
}

export function balanceFields(livemode: boolean): Json {
  return { object: 'balance', available: [{ amount: 0, currency: 'usd' }], livemode, pending: [{ amount: 0, currency: 'usd' }] };
}

export function customerFields(): Json {
  return {
    address: null,
    balance: 0,
    default_source: null,
    description: null,
    email: null,
    invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
    shipping: null,
  };
}

export function productFields(): Json {
  return {
    description: null,
    images: empty(),
    marketing_features: empty(),
    package_dimensions: null,
    shippable: null,
    tax_details: null,
    type: 'service',
    url: null,
  };
}

export function priceFields(): Json {
  return {
    billing_scheme: 'per_unit',
    custom_unit_amount: null,
    tax_behavior: 'unspecified',
    tiers_mode: null,
    transform_quantity: null,
  };
}

export function recurringFields(): Json {
  return { meter: null, trial_period_days: null, usage_type: 'licensed' };
}

export function paymentIntentFields(): Json {
  return {
    application: null,
    cancellation_reason: null,
    customer_account: null,
    managed_payments: null,
    on_behalf_of: null,
    payment_method_configuration_details: null,
    payment_method_options: null,
    payment_record: null,
    processing: null,
    review: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    transfer_group: null,
  };
}

export function setupIntentFields(): Json {
  return {
    application: null,
    cancellation_reason: null,
    excluded_payment_method_types: null,
    latest_attempt: null,
    mandate: null,
    on_behalf_of: null,
    payment_method_configuration_details: null,
    payment_method_options: null,
    single_use_mandate: null,
  };
}

/** A payment method as an error embeds it (the reference types it as a PaymentMethod object). */
export function paymentMethodStub(id: string): Json {
  return { id, object: 'payment_method' };
}

export function subscriptionFields(): Json {
  return {
    application: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: null, type: 'classic' },
    billing_schedules: empty(),
    billing_thresholds: null,
    cancel_at: null,
    cancellation_details: null,
    customer_account: null,
    days_until_due: null,
    default_source: null,
    discounts: empty(),
    ended_at: null,
    invoice_settings: { account_tax_ids: null, custom_fields: null, description: null, footer: null, issuer: { type: 'self' } },
    managed_payments: null,
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: null,
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    test_clock: null,
    transfer_data: null,
    trial_settings: null,
    trial_start: null,
  };
}

export function subscriptionItemFields(price: Json): Json {
  return {
    billing_thresholds: null,
    current_trial: null,
    discounts: empty(),
    metadata: {},
    // The legacy plan object mirrors the price (the reference still requires it).
    plan: { id: price.id, object: 'plan' },
    tax_rates: empty(),
  };
}

export function invoiceFields(): Json {
  return {
    account_country: 'US',
    account_name: null,
    account_tax_ids: null,
    amount_overpaid: 0,
    amount_shipping: 0,
    application: null,
    attempt_count: 0,
    attempted: false,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
    automatically_finalizes_at: null,
    collection_method: 'charge_automatically',
    custom_fields: null,
    customer_account: null,
    customer_address: null,
    customer_email: null,
    customer_name: null,
    customer_phone: null,
    customer_shipping: null,
    customer_tax_exempt: 'none',
    default_payment_method: null,
    default_source: null,
    default_tax_rates: empty(),
    description: null,
    discounts: empty(),
    due_date: null,
    effective_at: null,
    ending_balance: 0,
    footer: null,
    from_invoice: null,
    issuer: { type: 'self' },
    last_finalization_error: null,
    latest_revision: null,
    metadata: {},
    next_payment_attempt: null,
    number: null,
    on_behalf_of: null,
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: 0,
    statement_descriptor: null,
    subtotal_excluding_tax: null,
    test_clock: null,
    total_discount_amounts: empty(),
    total_excluding_tax: null,
    total_pretax_credit_amounts: empty(),
    total_taxes: empty(),
    webhooks_delivered_at: null,
  };
}

export function invoiceLineFields(): Json {
  return { quantity_decimal: null };
}

/** The cards behind the real test API's `pm_card_*` ids (brand, last four digits); another card id is a Visa ending 4242. */
const TEST_CARDS: Record<string, { brand: string; last4: string; funding: string }> = {
  pm_card_visa: { brand: 'visa', last4: '4242', funding: 'credit' },
  pm_card_visa_debit: { brand: 'visa', last4: '5556', funding: 'debit' },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444', funding: 'credit' },
  pm_card_amex: { brand: 'amex', last4: '8431', funding: 'credit' },
  pm_card_authenticationRequired: { brand: 'visa', last4: '3184', funding: 'credit' },
  pm_card_threeDSecure2Required: { brand: 'visa', last4: '3220', funding: 'credit' },
};

/** `payment_method_details.card` of a card charge, as the reference types it (no wallet, no 3DS). */
function cardDetails(paymentMethod: string, amount: number): Json {
  const card = TEST_CARDS[paymentMethod] ?? TEST_CARDS.pm_card_visa;
  return {
    amount_authorized: amount,
    authorization_code: null,
    brand: card.brand,
    checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
    country: 'US',
    electronic_commerce_indicator: null,
    exp_month: 12,
    exp_year: 2034,
    fingerprint: 'fakeFingerprint',
    funding: card.funding,
    installments: null,
    last4: card.last4,
    mandate: null,
    network: card.brand,
    network_token: { used: false },
    network_transaction_id: null,
    regulated_status: 'unregulated',
    three_d_secure: null,
    transaction_link_id: null,
    wallet: null,
  };
}

/**
 * The charge of a settled PaymentIntent (its `latest_charge`, when a read expands it): amount,
 * currency, customer and metadata of the intent, and what paid, by its type: a card's brand and
 * last four digits (`payment_method_details.card`), other types their `type` alone.
 * (The fake keeps no charge objects: the charge is drawn from its intent whenever it is read.)
 */
export function chargeFields(intent: Json, type: string, refunded: number): Json {
  const amount = intent.amount_received as number;
  const paymentMethod = intent.payment_method as string | null;
  return {
    id: intent.latest_charge,
    object: 'charge',
    amount: intent.amount,
    amount_captured: amount,
    amount_refunded: refunded,
    application: null,
    application_fee: null,
    application_fee_amount: intent.application_fee_amount ?? null,
    balance_transaction: null,
    billing_details: { address: null, email: null, name: null, phone: null, tax_id: null },
    calculated_statement_descriptor: null,
    captured: intent.status === 'succeeded',
    created: intent.created,
    currency: intent.currency,
    customer: intent.customer ?? null,
    description: intent.description ?? null,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: null,
    failure_message: null,
    fraud_details: {},
    livemode: intent.livemode,
    metadata: { ...(intent.metadata as Record<string, string>) },
    on_behalf_of: null,
    outcome: { advice_code: null, network_advice_code: null, network_decline_code: null, network_status: 'approved_by_network', reason: null, risk_level: 'normal', seller_message: 'Payment complete.', type: 'authorized' },
    paid: true,
    payment_intent: intent.id,
    payment_method: paymentMethod,
    // An intent a test moved to succeeded without a payment method (setIntentStatus) names none.
    payment_method_details: !paymentMethod ? null : type === 'card' ? { type: 'card', card: cardDetails(paymentMethod, intent.amount as number) } : { type },
    receipt_email: intent.receipt_email ?? null,
    receipt_number: null,
    receipt_url: null,
    refunded: refunded >= amount,
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: 'succeeded',
    transfer_data: null,
    transfer_group: null,
  };
}
