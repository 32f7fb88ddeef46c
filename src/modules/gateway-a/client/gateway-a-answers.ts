/**
 * Gateway A's answers, checked before anything reads them. The `stripe` SDK raises only when a body
 * carries an `error` member: a 5xx (or a 200) answering `{}` or `{"message": …}` comes back as if it
 * were the object asked for. Every call site therefore passes the SDK's answer through one of these
 * parsers, which checks the object type, the id's prefix (and, for a read, that it is the id asked
 * for), the client secret where a payer needs one, and, against what the service sent, amount,
 * currency, customer and metadata; then copies the fields the service reads into the small types
 * below. Anything else throws `MalformedGatewayAAnswer`, which every site treats as a gateway failure
 * (a payer gets 502 `checkout_gateway_error`, background work logs it and changes nothing).
 * Only fields the pinned API version declares are read. Statuses stay strings: the gateway adds
 * values over time and every caller maps an unknown one to "not finished".
 */

/** What the gateway answered could not be read as the object asked for. The text names fields, never values. */
export class MalformedGatewayAAnswer extends Error {
  constructor(
    /** The SDK call, e.g. `paymentIntents.create` */
    readonly operation: string,
    /** Which field failed, e.g. `payment_intent.object is not "payment_intent"` */
    readonly problem: string,
    /** The HTTP status of the answer, when the SDK kept it. */
    readonly httpStatus?: number,
  ) {
    super(`malformed answer to ${operation}${httpStatus !== undefined ? ` (HTTP ${httpStatus})` : ''}: ${problem}`);
    this.name = 'MalformedGatewayAAnswer';
  }
}

export type GatewayAMetadata = Record<string, string>;

export interface GatewayAPaymentIntent {
  object: 'payment_intent';
  id: string;
  status: string;
  amount: number;
  currency: string;
  amount_received: number;
  customer: string | null;
  latest_charge: string | null;
  /** The card that paid, from `latest_charge` when a read expanded it (`expand: ['latest_charge']`); null otherwise or when not a card. */
  card: GatewayACard | null;
  setup_future_usage: string | null;
  client_secret: string | null;
  metadata: GatewayAMetadata;
}

/** A card as a charge's `payment_method_details.card` names it: the brand (`visa`, `mastercard`, …) and last four digits, never more. */
export interface GatewayACard {
  brand: string;
  last4: string;
}

export interface GatewayASetupIntent {
  object: 'setup_intent';
  id: string;
  status: string;
  customer: string | null;
  payment_method: string | null;
  client_secret: string | null;
  metadata: GatewayAMetadata;
}

export type GatewayAIntent = GatewayAPaymentIntent | GatewayASetupIntent;

export interface GatewayAInvoice {
  id: string;
  billing_reason: string | null;
  amount_paid: number;
  currency: string;
}

export interface GatewayASubscription {
  id: string;
  status: string;
  customer: string;
  metadata: GatewayAMetadata;
  /** A cancellation at the end of the current period is scheduled (false when the answer leaves it out). */
  cancel_at_period_end: boolean;
  /** Unix seconds: when a scheduled cancellation ends it (the gateway sets it with `cancel_at_period_end`); null when none. */
  cancel_at: number | null;
  /** The expanded latest invoice (when asked for with `expand`), else null. */
  latest_invoice: GatewayAInvoice | null;
}

export interface GatewayAPrice {
  id: string;
  product: string;
}

export interface GatewayAWebhookEndpoint {
  id: string;
  url: string;
  enabled_events: string[];
  status: string;
  livemode: boolean;
  metadata: GatewayAMetadata;
  /** Only the create answer carries it. */
  secret?: string;
}

/** What the service wrote and expects back. Absent fields are not compared. */
export interface Expected {
  /** The id asked for (reads, updates, cancels). */
  id?: string;
  amount?: number;
  /** Compared case-insensitively; the gateway answers lower case. */
  currency?: string;
  customer?: string;
  /** Each key the service wrote must come back with the same value. */
  metadata?: GatewayAMetadata;
  /** A payer needs it to confirm the intent: `{id}_secret_…`. */
  clientSecret?: boolean;
}

type Json = Record<string, unknown>;

const ID = (prefix: string) => new RegExp(`^${prefix}_[A-Za-z0-9]{1,250}$`);
const PREFIX = {
  payment_intent: ID('pi'),
  setup_intent: ID('seti'),
  customer: ID('cus'),
  product: ID('prod'),
  price: ID('price'),
  subscription: ID('sub'),
  invoice: ID('in'),
  webhook_endpoint: ID('we'),
  account: ID('acct'),
} as const;
/** A saved payment method: `pm_…` (legacy `card_`/`src_`/`ba_` ids too; test tokens such as `pm_card_visa` have underscores). */
const PAYMENT_METHOD_ID = /^(pm|card|src|ba)_[A-Za-z0-9_]{1,250}$/;
/** A charge of the intent: `ch_…`, or `py_…` for some bank debits. */
const CHARGE_ID = /^(ch|py)_[A-Za-z0-9]{1,250}$/;
const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/=_-]{1,250}$/;
const CURRENCY = /^[a-z]{3}$/;
const MAX_AMOUNT = Number.MAX_SAFE_INTEGER;

/**
 * One answer being read: where it came from (for the error) and the checks shared by every object.
 */
export class Reader {
  readonly status: number | undefined;

  constructor(
    readonly operation: string,
    answer: unknown,
  ) {
    // The SDK hangs the raw response on the answer (not enumerable): its status tells a 5xx from a 200.
    const raw = isObject(answer) ? (answer as { lastResponse?: { statusCode?: unknown } }).lastResponse : undefined;
    this.status = typeof raw?.statusCode === 'number' ? raw.statusCode : undefined;
  }

  fail(problem: string): never {
    throw new MalformedGatewayAAnswer(this.operation, problem, this.status);
  }

  object(value: unknown, path: string): Json {
    if (!isObject(value)) this.fail(`${path} is not an object`);
    return value;
  }

  /** The answer itself: an object of `type` whose id has the type's prefix (and is `expected.id`). */
  typed(value: unknown, type: keyof typeof PREFIX, expected: Expected = {}): { record: Json; id: string } {
    const record = this.object(value, type);
    if (record.object !== type) this.fail(`${type}.object is not "${type}"`);
    const id = this.string(record, 'id', type, 255);
    if (!PREFIX[type].test(id)) this.fail(`${type}.id does not have the ${type} prefix`);
    if (expected.id !== undefined && id !== expected.id) this.fail(`${type}.id is not the id asked for`);
    return { record, id };
  }

  string(record: Json, key: string, path: string, max = 2048): string {
    const value = record[key];
    if (typeof value !== 'string' || value === '' || value.length > max) this.fail(`${path}.${key} is missing or not a string`);
    return value;
  }

  optionalString(record: Json, key: string, path: string, max = 2048): string | null {
    const value = record[key];
    if (value === undefined || value === null) return null;
    if (typeof value !== 'string' || value.length > max) this.fail(`${path}.${key} is not a string`);
    return value === '' ? null : value;
  }

  amount(record: Json, key: string, path: string): number {
    const value = record[key];
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || value > MAX_AMOUNT) this.fail(`${path}.${key} is not an amount`);
    return value;
  }

  currency(record: Json, path: string): string {
    const value = this.string(record, 'currency', path, 3).toLowerCase();
    if (!CURRENCY.test(value)) this.fail(`${path}.currency is not a currency code`);
    return value;
  }

  boolean(record: Json, key: string, path: string): boolean {
    const value = record[key];
    if (typeof value !== 'boolean') this.fail(`${path}.${key} is not a boolean`);
    return value;
  }

  /** An id the gateway may expand into its object; null when absent. */
  reference(record: Json, key: string, path: string, pattern: RegExp): string | null {
    const value = record[key];
    if (value === undefined || value === null) return null;
    const id = typeof value === 'string' ? value : isObject(value) ? value.id : undefined;
    if (typeof id !== 'string' || !pattern.test(id)) this.fail(`${path}.${key} is not a valid reference`);
    return id;
  }

  metadata(record: Json, path: string, nullable = false): GatewayAMetadata {
    const value = record.metadata;
    if (nullable && (value === null || value === undefined)) return {};
    const metadata = this.object(value, `${path}.metadata`);
    const copy: GatewayAMetadata = {};
    for (const [key, entry] of Object.entries(metadata)) {
      // The key is the gateway's text: not named.
      if (typeof entry !== 'string') this.fail(`${path}.metadata has a value that is not a string`);
      copy[key] = entry;
    }
    return copy;
  }

  /** What the service wrote must come back unchanged. */
  compare(path: string, found: { amount?: number; currency?: string; customer?: string | null; metadata?: GatewayAMetadata }, expected: Expected): void {
    if (expected.amount !== undefined && found.amount !== expected.amount) this.fail(`${path}.amount is not the amount sent`);
    if (expected.currency !== undefined && found.currency !== expected.currency.toLowerCase()) this.fail(`${path}.currency is not the currency sent`);
    if (expected.customer !== undefined && found.customer !== expected.customer) this.fail(`${path}.customer is not the customer sent`);
    for (const [key, value] of Object.entries(expected.metadata ?? {})) {
      if (found.metadata?.[key] !== value) this.fail(`${path}.metadata.${key} is not the value sent`);
    }
  }

  clientSecret(record: Json, id: string, path: string, required: boolean): string | null {
    const secret = this.optionalString(record, 'client_secret', path, 512);
    if (secret === null) {
      if (required) this.fail(`${path}.client_secret is missing`);
      return null;
    }
    if (!secret.startsWith(`${id}_secret_`) || !/^[A-Za-z0-9_]+$/.test(secret)) this.fail(`${path}.client_secret is not a client secret of this intent`);
    return secret;
  }
}

export function parsePaymentIntent(answer: unknown, operation: string, expected: Expected = {}): GatewayAPaymentIntent {
  const read: Reader = new Reader(operation, answer);
  const path = 'payment_intent';
  const { record, id } = read.typed(answer, path, expected);
  const intent: GatewayAPaymentIntent = {
    object: 'payment_intent',
    id,
    status: read.string(record, 'status', path, 64),
    amount: read.amount(record, 'amount', path),
    currency: read.currency(record, path),
    amount_received: read.amount(record, 'amount_received', path),
    customer: read.reference(record, 'customer', path, PREFIX.customer),
    latest_charge: read.reference(record, 'latest_charge', path, CHARGE_ID),
    card: chargeCard(read, record.latest_charge, id),
    setup_future_usage: read.optionalString(record, 'setup_future_usage', path, 64),
    client_secret: read.clientSecret(record, id, path, expected.clientSecret === true),
    metadata: read.metadata(record, path),
  };
  read.compare(path, intent, expected);
  return intent;
}

const CARD_BRAND = /^[a-z0-9_]{1,32}$/;
const LAST4 = /^[0-9]{4}$/;

/**
 * The card of an intent's expanded `latest_charge`: the charge must be this intent's (its
 * `payment_intent`), else the answer is malformed. A charge paid otherwise than by card, or whose
 * brand or last four digits are not of the expected form, gives null: a fact the payment log can
 * do without, never a reason to fail a payment.
 */
function chargeCard(read: Reader, value: unknown, intentId: string): GatewayACard | null {
  if (!isObject(value)) return null;
  const path = 'payment_intent.latest_charge';
  if (value.object !== 'charge') read.fail(`${path}.object is not "charge"`);
  if (read.reference(value, 'payment_intent', path, PREFIX.payment_intent) !== intentId) read.fail(`${path}.payment_intent is not this intent`);
  const details = value.payment_method_details;
  if (!isObject(details) || details.type !== 'card' || !isObject(details.card)) return null;
  const { brand, last4 } = details.card;
  if (typeof brand !== 'string' || !CARD_BRAND.test(brand) || typeof last4 !== 'string' || !LAST4.test(last4)) return null;
  return { brand, last4 };
}

export function parseSetupIntent(answer: unknown, operation: string, expected: Expected = {}): GatewayASetupIntent {
  const read: Reader = new Reader(operation, answer);
  const path = 'setup_intent';
  const { record, id } = read.typed(answer, path, expected);
  const intent: GatewayASetupIntent = {
    object: 'setup_intent',
    id,
    status: read.string(record, 'status', path, 64),
    customer: read.reference(record, 'customer', path, PREFIX.customer),
    payment_method: read.reference(record, 'payment_method', path, PAYMENT_METHOD_ID),
    client_secret: read.clientSecret(record, id, path, expected.clientSecret === true),
    metadata: read.metadata(record, path, true),
  };
  read.compare(path, intent, expected);
  return intent;
}

/** A customer, product or account the service needs only the id of (created with `metadata`). */
function parseIdentified(type: 'customer' | 'product' | 'account', answer: unknown, operation: string, expected: Expected): { id: string } {
  const read: Reader = new Reader(operation, answer);
  const { record, id } = read.typed(answer, type, expected);
  if (expected.metadata) read.compare(type, { metadata: read.metadata(record, type) }, expected);
  return { id };
}

export const parseCustomer = (answer: unknown, operation: string, expected: Expected = {}) => parseIdentified('customer', answer, operation, expected);
export const parseProduct = (answer: unknown, operation: string, expected: Expected = {}) => parseIdentified('product', answer, operation, expected);
/** The account a secret key acts for (`GET /v1/account`): its id. */
export const parseAccount = (answer: unknown, operation: string) => parseIdentified('account', answer, operation, {});

export function parsePrice(answer: unknown, operation: string, expected: Expected & { product?: string } = {}): GatewayAPrice {
  const read: Reader = new Reader(operation, answer);
  const path = 'price';
  const { record, id } = read.typed(answer, path, expected);
  const product = read.reference(record, 'product', path, PREFIX.product);
  if (product === null) read.fail('price.product is missing');
  if (expected.product !== undefined && product !== expected.product) read.fail('price.product is not the product sent');
  read.compare(path, { amount: read.amount(record, 'unit_amount', path), currency: read.currency(record, path), metadata: read.metadata(record, path) }, expected);
  return { id, product };
}

function invoice(read: Reader, value: unknown): GatewayAInvoice {
  const path = 'subscription.latest_invoice';
  const record = read.object(value, path);
  if (record.object !== 'invoice') read.fail(`${path}.object is not "invoice"`);
  const id = read.string(record, 'id', path, 255);
  if (!PREFIX.invoice.test(id)) read.fail(`${path}.id does not have the invoice prefix`);
  return {
    id,
    billing_reason: read.optionalString(record, 'billing_reason', path, 64),
    amount_paid: read.amount(record, 'amount_paid', path),
    currency: read.currency(record, path),
  };
}

export function parseSubscription(answer: unknown, operation: string, expected: Expected = {}): GatewayASubscription {
  const read: Reader = new Reader(operation, answer);
  const path = 'subscription';
  const { record, id } = read.typed(answer, path, expected);
  const customer = read.reference(record, 'customer', path, PREFIX.customer);
  if (customer === null) read.fail('subscription.customer is missing');
  const latest = record.latest_invoice;
  const subscription: GatewayASubscription = {
    id,
    status: read.string(record, 'status', path, 64),
    customer,
    metadata: read.metadata(record, path),
    cancel_at_period_end: record.cancel_at_period_end === undefined ? false : read.boolean(record, 'cancel_at_period_end', path),
    cancel_at: record.cancel_at === undefined || record.cancel_at === null ? null : read.amount(record, 'cancel_at', path),
    latest_invoice: isObject(latest) ? invoice(read, latest) : null,
  };
  if (latest !== undefined && latest !== null && !isObject(latest) && (typeof latest !== 'string' || !PREFIX.invoice.test(latest))) read.fail('subscription.latest_invoice is not a valid reference');
  read.compare(path, subscription, expected);
  return subscription;
}

function endpoint(read: Reader, value: unknown, expected: Expected & { url?: string; secret?: boolean }): GatewayAWebhookEndpoint {
  const path = 'webhook_endpoint';
  const { record, id } = read.typed(value, path, expected);
  const events = record.enabled_events;
  if (!Array.isArray(events) || events.some((event) => typeof event !== 'string')) read.fail(`${path}.enabled_events is not a list of event names`);
  const parsed: GatewayAWebhookEndpoint = {
    id,
    url: read.string(record, 'url', path, 2048),
    enabled_events: [...(events as string[])],
    status: read.string(record, 'status', path, 64),
    livemode: read.boolean(record, 'livemode', path),
    metadata: read.metadata(record, path),
  };
  if (expected.url !== undefined && parsed.url !== expected.url) read.fail(`${path}.url is not the URL sent`);
  read.compare(path, parsed, expected);
  if (expected.secret) {
    const secret = read.string(record, 'secret', path, 256);
    if (!WEBHOOK_SECRET.test(secret)) read.fail(`${path}.secret is not a signing secret`);
    parsed.secret = secret;
  }
  return parsed;
}

/** A webhook endpoint; `secret: true` for the create answer, the only one that carries the signing secret. */
export function parseWebhookEndpoint(answer: unknown, operation: string, expected: Expected & { url?: string; secret?: boolean } = {}): GatewayAWebhookEndpoint {
  return endpoint(new Reader(operation, answer), answer, expected);
}

/** The answer to a delete: `{ id, object: 'webhook_endpoint', deleted: true }`. */
export function parseDeletedWebhookEndpoint(answer: unknown, operation: string, expected: { id: string }): void {
  const read: Reader = new Reader(operation, answer);
  const { record } = read.typed(answer, 'webhook_endpoint', expected);
  if (record.deleted !== true) read.fail('webhook_endpoint.deleted is not true');
}

export function parseWebhookEndpointList(answer: unknown, operation: string): GatewayAWebhookEndpoint[] {
  const read: Reader = new Reader(operation, answer);
  const record = read.object(answer, 'list');
  if (record.object !== 'list') read.fail('list.object is not "list"');
  if (!Array.isArray(record.data)) read.fail('list.data is not an array');
  return record.data.map((item) => endpoint(read, item, {}));
}

/** The account's balance (`GET /v1/balance`): only whether the key acts in live mode is read. */
export function parseBalance(answer: unknown, operation: string): { livemode: boolean } {
  const read: Reader = new Reader(operation, answer);
  const record = read.object(answer, 'balance');
  if (record.object !== 'balance') read.fail('balance.object is not "balance"');
  return { livemode: read.boolean(record, 'livemode', 'balance') };
}

/**
 * The payments of one invoice (`GET /v1/invoice_payments?invoice=…`, `data.payment.payment_intent`
 * expanded): the platform fee the charged payment's intent carried (the paid payment, else the
 * default one), or null when it carried none. Every entry must be a payment of that invoice.
 */
export function parseInvoicePaymentsFee(answer: unknown, operation: string, expected: { invoice: string }): number | null {
  const read: Reader = new Reader(operation, answer);
  const list = read.object(answer, 'list');
  if (list.object !== 'list') read.fail('list.object is not "list"');
  if (!Array.isArray(list.data)) read.fail('list.data is not an array');
  const entries = list.data.map((item) => {
    const path = 'invoice_payment';
    const record = read.object(item, path);
    if (record.object !== 'invoice_payment') read.fail(`${path}.object is not "invoice_payment"`);
    if (read.string(record, 'invoice', path, 255) !== expected.invoice) read.fail(`${path}.invoice is not the invoice asked for`);
    const payment = read.object(record.payment, `${path}.payment`);
    const intent = payment.payment_intent;
    let fee: number | null = null;
    if (isObject(intent)) {
      if (intent.object !== 'payment_intent') read.fail(`${path}.payment.payment_intent.object is not "payment_intent"`);
      fee = intent.application_fee_amount === null || intent.application_fee_amount === undefined ? null : read.amount(intent, 'application_fee_amount', `${path}.payment.payment_intent`);
    }
    return { status: read.string(record, 'status', path, 64), isDefault: read.boolean(record, 'is_default', path), fee };
  });
  const charged = entries.find((entry) => entry.status === 'paid') ?? entries.find((entry) => entry.isDefault);
  return charged?.fee ?? null;
}

/** The PaymentIntent id of an invoice's paid payment (`invoicePayments.list`), or null when none is paid. */
export function parseInvoicePaidIntent(answer: unknown, operation: string, expected: { invoice: string }): string | null {
  const read: Reader = new Reader(operation, answer);
  const list = read.object(answer, 'list');
  if (list.object !== 'list') read.fail('list.object is not "list"');
  if (!Array.isArray(list.data)) read.fail('list.data is not an array');
  for (const item of list.data) {
    const path = 'invoice_payment';
    const record = read.object(item, path);
    if (record.object !== 'invoice_payment') read.fail(`${path}.object is not "invoice_payment"`);
    if (read.string(record, 'invoice', path, 255) !== expected.invoice) read.fail(`${path}.invoice is not the invoice asked for`);
    if (read.string(record, 'status', path, 64) !== 'paid') continue;
    const payment = read.object(record.payment, `${path}.payment`);
    const intent = isObject(payment.payment_intent) ? payment.payment_intent.id : payment.payment_intent;
    if (typeof intent === 'string' && /^pi_[A-Za-z0-9_]{1,250}$/.test(intent)) return intent;
  }
  return null;
}

/** The proxy's OAuth token answer (`POST /oauth/token`), in the gateway's OAuth format. */
export interface GatewayAOAuthGrant {
  accountId: string;
  publishableKey: string;
  secretKey: string;
  livemode: boolean;
}

const PUBLISHABLE_KEY = /^pk_(test|live)_[A-Za-z0-9]{1,247}$/;
const SECRET_KEY = /^(sk|rk)_(test|live)_[A-Za-z0-9]{1,247}$/;

export function parseOAuthGrant(answer: unknown): GatewayAOAuthGrant {
  const read: Reader = new Reader('oauth.token', answer);
  const record = read.object(answer, 'token');
  const tokenType = read.optionalString(record, 'token_type', 'token', 32);
  if (tokenType !== null && tokenType.toLowerCase() !== 'bearer') read.fail('token.token_type is not bearer');
  const grant: GatewayAOAuthGrant = {
    accountId: read.string(record, 'stripe_user_id', 'token', 255),
    publishableKey: read.string(record, 'stripe_publishable_key', 'token', 255),
    secretKey: read.string(record, 'access_token', 'token', 255),
    livemode: read.boolean(record, 'livemode', 'token'),
  };
  if (!PREFIX.account.test(grant.accountId)) read.fail('token.stripe_user_id is not an account id');
  if (!PUBLISHABLE_KEY.test(grant.publishableKey)) read.fail('token.stripe_publishable_key is not a publishable key');
  if (!SECRET_KEY.test(grant.secretKey)) read.fail('token.access_token is not a secret key');
  return grant;
}

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
