import type { GatewaySliceDefinition } from '../../src/modules/gateways/index.js';
import { GATEWAY_X_CONFIG } from './gateway-x.config.js';

/**
 * The test-only gateway X as the catalog knows it. Its id is `gateway_x`, not `gateway_c`: the
 * catalog takes any lower snake_case id, but `gateway_c` is already a name in the interface's own
 * list (section B's bank debit, gateway A's `sepa` method, common/gateway-catalog), so a slice of
 * that id would make `/gateway/list` say two things about one id. Its method id is unique across
 * gateways, as the catalog requires.
 */
export const GATEWAY_X_SLICE: GatewaySliceDefinition = {
  catalog: {
    id: 'gateway_x',
    label: 'Gateway X',
    kind: 'card',
    methods: [{ id: 'x_card', label: 'Test card X' }],
  },
  // Its own variable (GATEWAY_X_JS_URL), read by the slice: src/config/ knows nothing of it.
  config: GATEWAY_X_CONFIG,
};

export const GATEWAY_X = GATEWAY_X_SLICE.catalog.id;
export const GATEWAY_X_METHOD = GATEWAY_X_SLICE.catalog.methods[0].id;
