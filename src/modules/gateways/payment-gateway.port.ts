import type { AuthenticatedUser } from '../../common/auth/index.js';
import type { CheckoutGateway, GatewayMode } from '../../common/gateway-catalog/index.js';

/**
 * What a gateway slice (gateway-a/, gateway-b/) offers the gateway-neutral routes. The core
 * (`/payment-gateway/*`, `/payment/process`, section B `/gateway/*`, the dashboard) reaches a
 * gateway only through this port, looked up in the GatewayRegistry; the slice registers its
 * adapter when its module starts. Capabilities a gateway lacks are simply absent.
 */
export interface PaymentGatewayAdapter {
  readonly id: CheckoutGateway;
  /** How messages name it (`gateway A`) */
  readonly label: string;
  /** Methods only the Pro plan may activate (gateway A: bank debit). */
  readonly proOnlyMethods: readonly string[];
  /** False when the gateway takes one-time prices only. */
  readonly supportsRecurring: boolean;

  /** Connected = every credential the gateway needs for `mode` is stored. */
  isConnected(mode: GatewayMode): Promise<boolean>;
  /**
   * The option names of those credentials: `isConnected(mode)` is true exactly when all are stored.
   * Lets the public payment routes read connection, mode and methods in one options query.
   */
  connectionOptions(mode: GatewayMode): readonly string[];
  /** True while checkout in `mode` is paused by the gateway (an unverified webhook contract); null when it has no such pause. */
  checkoutPaused(mode: GatewayMode): Promise<boolean | null>;
  /** Forgets the mode's credentials and webhook state, retiring what the service created at the provider. */
  disconnect(mode: GatewayMode): Promise<void>;
  /** POST /payment-gateway/save-webhook-settings: the adapter refuses (400) fields that are not its own. */
  saveWebhookSettings(mode: GatewayMode, input: WebhookSettingsInput): Promise<WebhookSettingsView>;
  /**
   * Re-reads, at the provider, the provider payment a record holds: true while it is paid or being
   * paid (sync-details then refuses to change the record). False when the record holds none.
   */
  paymentUnderway(payment: HeldProviderPayment): Promise<boolean>;
  /**
   * What the admin dashboard shows of this gateway: per-mode facts, its background upgrade task and
   * the notifications it raises. `currentMode` is the gateway's site mode (the core knows it).
   */
  dashboardFacts(currentMode: GatewayMode): Promise<GatewayDashboardFacts>;

  /** Re-reads records from the provider when their webhook did not arrive (the reconciliation sweep). */
  readonly reconciler?: Reconciler;
  /** Checks, with the provider, what `doctor` reports for a mode: credentials accepted, webhook setup pointing here. */
  diagnose?(mode: GatewayMode): Promise<GatewayDiagnosis[]>;
  /** An OAuth connect flow (GET /payment-gateway/connect and its callback). */
  readonly oauthConnect?: OAuthConnect;
  /**
   * The public values the payer's browser needs to start the gateway's browser library in `mode`
   * (gateway A: the publishable key; gateway B: the client id). Never a secret. Null when not connected.
   */
  browserConfig?(mode: GatewayMode): Promise<BrowserConfig | null>;
  /**
   * How the hosted payment page pays through this gateway in the payer's browser: its browser
   * library (URL, CSP needs), the slice's browser driver that runs it, the routes that driver
   * calls and which methods it can take. Absent: the page offers none of the gateway's methods.
   */
  readonly hostedCheckout?: HostedCheckout;
  /** The fields of POST /payment-gateway/save-webhook-settings this gateway takes (its own subset). */
  readonly webhookSettingsFields: readonly GatewaySettingField<keyof WebhookSettingsInput>[];
  /** Connecting with the merchant's own API keys (the CLI's `gateway-a:connect`). */
  readonly keyConnect?: KeyConnect;
  /** Admin charges of a payment-method token (POST /payment/process). */
  readonly adminCharges?: AdminCharges;
  /** Credentials the admin enters for the current mode (POST /payment-gateway/save-settings). */
  readonly credentialSettings?: CredentialSettings;
  /** The mode's API credentials as one `api_key` (section B POST /gateway/configure). */
  readonly apiKeyConfiguration?: ApiKeyConfiguration;
  /** Cancelling a payment's provider subscription (POST /administration/payments/{id}/subscription/cancel). */
  readonly subscriptionCancellation?: SubscriptionCancellation;
  /** The payer changes a subscription's card from the manage page (POST /pay/manage/{token}/subscriptions/{payment_id}/card). */
  readonly subscriptionCardUpdate?: SubscriptionCardUpdate;
  /** Refunds and disputes made at the provider (its dashboard, the payer's bank), read back for the ledger. */
  readonly providerAftermath?: ProviderAftermathReader;
  /** Full and partial refunds of a payment that took money (the admin refunds route). */
  readonly refunds?: GatewayRefunds;
}

/**
 * The public values a provider's browser library takes (publishable by design; never a secret).
 * Each gateway fills the ones its library needs.
 */
export interface BrowserConfig {
  /** Gateway A: the account's publishable key (`pk_test_…`, `pk_live_…`) */
  publishable_key?: string;
  /** Gateway B: the REST app's client id */
  client_id?: string;
}

/** Sources a provider's browser library needs besides its own origin, per CSP directive. */
export interface BrowserLibraryCsp {
  script: readonly string[];
  connect: readonly string[];
  frame: readonly string[];
  img: readonly string[];
  /** The library adds `<style>` elements that carry the page's nonce (so `style-src` lists the nonce). */
  styleNonce: boolean;
  /** The library sets `style` attributes on the elements it inserts (so `style-src-attr 'unsafe-inline'`). */
  styleAttributes: boolean;
}

/**
 * How the hosted page pays through a gateway in the payer's browser. The page script names no
 * gateway: it loads the slice's own browser driver by `driver` and gives it the rest as data.
 */
export interface HostedCheckout {
  /**
   * The name of the slice's browser driver: its file is `browser/driver/<driver>.driver.ts` in the
   * slice's folder, bundled by `npm run build` (scripts/build-hosted-page.mjs finds it there; no
   * central list) and defined under the same name (`defineCheckoutDriver`, common/browser-driver).
   * Gateway A: `payment_element`; gateway B: `wallet_buttons`. Unique across slices.
   */
  readonly driver: string;
  /** The gateway's methods this driver can take (gateway A: `ccard`; gateway B: `standard_checkout`) */
  readonly methods: readonly string[];
  /**
   * The slice's public routes its driver calls, by the names the driver uses, as paths under the
   * REST base (gateway A: `{intent: '/gateway-a/payment-intent-or-setup', checkout: …}`): the page
   * passes them on without reading them (the container's `data-routes`).
   */
  readonly routes: Readonly<Record<string, string>>;
  /** Where the page loads the provider's library from (from configuration: GATEWAY_A_JS_URL, GATEWAY_B_JS_URL) */
  readonly libraryUrl: string;
  /** The provider's CSP guidance for its real library; a stand-in at another origin needs nothing beyond its own origin */
  readonly csp: BrowserLibraryCsp;
  /**
   * Per method: what the driver gives the provider's library for it, as data the page script
   * passes on without reading (the method radio's `data-driver-options`, JSON). For
   * `payment_element`: `elements` (merged into the library's elements options: the method's
   * payment method types, or automatic ones with exclusions; `modes` adds what depends on the
   * price's mode), `element` (the payment element's
   * own options: which device wallets it shows) and `leaves_page` (the method may send the payer
   * to the provider and back: in a frame the page hands it to a top-level page). The slice builds
   * these from the same function as the intents it creates, so the two always match.
   */
  readonly methodOptions?: Readonly<Record<string, DriverMethodOptions>>;
}

/** A method's options for its browser driver: JSON data, opaque to the core and the renderer. */
export interface DriverMethodOptions {
  readonly elements?: Readonly<Record<string, unknown>>;
  /** Added to `elements` per mode of the chosen price (`payment`: one-time, `setup`: recurring) */
  readonly modes?: Readonly<Record<'payment' | 'setup', Readonly<Record<string, unknown>>>>;
  readonly element?: Readonly<Record<string, unknown>>;
  /** The payer may be redirected to the provider (and back to `return_url`) to approve the payment */
  readonly leaves_page?: boolean;
}

/** One field an administrator fills in for a connect kind or a settings route: the route's body field. */
export interface GatewaySettingField<Name extends string = string> {
  name: Name;
  label: string;
  type: 'text' | 'email' | 'boolean';
  /** Stored encrypted and only ever shown as a mask: typed into a password input, never shown again */
  secret: boolean;
  required: boolean;
  /** What a valid value looks like, for the admin (`pk_test_… or pk_live_…`) */
  hint?: string;
}

/** The part of a payment record an adapter reads to find the provider payment it holds. */
export interface HeldProviderPayment {
  id: number;
  mode: GatewayMode;
  provider_payment_ref: string | null;
}

/** The first payment of a provider subscription, as an adapter reads it to cancel that subscription. */
export interface HeldSubscription {
  id: number;
  mode: GatewayMode;
  provider_subscription_ref: string;
}

export interface SubscriptionCancellation {
  /**
   * Cancels the subscription at the provider with the credentials of the payment's own mode, now
   * or at the end of the paid period, and stores its new status with the payment. 409
   * `checkout_invalid_state` when the provider says it is canceled (or its cancellation at period
   * end is already scheduled, when that is asked again) or the mode is not connected; 502/503 for
   * a provider failure. `actor` names who asked, for the payment log.
   */
  cancel(subscription: HeldSubscription, atPeriodEnd: boolean, actor: string): Promise<void>;
}

/**
 * A subscription's card, changed by the payer: the browser confirms a setup of the new card in the
 * gateway's own element (`start` gives what it needs), then `finish` makes it the subscription's
 * default and, when the subscription is behind on a payment, pays its open invoice with it once.
 * 409 `checkout_invalid_state` when the subscription cannot take a card now; 502/503 for a
 * provider failure.
 */
export interface SubscriptionCardUpdate {
  /**
   * The slice's browser driver that confirms the setup in the gateway's element (its file is
   * `browser/driver/<driver>.driver.ts` in the slice, defined with `defineCardSetupDriver`); the
   * library, its CSP and public values are the ones of `hostedCheckout`.
   */
  readonly driver: string;
  /** A setup of a new card for the subscription's customer that moves no payment when it succeeds; the browser's public values for it. */
  start(subscription: HeldSubscription, actor: string): Promise<{ clientSecret: string; setupRef: string }>;
  /** Makes the card of the succeeded setup `setupRef` the subscription's default payment method; pays a past-due subscription's open invoice once. */
  finish(subscription: HeldSubscription, setupRef: string, actor: string): Promise<{ invoicePaid: boolean }>;
}

/** A dispute (chargeback) as the provider reports it. */
export interface ProviderDispute {
  providerDisputeId: string;
  /** Minor units of `currency` (what the payer's bank takes back) */
  amount: number;
  currency: string;
  /** In the card gateway's words: `warning_needs_response`, `needs_response`, `under_review`, `won`, `lost`, … (gateway B's states mapped onto them) */
  status: string;
  reason: string | null;
  evidenceDueBy: Date | null;
  /** The provider's page for the dispute, for the merchant (a dashboard link; no secret) */
  dashboardUrl: string;
  createdAt: Date;
}

/** What the provider holds about one payment after it was taken (every refund and dispute read, or the ones an event named). */
export interface PaymentAftermath {
  paymentId: number;
  refunds: ProviderRefund[];
  disputes: ProviderDispute[];
}

/** One sweep of a gateway's news about refunds and disputes. */
export interface AftermathSweep {
  /** Per payment of this installation the news named (objects of other installations are left out) */
  payments: PaymentAftermath[];
  /** Provider objects read */
  read: number;
  /** True when the sweep stopped at its bound: the rest comes with the next runs */
  bounded: boolean;
  /** Moves the gateway's stored cursor past what was read: call it once every payment was applied (a failure before keeps the news for the next run). */
  commit(): Promise<void>;
}

export interface ProviderAftermathReader {
  /** Every refund and dispute the provider holds for one payment (reconcile --payment): with the payment's own mode credentials. */
  readPayment(paymentId: number): Promise<PaymentAftermath | null>;
  /**
   * The news since the gateway's stored cursor, bounded; the cursor moves only past what was read.
   * `justMoved`: payments this run's reconciler just read and moved (a reader that re-reads
   * payments rather than events may leave them to its next pass over them).
   */
  sweep(justMoved?: ReadonlySet<number>): Promise<AftermathSweep>;
}

/** What reconciling one record did. */
export interface ReconcileResult {
  /**
   * moved: the record's status changed as the provider's object says; unchanged: the provider
   * agrees with the record; skipped: nothing this gateway can read for it; mismatch: the provider's
   * object disagrees with the record (logged as a contract mismatch, the record is not moved).
   */
  outcome: 'moved' | 'unchanged' | 'skipped' | 'mismatch';
  from: string;
  to: string;
  detail?: string;
}

export interface Reconciler {
  /**
   * Reads the provider object the record holds and moves the record through the same status
   * machine and effects as its webhook would (payment log source `reconcile`). Provider failures
   * throw (502/503) so the sweep can back off.
   */
  reconcile(paymentId: number): Promise<ReconcileResult>;
}

/** One line of `doctor` about a gateway. Never a secret in `message` or `fix`. */
export interface GatewayDiagnosis {
  check: string;
  status: 'ok' | 'warn' | 'fail';
  message: string;
  fix?: string;
}

/** The fields of save-webhook-settings; each gateway takes its own subset. */
export interface WebhookSettingsInput {
  signing_secret?: string;
  manual_configuration_complete?: boolean;
  webhook_id?: string;
}

/** The saved webhook state of a mode as the admin sees it: secrets only as masks. */
export interface WebhookSettingsView {
  management?: 'automatic' | 'manual' | null;
  status?: string;
  checkout_paused?: boolean;
  endpoint_id?: string | null;
  signing_secret?: string | null;
  verified_at?: string | null;
  last_error?: string | null;
  webhook_id?: string | null;
}

/** The OAuth return: a code to exchange, or the credentials themselves; `error` when declined. */
export interface ConnectCallbackInput {
  state?: string;
  code?: string;
  scope?: string;
  error?: string;
  error_description?: string;
  user_id?: string;
  public_key?: string;
  secret_key?: string;
}

export interface OAuthConnect {
  /** Where the admin's browser goes to authorise this site for `mode`. */
  authorizeUrl(user: AuthenticatedUser, mode: GatewayMode): string;
  /** Handles the OAuth return; answers where to send the browser next (ADMIN_URL with the outcome). */
  completeConnect(input: ConnectCallbackInput): Promise<string>;
}

/** The merchant's own key pair for a mode (never from argv, never logged). */
export interface KeyConnectInput {
  publishableKey: string;
  secretKey: string;
}

export interface KeyConnectResult {
  /** The account the secret key acts for, as the provider named it */
  accountId: string;
  /** The mode's webhook contract after provisioning (`verified` or `failed`, with a safe reason) */
  webhook: { status: string; endpointId: string | null; lastError: string | null };
}

export interface KeyConnect {
  /** The body fields of POST /payment-gateway/connect-keys besides `mode`, as this gateway names its keys. */
  readonly fields: readonly GatewaySettingField<'publishable_key' | 'secret_key'>[];
  /**
   * Checks the keys with the provider, stores them as the OAuth callback does and provisions the
   * mode's webhook contract. 400 malformed or wrong mode, 502 refused, 503 unreachable: nothing
   * stored then. `actor` names who connected, for the log.
   */
  connectWithKeys(mode: GatewayMode, input: KeyConnectInput, actor: string): Promise<KeyConnectResult>;
}

/** An admin's charge of a payment-method token through the gateway's current mode. */
export interface AdminChargeRequest {
  /** Major units, as the admin typed it */
  amount: number | string;
  currency: string;
  /** The gateway's payment-method token (gateway A: `pm_…`) */
  paymentMethod: string;
  description?: string;
  userId: number;
  /** The route, for the payment log */
  source: string;
}

/** Section B's payment result. */
export interface AdminChargeResult {
  transaction_id: string;
  status: string;
  message: string;
}

export interface AdminCharges {
  /** The token it takes, for messages: `a gateway A payment method id (pm_…)` */
  readonly tokenDescription: string;
  /** Whether `paymentMethod` is one of this gateway's payment-method tokens. */
  accepts(paymentMethod: string): boolean;
  charge(request: AdminChargeRequest): Promise<AdminChargeResult>;
}

/** POST /payment-gateway/save-settings: an account email and API credentials (gateway B: a REST app's client id and secret). */
export interface CredentialSettingsInput {
  email: string;
  client_id: string;
  secret: string;
}

/** The stored credentials of a mode as the admin sees them: the secret only as a mask. */
export interface CredentialSettingsView {
  email: string | null;
  client_id: string | null;
  /** Mask, e.g. `…x9Zq` */
  secret: string | null;
}

export interface CredentialSettings {
  /** The body fields of POST /payment-gateway/save-settings, as this gateway labels them. */
  readonly fields: readonly GatewaySettingField<keyof CredentialSettingsInput>[];
  /**
   * Checks the credentials with the provider, then stores them for `mode`: 502 (refused) or 503
   * (provider unreachable) and nothing stored when the check fails.
   */
  save(mode: GatewayMode, input: CredentialSettingsInput): Promise<CredentialSettingsView>;
  view(mode: GatewayMode): Promise<CredentialSettingsView>;
}

/** Section B's `/gateway/configure`: one `api_key` string in the form the gateway takes. */
export interface ApiKeyConfiguration {
  /** For messages: `gateway B's client id and secret as "<client id>:<secret>"` */
  readonly apiKeyDescription: string;
  /** Where the provider delivers this gateway's events in `mode` (the only `webhook_url` configure accepts). */
  webhookUrl(mode: GatewayMode): string;
  /** Checks the key with the provider and stores it for `mode` (400 malformed, 502 refused, 503 unreachable; nothing stored then). */
  configure(mode: GatewayMode, apiKey: string): Promise<void>;
}

// --- dashboard -------------------------------------------------------------------------------------------

/**
 * State of a mode's webhook contract that gates checkout: `verified` (checked automatically),
 * `manual` (an administrator completed the manual configuration) or `paused` (checkout refused).
 */
export type WebhookContractState = 'verified' | 'manual' | 'paused';

export interface GatewayModeFacts {
  /** Every credential the mode needs is stored (same answer as `isConnected`). */
  connected: boolean;
  /** True when a stored key is a test key, false for live keys; null when none (or an incomplete set) are stored or the gateway cannot tell. */
  testKeys: boolean | null;
  /** The mode's webhook settings are stored (gateway A: a signing secret; gateway B: the Webhook ID). */
  webhookConfigured: boolean;
  /** The contract that gates checkout; null for a gateway without one. */
  contract: {
    state: WebhookContractState;
    /** The gateway's own status word (gateway A: unconfigured, unverified, verified, failed) */
    status: string;
    management: 'automatic' | 'manual' | null;
    lastError: string | null;
    verifiedAt: string | null;
  } | null;
}

/** Progress of a bounded background upgrade task of the gateway (gateway A: the 1.5.3 webhook update). */
export interface GatewayUpgradeFacts {
  task: string;
  release: string;
  status: 'scheduled' | 'running' | 'retrying' | 'completed' | 'failed';
  attempts: number;
  maxAttempts: number;
  nextAttemptAt: string | null;
  lastError: string | null;
  /** Outcome per mode, in the task's own words */
  modes: Partial<Record<GatewayMode, string>>;
  scheduledAt: string;
  finishedAt: string | null;
}

export type NoticeSeverity = 'info' | 'warning' | 'error';

/** A condition the gateway wants the administrator to see. */
export interface GatewayNotice {
  /** Stable id, unique across the service: `<gateway>.<condition>[.<mode>]` */
  id: string;
  severity: NoticeSeverity;
  message: string;
  /** The admin route that fixes it (`POST /payment-gateway/save-webhook-settings`), if one does */
  route?: string;
  /** The setting (environment variable or option) that fixes it, if one does */
  setting?: string;
  /** A page outside the service where it is dealt with (a dispute at the provider's dashboard), if there is one */
  link?: string;
  /** The facts of the condition: a dismissed notice shows again when these change. */
  facts: Record<string, string | number | boolean | null>;
}

export interface GatewayDashboardFacts {
  modes: Record<GatewayMode, GatewayModeFacts>;
  /** Null when the gateway has no such task or it was never scheduled. */
  upgrade: GatewayUpgradeFacts | null;
  notices: GatewayNotice[];
}

/** What a gateway needs of a payment to refund it: the objects that took the money, its mode and amounts. */
export interface RefundTarget {
  payment_id: number;
  mode: GatewayMode;
  /** ISO 4217, upper case */
  currency: string;
  /** Minor units the provider received */
  amount_received: number;
  /** The platform fee kept on the charge (free plan), minor units; null when none */
  application_fee_amount: number | null;
  provider_payment_ref: string | null;
  /** The object refunds go to when it is not the payment ref (gateway A: a subscription invoice's PaymentIntent) */
  provider_charge_ref: string | null;
  provider_capture_ref: string | null;
  /** ISO 8601 UTC: when the payment was taken (its creation; the provider's time limit counts from the charge) */
  created_at: string;
}

/** The reasons a provider is told (`other` stays ours and is not sent). */
export type ProviderRefundReason = 'requested_by_customer' | 'duplicate' | 'fraudulent';

export interface ProviderRefundRequest {
  target: RefundTarget;
  /** Our refund row: the provider idempotency key and the metadata are derived from it */
  refundId: number;
  /** Minor units of the target's currency */
  amount: number;
  reason: ProviderRefundReason | null;
}

/**
 * A refund as the provider holds it, in our words, whoever made it: the refunds route's answer, a
 * re-read after a conflict and the aftermath's reads all carry this one shape, applied to the
 * ledger by one applier (PaymentAftermathService).
 */
export interface ProviderRefund {
  /** The provider's refund id (gateway A `re_…`/`pyr_…`, gateway B's refund id) */
  providerRefundId: string;
  status: 'pending' | 'succeeded' | 'failed' | 'canceled';
  /** Minor units of `currency` */
  amount: number;
  /** Upper case */
  currency: string;
  /** The provider's reason word, when it gives one */
  reason: string | null;
  /** The platform fee given back with it (free plan), minor units; null when none or not known */
  applicationFeeRefunded: number | null;
  /** The id of our own refund when the provider's object names it (its metadata or custom id): how a refund made here is matched; null for one made at the provider */
  ownRefundId: number | null;
  /** The provider's failure code for a failed or canceled refund (a code, never its prose) */
  failureCode: string | null;
}

/**
 * Why a refund cannot be asked for (checked before anything is reserved): `amount` names the field
 * (400: not representable in the gateway's exponent), `state` the payment (409: the provider's time limit).
 */
export interface RefundRefusal {
  kind: 'amount' | 'state';
  message: string;
}

/**
 * The provider answered that the payment changed there meanwhile (already refunded, amount larger
 * than what is left): the core re-reads the payment's refunds (`list`) and answers 409.
 */
export class ProviderRefundConflict extends Error {
  constructor(readonly providerCode: string) {
    super(`The provider refused the refund: ${providerCode}`);
    this.name = 'ProviderRefundConflict';
  }
}

/**
 * Refunds at the provider (`POST /administration/payments/{id}/refunds`). Calls use the
 * credentials of the payment's own mode. Refusals the provider gives are 502
 * `checkout_gateway_error` with our message (never its text), no answer 503; a changed payment
 * throws ProviderRefundConflict.
 */
export interface GatewayRefunds {
  /** A refusal before anything is reserved (amount not representable, time limit passed), or null. */
  refusal(target: RefundTarget, amount: number, now: Date): RefundRefusal | null;
  /** Creates the refund, idempotently per `refundId` (a repeat answers the first refund). */
  refund(request: ProviderRefundRequest): Promise<ProviderRefund>;
  /** Every refund the provider holds on the target, for reconciling after a conflict. */
  list(target: RefundTarget): Promise<ProviderRefund[]>;
}
