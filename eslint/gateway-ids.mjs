// Gateways only through the adapter port: code outside the gateway slices and the catalog does
// not branch on a gateway's id. A comparison (===, !==, ==, !=) or a switch case with a gateway id
// string literal ('gateway_a', 'gateway_b', 'gateway_c') is refused in src/; the fact it would
// test belongs to the gateway's adapter (src/modules/gateways/payment-gateway.port.ts) or to the
// catalog (src/modules/gateways/gateway-catalog.ts). Ids as data stay allowed: a list, an
// argument, an example, the quick-setup step ids of docs/interface.md.
//
// Paths are relative to the repository root.

const GATEWAY_ID = '/^gateway_[a-z]$/';

/** Where the rule applies, and the places that may name gateways in comparisons. */
export const GATEWAY_ID_RULE_FILES = ['src/**/*.ts', 'src/**/*.js'];
export const GATEWAY_ID_RULE_EXEMPT = ['src/modules/gateway-*/**', 'src/modules/gateways/gateway-catalog.ts'];

export const GATEWAY_ID_MESSAGE =
  'No comparison with a gateway id outside the gateway slices and the catalog: ask the gateway adapter (payment-gateway.port.ts) or the catalog (gateway-catalog.ts) instead (gateway id comparison).';

/** no-restricted-syntax entries: either side of an (in)equality, and a switch case. */
export const GATEWAY_ID_COMPARISONS = [
  { selector: `BinaryExpression[operator=/^[!=]==?$/] > Literal.left[value=${GATEWAY_ID}]`, message: GATEWAY_ID_MESSAGE },
  { selector: `BinaryExpression[operator=/^[!=]==?$/] > Literal.right[value=${GATEWAY_ID}]`, message: GATEWAY_ID_MESSAGE },
  { selector: `SwitchCase > Literal.test[value=${GATEWAY_ID}]`, message: GATEWAY_ID_MESSAGE },
];
