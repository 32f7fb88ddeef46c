// A gateway is one folder: code outside the gateway slices and the catalog does not name a
// gateway. In src/ (TypeScript and browser scripts), outside `src/modules/gateway-*/` and
// `src/common/gateway-catalog/`, the rule refuses
//
// - a gateway id as a string ('gateway_a', a template literal `gateway_b`, a type 'gateway_a') or
//   as an object key ({ gateway_a: [...] }): in a comparison, a list, an argument, anywhere;
// - a slice route: a string naming a slice's path ('/gateway-a/checkout',
//   'gateway-b-callback/:mode', 'gateway-a'), alone or inside a longer string.
//
// What such code needs of a gateway is a port fact (src/modules/gateways/payment-gateway.port.ts,
// reached through the registry) or catalog data (src/common/gateway-catalog/: the registered
// entries and the interface's own fixed lists, section B's with `gateway_c`).
//
// Not refused, because they are documentation or the interface's data, not code that knows a
// gateway (keep this list short; docs/architecture.md, "Gateways only through the port"):
// - OpenAPI examples: anything inside an `example` / `examples` property or a constant whose name
//   ends in `_EXAMPLE` (the interface's documents show real ids);
// - import and export sources (which module may import a slice is the boundary rules' business:
//   only app.module.ts);
// - the files of GATEWAY_ID_EXEMPT_FILES below, each with its reason.
// Prose (a description that mentions `gateway_a`) is not a string equal to an id and stays allowed.
//
// Paths are relative to the repository root.

/** A gateway id: `gateway_` and one letter, as the interface names them. */
const GATEWAY_ID = '/^gateway_[a-z]$/';
/** A gateway id inside a template literal's text, also as part of a name (`checkout_gateway_b_${mode}`). */
const GATEWAY_ID_IN_TEXT = '(^|[^a-z0-9])gateway_[a-z]($|[^a-z0-9])';
/** A slice's route path: its controller path `gateway-a`, alone, followed by `/`, or its callback `gateway-b-callback`. */
const SLICE_ROUTE_IN_TEXT = '(^|[^a-z0-9_-])/?gateway-[a-z](/|-callback|$)';

/** Where the rule applies. */
export const GATEWAY_ID_RULE_FILES = ['src/**/*.ts', 'src/**/*.js'];

/** Files that may name gateways, and why. */
export const GATEWAY_ID_EXEMPT_FILES = [
  // The slices: each names itself (its id, its routes).
  'src/modules/gateway-*/**',
  // The catalog: the registered entries and the interface's fixed lists (section B's gateway_a/b/c).
  'src/common/gateway-catalog/**',
  // Unit specs are tests: they set up the gateways they exercise, as test/ does.
  'src/**/*.spec.ts',
  // The interface's quick-setup steps are about gateway A by id (`connect_gateway_a_test_gateway`,
  // docs/interface.md); the step rules say so beside the step ids. administration/ is not the
  // catalog's to own.
  'src/modules/administration/quick-setup.service.ts',
  // The 10 bundled form templates (docs/decisions.md §11) are data: each lists the methods it
  // offers per gateway, as a stored form does.
  'src/modules/templates/bundled-form-templates.ts',
];

/** Nodes that are documentation or module wiring, not code that names a gateway. */
const NOT_DOCUMENTATION =
  ':not(Property[key.name=/^examples?$/] *, VariableDeclarator[id.name=/_EXAMPLE$/] *, ImportDeclaration > Literal, ExportAllDeclaration > Literal, ExportNamedDeclaration > Literal, ImportExpression > Literal)';

export const GATEWAY_ID_MESSAGE =
  'No gateway id outside the gateway slices and the catalog: ask the gateway adapter (payment-gateway.port.ts) or the catalog (common/gateway-catalog/) instead (gateway id named).';
export const SLICE_ROUTE_MESSAGE =
  "No slice route outside its gateway slice: the slice hands its routes over as data (e.g. the adapter's hostedCheckout.routes) (slice route named).";

/** no-restricted-syntax entries. */
export const GATEWAY_NAMING_SELECTORS = [
  { selector: `Literal[value=${GATEWAY_ID}]${NOT_DOCUMENTATION}`, message: GATEWAY_ID_MESSAGE },
  { selector: `Property[computed=false] > Identifier.key[name=${GATEWAY_ID}]${NOT_DOCUMENTATION}`, message: GATEWAY_ID_MESSAGE },
  { selector: `TemplateElement[value.cooked=/${GATEWAY_ID_IN_TEXT}/]${NOT_DOCUMENTATION}`, message: GATEWAY_ID_MESSAGE },
  { selector: `Literal[value=/${SLICE_ROUTE_IN_TEXT.replaceAll('/', '\\/')}/]${NOT_DOCUMENTATION}`, message: SLICE_ROUTE_MESSAGE },
  { selector: `TemplateElement[value.cooked=/${SLICE_ROUTE_IN_TEXT.replaceAll('/', '\\/')}/]${NOT_DOCUMENTATION}`, message: SLICE_ROUTE_MESSAGE },
];
