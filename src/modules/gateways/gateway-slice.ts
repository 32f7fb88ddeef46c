import { type GatewayCatalogEntry, gatewayCatalog } from '../../common/gateway-catalog/index.js';

/** What a gateway slice declares about itself on its Nest module (`@GatewaySlice({...})`). */
export interface GatewaySliceDefinition {
  /** Its catalog entry: every gateway list of the service (DTO enums, a form's method lists, the catalog route) is derived from these */
  readonly catalog: GatewayCatalogEntry;
}

/**
 * Marks a Nest module as a gateway slice and registers what it declares when the module's file
 * loads: before any application is created from it, so validation and the OpenAPI document see
 * the gateway. The slice's adapter registers with the GatewayRegistry when the module starts.
 */
export function GatewaySlice(definition: GatewaySliceDefinition): ClassDecorator {
  gatewayCatalog.register(definition.catalog);
  return () => undefined;
}
