// Unit specs run without the application module, whose slices register the gateway catalog as
// they load: this registers the same entries (the catalog takes each entry once, so a spec that
// does load a slice's module changes nothing).
import { gatewayCatalog } from '../../src/common/gateway-catalog/index.js';
import { GATEWAY_A_SLICE } from '../../src/modules/gateway-a/gateway-a.slice.js';
import { GATEWAY_B_SLICE } from '../../src/modules/gateway-b/gateway-b.slice.js';

for (const slice of [GATEWAY_A_SLICE, GATEWAY_B_SLICE]) gatewayCatalog.register(slice.catalog);
