import { MODULE_METADATA } from '@nestjs/common/constants.js';
import { type GatewayCatalogEntry, gatewayCatalog } from '../../common/gateway-catalog/index.js';
import { type ConfigSection, configSectionProvider } from '../../config/index.js';
import type { GatewayConnectCommand } from './gateway-connect-command.js';

/** What a gateway slice declares about itself on its Nest module (`@GatewaySlice({...})`). */
export interface GatewaySliceDefinition {
  /** Its catalog entry: every gateway list of the service (DTO enums, a form's method lists, the catalog route) is derived from these */
  readonly catalog: GatewayCatalogEntry;
  /**
   * Its own environment variables (API origins, browser library URL, limits): read and validated
   * by the slice at boot, beside the core's AppConfig, and injected in the slice under `config.token`.
   */
  readonly config?: ConfigSection<unknown>;
  /** Its `npm run cli -- <name>` command connecting a mode with the merchant's own credentials */
  readonly connect?: GatewayConnectCommand;
}

const slices: GatewaySliceDefinition[] = [];

/**
 * Marks a Nest module as a gateway slice and registers what it declares when the module's file
 * loads: before any application is created from it, so validation, the OpenAPI document, the boot's
 * configuration check and the CLI see the gateway. The slice's config section becomes a provider
 * of the module (so `@GatewaySlice` goes above `@Module`); its adapter registers with the
 * GatewayRegistry when the module starts.
 */
export function GatewaySlice(definition: GatewaySliceDefinition): ClassDecorator {
  gatewayCatalog.register(definition.catalog);
  slices.push(definition);
  return (target) => {
    const { config } = definition;
    if (!config) return;
    const providers: unknown[] | undefined = Reflect.getMetadata(MODULE_METADATA.PROVIDERS, target);
    Reflect.defineMetadata(MODULE_METADATA.PROVIDERS, [...(providers ?? []), configSectionProvider(config)], target);
  };
}

/**
 * Reads every registered slice's configuration from `env`, throwing the first ConfigError: main.ts
 * and `cli doctor` call it beside loadConfig, so a bad slice variable stops the boot before anything
 * starts, as a bad core variable does.
 */
export function checkGatewaySliceConfig(env: NodeJS.ProcessEnv): void {
  for (const slice of slices) slice.config?.read(env);
}

/** The registered slices' CLI connect commands, in registration order. */
export function gatewayConnectCommands(): GatewayConnectCommand[] {
  return slices.flatMap((slice) => (slice.connect ? [slice.connect] : []));
}
