/*
 * The contract between the hosted payment page's script (src/modules/hosted-page/page/) and a
 * gateway slice's browser driver (src/modules/<slice>/browser/driver/<name>.driver.ts). Browser
 * code: type-checked by tsconfig.browser.json (DOM library), bundled by scripts/build-hosted-page.mjs,
 * never compiled for Node. docs/hosted-page.md, "Browser drivers".
 *
 * The page owns the form (price, method, payer fields, the amount on the button), the payment
 * record, the error summary, focus, the success view and the frame's height; it names no gateway,
 * route or provider library. A driver owns one way of paying in the browser: its provider's
 * library, its slice's routes (given as data by the adapter's `hostedCheckout.routes`) and how the
 * provider's answers read to a payer.
 */

export { hasText, loadMessages, pageLocale, text } from './page-messages.js';

/** The event a driver bundle dispatches on `document` to hand the page its factory. */
export const DRIVER_DEFINED_EVENT = 'checkout:driver-defined';

/** The chosen payment method, as the page's method radio describes it (all data from the adapter). */
export interface ChosenMethod {
  /** The gateway id (data: a driver never compares it) */
  readonly gateway: string;
  /** The method id within the gateway (`ccard`) */
  readonly method: string;
  /** `<gateway>:<method>`, the radio's value */
  readonly value: string;
  /** The adapter's `hostedCheckout.methodOptions` for it (JSON, the driver's own shape) */
  readonly options: Readonly<Record<string, unknown>>;
}

/** The chosen price, as far as a driver needs it. */
export interface ChosenPrice {
  /** The radio's id (`price-0-1`), to restore the choice after a redirect */
  readonly id: string;
  /** ISO 4217, upper case, as the form says */
  readonly currency: string;
  /** A recurring price (the server makes a subscription) */
  readonly recurring: boolean;
  /** What it charges now in minor units (a custom amount as typed); null while unreadable */
  readonly amount: number | null;
  /** A customer-entered amount's lower bound (minor units), else null */
  readonly customMin: number | null;
}

export interface Choice {
  readonly method: ChosenMethod;
  readonly price: ChosenPrice;
}

/** The payment record's reference every public payment route takes (the sync-details answer). */
export interface PaymentReference {
  payment_id: number;
  payment_secret: string;
  checkout_token: string;
  form_id: number;
  payment_gateway: string;
  payment_method: string;
  amount: number;
  currency: string;
}

/** The payer's own fields, as sync-details takes them. */
export interface PayerDetails {
  email_address?: string;
  first_name?: string;
  last_name?: string;
  [field: string]: unknown;
}

/** An attempt a driver saved before its provider left the page, given back to the page on return. */
export interface ResumedAttempt {
  /** The method radio's value and the price radio's id the payer had chosen */
  readonly method: string;
  readonly price: string;
  readonly reference: PaymentReference;
}

/** What a driver found on the page's address when it loaded (a provider sending the payer back). */
export type ReturnOutcome =
  /** Nothing of this driver's in the address */
  | 'none'
  /** The driver finished the payment (or showed its failure) itself */
  | 'handled'
  /** The provider says the payment was received; the page cannot finish it here (the webhook will) */
  | 'received'
  /** The provider says the payment was not completed */
  | 'not_completed';

/**
 * What the page gives a driver: the gateway's container and public values (data from the
 * adapter), the form's state, and the page's states. Errors a driver throws or passes to `fail`
 * reach the payer only when made by `payerError` (or the page's API calls): anything else shows
 * the general message.
 */
export interface DriverContext {
  /** The gateway's container, where the provider's library mounts (`#mount-<gateway>`) */
  readonly mount: { readonly element: HTMLElement; readonly selector: string };
  /** The provider library's URL (the adapter's `hostedCheckout.libraryUrl`) */
  readonly libraryUrl: string;
  /** The public values the library takes (the port's `browserConfig`: never a secret) */
  readonly browserConfig: Readonly<Record<string, string>>;
  /** The slice's public routes, by the names its adapter gave them (`hostedCheckout.routes`), relative to the REST base */
  readonly routes: Readonly<Record<string, string>>;
  /** This response's CSP nonce, for the scripts and styles the library adds */
  readonly nonce: string;
  readonly formId: number;
  /** The payer's language (BCP 47 as the catalogs name it: `de`, `pt-BR`, `ja`): what the provider's library is told to speak */
  readonly locale: string;
  /**
   * A text of the page's catalog in the payer's language (`libraryLoad`, `walletCanceled`, …; the
   * catalog's `js.*` keys without the prefix), `{name}` placeholders filled from `values`.
   */
  text(key: string, values?: Readonly<Record<string, string | number>>): string;
  /** The page at the top level, without query or fragment: where a provider sends the payer back */
  readonly returnUrl: string;
  /** The page is inside a merchant's frame */
  readonly framed: boolean;

  /** Loads a script with the page's nonce (and these attributes); rejects with a payer error. */
  loadScript(url: string, attributes?: Readonly<Record<string, string>>): Promise<void>;
  /**
   * POST to the REST base. `keyName`: a creating route's Idempotency-Key of the current attempt
   * (the same for every try of one Pay click); refusals become payer errors.
   */
  api<T>(path: string, body: unknown, keyName?: string): Promise<T>;
  /** The chosen method and price now. */
  choice(): Choice;
  /** payment/sync-details for the chosen method and price: creates the record or updates it. */
  sync(): Promise<PaymentReference>;
  /** payment/status, then the success view, the processing note or the failure. */
  finish(reference: PaymentReference): Promise<void>;
  payerDetails(): PayerDetails;
  /**
   * A new payment attempt started by the driver's own button (not the page's Pay button): clears
   * the errors, checks the fields (throws a payer error) and makes the attempt's keys.
   */
  beginAttempt(): void;
  /** An error whose message the payer may read. */
  payerError(message: string): Error;
  /** Shows the error (a payer error's message, else the general one) and ends the busy state. */
  fail(error: unknown): void;
  setStatus(text: string): void;
  setBusy(busy: boolean): void;
  isBusy(): boolean;
  /** Opens the page at the top level in a new tab with this method chosen (a frame cannot follow a provider's redirect). */
  handOffToTopLevel(method: ChosenMethod): void;
  /** Restores the choice and the record of an attempt saved before a redirect; false when the page no longer offers them. */
  resumeAttempt(attempt: ResumedAttempt): boolean;
}

/** One way of paying in the browser, for one gateway's container. */
export interface CheckoutDriver {
  /** Pays with its own buttons (a wallet's), which replace the page's Pay button */
  readonly ownButtons: boolean;
  /** Its method or the price changed: load the library, mount or update. */
  start(choice: Choice): Promise<void>;
  /** The page's Pay button, after the page checked the fields (drivers without own buttons). */
  pay?(choice: Choice): Promise<void>;
  /** The payer typed a readable custom amount. */
  amountChanged?(choice: Choice): Promise<void>;
  /** Run once when the page loads: a provider sending the payer back to this page. */
  resume?(): Promise<ReturnOutcome>;
}

export type DriverFactory = (context: DriverContext) => CheckoutDriver;

/** What `defineCheckoutDriver` dispatches. */
export interface DriverDefinition {
  readonly name: string;
  readonly create: DriverFactory;
}

/**
 * Called once by a driver bundle when it loads: hands the page the driver named `name` (the name
 * its adapter gives in `hostedCheckout.driver`, and its file's name: `<name>.driver.ts`).
 */
export function defineCheckoutDriver(name: string, create: DriverFactory): void {
  document.dispatchEvent(new CustomEvent<DriverDefinition>(DRIVER_DEFINED_EVENT, { detail: { name, create } }));
}

/** Whether an error carries a message written for payers (made by the page's `payerError` or its API calls). */
export function isPayerFacing(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { payerFacing?: unknown }).payerFacing === true;
}

/*
 * The payer's manage page (src/modules/payer-manage/page/manage-card.ts) and a slice's card-setup
 * driver (`browser/driver/<name>.driver.ts`, named by the port's `subscriptionCardUpdate.driver`):
 * the page owns the form, its button, the status and the POST of the confirmed setup; the driver
 * owns the provider's library and its element. docs/hosted-page.md, "The payer's manage page".
 */

/** The event a card-setup driver bundle dispatches on `document` to hand the page its factory. */
export const CARD_SETUP_DRIVER_DEFINED_EVENT = 'checkout:card-setup-driver-defined';

/** A new card's setup, as the manage page's setup route answers it. */
export interface CardSetup {
  setup_intent: string;
  client_secret: string;
}

export interface CardSetupContext {
  /** The gateway's container, where the library mounts */
  readonly mount: { readonly element: HTMLElement; readonly selector: string };
  /** The provider library's URL (the adapter's `hostedCheckout.libraryUrl`) */
  readonly libraryUrl: string;
  /** The public values the library takes (never a secret) */
  readonly browserConfig: Readonly<Record<string, string>>;
  /** Where a provider sends the payer back after a redirect (the card page) */
  readonly returnUrl: string;
  /** Loads a script with the page's nonce; rejects with a payer error. */
  loadScript(url: string): Promise<void>;
  /** The payer's language (as DriverContext.locale): what the provider's library is told to speak */
  readonly locale: string;
  /** A text of the page's catalog in the payer's language (as DriverContext.text: `card.declined`, …) */
  text(key: string, values?: Readonly<Record<string, string | number>>): string;
  /** Asks the server for a new setup of the subscription's customer. */
  createSetup(): Promise<CardSetup>;
  /** An error whose message the payer may read. */
  payerError(message: string): Error;
}

export interface CardSetupDriver {
  /** Loads the library and mounts the element. */
  start(): Promise<void>;
  /** Checks the element, asks for a setup and confirms it; resolves with the setup's id once the card is confirmed. */
  confirm(): Promise<string>;
}

export type CardSetupDriverFactory = (context: CardSetupContext) => CardSetupDriver;

export interface CardSetupDriverDefinition {
  readonly name: string;
  readonly create: CardSetupDriverFactory;
}

/** Called once by a card-setup driver bundle when it loads. */
export function defineCardSetupDriver(name: string, create: CardSetupDriverFactory): void {
  document.dispatchEvent(new CustomEvent<CardSetupDriverDefinition>(CARD_SETUP_DRIVER_DEFINED_EVENT, { detail: { name, create } }));
}
