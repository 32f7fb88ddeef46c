/**
 * The gateway catalog: what the gateway slices register (each slice's module declares its entry
 * with `@GatewaySlice`, src/modules/gateways/gateway-slice.ts), and the interface's own gateway
 * lists (section B's, the settings' default). Every other gateway list of the service is derived
 * from it, so a gateway is added by adding its slice. Data only: what a gateway can do lives in its
 * adapter (src/modules/gateways/payment-gateway.port.ts). It sits in common/ because settings/,
 * which gateways/ imports, validates against section B's list too.
 */

/** A gateway id the catalog holds (`gateway_a`): checked against the catalog at the edges (DTOs), not by the type. */
export type CheckoutGateway = string;

export type GatewayMode = 'test' | 'live';
export const GATEWAY_MODES: readonly GatewayMode[] = ['test', 'live'];

export function isGatewayMode(value: unknown): value is GatewayMode {
  return value === 'test' || value === 'live';
}

/** One payment method of a gateway. Method ids are unique across gateways. */
export interface GatewayMethodEntry {
  readonly id: string;
  /** Display name, as payers and merchants know the method (`Card`, `Apple Pay`, `PayPal`): consoles, emails and the payment page show it */
  readonly label: string;
  /** The method has settings of its own (device wallets: domain verification, save-payment-method-settings) */
  readonly hasSettings?: boolean;
}

/** What a slice registers about its gateway: its id, kind and methods (the first is what a gateway never configured offers). */
export interface GatewayCatalogEntry {
  readonly id: string;
  /**
   * Display name, as merchants know the provider (`Stripe`, `PayPal`): what the admin console shows.
   * The id stays the interface's neutral name; API messages name the gateway as the interface does
   * (the adapter's `label`).
   */
  readonly label: string;
  readonly kind: 'card' | 'wallet';
  readonly methods: readonly [GatewayMethodEntry, ...GatewayMethodEntry[]];
  /** How a payer pays in the gateway's test mode (the provider's test card or sandbox account), for a merchant's first test payment */
  readonly testPayment?: string;
}

const GATEWAY_ID = /^[a-z][a-z0-9_]{0,31}$/;
const METHOD_ID = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * The registered gateways, kept in id order whatever the order the slices load in. Its lists are
 * live: filled in place as slices register, so a decorator given one when its file loads
 * (`@IsIn(CHECKOUT_GATEWAYS)`, `@ApiProperty({ enum: … })`) sees every gateway registered by the time
 * a request is validated or the OpenAPI document is built. Such a decorator names its `type`
 * itself: swagger infers it from the values, which may not be there yet.
 */
export class GatewayCatalog {
  private readonly entries = new Map<string, GatewayCatalogEntry>();
  private readonly listeners: Array<(entry: GatewayCatalogEntry) => void> = [];
  private readonly derived: Array<{ list: string[]; build: () => readonly string[] }> = [];
  /** Every registered gateway id, in id order */
  readonly ids: readonly string[] = [];

  /** Adds a gateway; the same entry again is a no-op (a unit test's setup may have registered the slices' entries first). */
  register(entry: GatewayCatalogEntry): void {
    if (this.entries.get(entry.id) === entry) return;
    if (!GATEWAY_ID.test(entry.id)) throw new Error(`Gateway id ${JSON.stringify(entry.id)} must be lower snake_case`);
    if (this.entries.has(entry.id)) throw new Error(`Gateway ${entry.id} is registered twice`);
    for (const method of entry.methods) {
      if (!METHOD_ID.test(method.id)) throw new Error(`Method id ${JSON.stringify(method.id)} of ${entry.id} must be lower snake_case`);
      const owner = this.ownerOf(method.id);
      if (owner || entry.methods.filter((other) => other.id === method.id).length > 1) {
        throw new Error(`Method ${method.id} of ${entry.id} is already a method of ${owner ?? entry.id}: method ids are unique across gateways`);
      }
    }
    this.entries.set(entry.id, entry);
    replace(this.ids as string[], [...this.entries.keys()].sort());
    for (const { list, build } of this.derived) replace(list, build());
    for (const listener of this.listeners) listener(entry);
  }

  /** Calls `listener` for every gateway registered so far and every one registered later. */
  onEntry(listener: (entry: GatewayCatalogEntry) => void): void {
    this.listeners.push(listener);
    for (const id of this.ids) listener(this.entries.get(id)!);
  }

  /** A live list built from the catalog: rebuilt in place whenever a gateway registers. */
  liveList(build: (catalog: GatewayCatalog) => readonly string[]): readonly string[] {
    const list: string[] = [];
    const rebuild = () => build(this);
    this.derived.push({ list, build: rebuild });
    replace(list, rebuild());
    return list;
  }

  has(gateway: string): boolean {
    return this.entries.has(gateway);
  }

  /** The entry of a registered gateway; another id is a wiring mistake, not a client error. */
  entry(gateway: CheckoutGateway): GatewayCatalogEntry {
    const entry = this.entries.get(gateway);
    if (!entry) throw new Error(`${gateway} is not in the gateway catalog`);
    return entry;
  }

  all(): GatewayCatalogEntry[] {
    return this.ids.map((id) => this.entries.get(id)!);
  }

  /** The gateway's method ids, in the order it registered them. */
  methodsOf(gateway: CheckoutGateway): readonly string[] {
    return this.entry(gateway).methods.map((method) => method.id);
  }

  private ownerOf(method: string): string | undefined {
    for (const entry of this.entries.values()) if (entry.methods.some((candidate) => candidate.id === method)) return entry.id;
    return undefined;
  }

  private method(method: string): GatewayMethodEntry | undefined {
    for (const entry of this.entries.values()) {
      const found = entry.methods.find((candidate) => candidate.id === method);
      if (found) return found;
    }
    return undefined;
  }

  /** The display name of a method id; an unknown id is shown as it is. */
  label(method: string): string {
    return this.method(method)?.label ?? method;
  }

  /** True when `method` is one of `gateway`'s method ids (false for a gateway the catalog does not hold). */
  isMethodOf(gateway: CheckoutGateway, method: string): boolean {
    return this.entries.get(gateway)?.methods.some((candidate) => candidate.id === method) ?? false;
  }

  /** The gateway a method id belongs to. */
  gatewayOfMethod(method: string): CheckoutGateway {
    const owner = this.ownerOf(method);
    if (!owner) throw new Error(`${method} is no gateway's payment method`);
    return owner;
  }
}

function replace(list: string[], values: readonly string[]): void {
  list.splice(0, list.length, ...values);
}

/** The one catalog of the process. */
export const gatewayCatalog = new GatewayCatalog();

/** Every registered gateway id (live). */
export const CHECKOUT_GATEWAYS: readonly CheckoutGateway[] = gatewayCatalog.ids;
/** Every registered method id, gateway after gateway (live). */
export const PAYMENT_METHOD_IDS: readonly string[] = gatewayCatalog.liveList((catalog) => catalog.all().flatMap((entry) => entry.methods.map((method) => method.id)));
/** Payment methods that have settings of their own (live; device wallets: domain verification). */
export const METHODS_WITH_SETTINGS: readonly string[] = gatewayCatalog.liveList((catalog) =>
  catalog.all().flatMap((entry) => entry.methods.filter((method) => method.hasSettings).map((method) => method.id)),
);
export type MethodWithSettings = string;

export function methodLabel(method: string): string {
  return gatewayCatalog.label(method);
}

export function isMethodOf(gateway: CheckoutGateway, method: string): boolean {
  return gatewayCatalog.isMethodOf(gateway, method);
}

export function gatewayOfMethod(method: string): CheckoutGateway {
  return gatewayCatalog.gatewayOfMethod(method);
}

/** The gateway's method ids (the first is what a gateway never configured offers). */
export function gatewayMethods(gateway: CheckoutGateway): readonly string[] {
  return gatewayCatalog.methodsOf(gateway);
}

/** What kind of gateway a registered gateway is (card or wallet), as its slice says. */
export function gatewayKind(gateway: CheckoutGateway): 'card' | 'wallet' {
  return gatewayCatalog.entry(gateway).kind;
}

// --- the interface's own lists --------------------------------------------------------------------------

/** Section B's gateway ids: the interface's fixed list (docs/interface.md). */
export type SectionBGatewayId = 'gateway_a' | 'gateway_b' | 'gateway_c';

/** One entry of section B's gateway list: a gateway, or a method of one (`methodOf`) listed as a gateway. */
export type SectionBGateway =
  | { id: SectionBGatewayId; kind: 'card' | 'wallet'; methodOf?: undefined }
  | { id: SectionBGatewayId; kind: 'bank_debit'; methodOf: { gateway: CheckoutGateway; method: string } };

/**
 * Section B's gateway list (docs/decisions.md §10), as the interface gives it whatever slices are
 * registered: the card and wallet gateways, and bank debit (`gateway_c`), which is no gateway of
 * its own but the card gateway's Pro-only bank-debit method (docs/interface.md, "What the service is").
 */
export const SECTION_B_GATEWAYS: readonly SectionBGateway[] = [
  { id: 'gateway_a', kind: 'card' },
  { id: 'gateway_b', kind: 'wallet' },
  { id: 'gateway_c', kind: 'bank_debit', methodOf: { gateway: 'gateway_a', method: 'sepa' } },
];
export const SECTION_B_GATEWAY_IDS: readonly SectionBGatewayId[] = SECTION_B_GATEWAYS.map((entry) => entry.id);
/** Section B settings' `payment_gateway` before an admin chooses one (docs/interface.md). */
export const SECTION_B_DEFAULT_GATEWAY: SectionBGatewayId = SECTION_B_GATEWAY_IDS[0];
