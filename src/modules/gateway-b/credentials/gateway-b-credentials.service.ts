import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { GatewayError, GatewayUnavailableError, InvalidParamsError } from '../../../common/errors/index.js';
import { APP_CONFIG, type AppConfig, REST_NAMESPACE } from '../../../config/index.js';
import type { ApiKeyConfiguration, CredentialSettings, CredentialSettingsInput, CredentialSettingsView, GatewayMode, GatewaySettingField } from '../../gateways/index.js';
import { OptionsService } from '../../settings/index.js';
import { GatewayBClientFactory } from '../client/gateway-b-client.factory.js';
import { GatewayBCredentialsError, GatewayBError } from '../client/gateway-b-errors.js';
import { toGatewayBFailure } from '../client/gateway-b-failures.js';
import { gatewayBOption } from '../gateway-b-options.js';

/** A REST app's client id or secret: visible ASCII, no colon (HTTP Basic joins them with one). */
export const GATEWAY_B_CREDENTIAL = /^[\x21-\x39\x3b-\x7e]{1,255}$/;

/** Where PayPal delivers the mode's events. */
export function gatewayBWebhookUrl(config: Pick<AppConfig, 'publicBaseUrl' | 'restRoot'>, mode: GatewayMode): string {
  return `${config.publicBaseUrl}/${config.restRoot}/${REST_NAMESPACE}/webhook/gateway-b-callback/${mode}`;
}

/**
 * Gateway B's credentials per mode (docs/decisions.md §9): `POST /payment-gateway/save-settings` (email,
 * client id, secret) and section B's `POST /gateway/configure` (`api_key` = `<client id>:<secret>`,
 * the email kept). New credentials are checked by asking PayPal for a token first; refused (502)
 * or unreachable (503) means nothing is stored. They are stored in one transaction, the secret
 * sealed (AES-256-GCM) and shown only as a mask. The checked client stays cached, so its token
 * serves the next requests.
 */
@Injectable()
export class GatewayBCredentialsService implements CredentialSettings, ApiKeyConfiguration {
  readonly apiKeyDescription = 'the client id and secret of a PayPal REST app, as "<client id>:<secret>"';
  /** The account's email (a label for the admin) and a REST app's client id and secret. */
  readonly fields: readonly GatewaySettingField<keyof CredentialSettingsInput>[] = [
    { name: 'email', label: 'Account email', type: 'email', secret: false, required: true },
    { name: 'client_id', label: 'Client ID', type: 'text', secret: false, required: true, hint: 'The client ID of your REST app' },
    { name: 'secret', label: 'Secret', type: 'text', secret: true, required: true, hint: 'The secret of the same REST app' },
  ];
  private readonly logger = new Logger('GatewayBCredentials');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly options: OptionsService,
    private readonly clients: GatewayBClientFactory,
    private readonly dataSource: DataSource,
  ) {}

  async save(mode: GatewayMode, input: CredentialSettingsInput): Promise<CredentialSettingsView> {
    await this.check(mode, input.client_id, input.secret);
    await this.store(mode, { email: input.email, clientId: input.client_id, secret: input.secret });
    return this.view(mode);
  }

  async view(mode: GatewayMode): Promise<CredentialSettingsView> {
    return {
      email: await this.options.get<string | null>(gatewayBOption.credential(mode, 'email'), null),
      client_id: await this.options.get<string | null>(gatewayBOption.credential(mode, 'client_id'), null),
      secret: await this.options.getSecretMask(gatewayBOption.credential(mode, 'secret')),
    };
  }

  webhookUrl(mode: GatewayMode): string {
    return gatewayBWebhookUrl(this.config, mode);
  }

  async configure(mode: GatewayMode, apiKey: string): Promise<void> {
    const separator = apiKey.indexOf(':');
    const clientId = separator > 0 ? apiKey.slice(0, separator) : '';
    const secret = separator > 0 ? apiKey.slice(separator + 1) : '';
    if (!GATEWAY_B_CREDENTIAL.test(clientId) || !GATEWAY_B_CREDENTIAL.test(secret)) {
      throw new InvalidParamsError({ api_key: `api_key must be ${this.apiKeyDescription}` });
    }
    await this.check(mode, clientId, secret);
    await this.store(mode, { clientId, secret });
  }

  /** Asks PayPal for a token with these credentials (the client is kept when they work). */
  private async check(mode: GatewayMode, clientId: string, secret: string): Promise<void> {
    const client = this.clients.forCredentials(mode, clientId, secret);
    try {
      await client.verifyCredentials();
    } catch (error) {
      this.clients.forget(mode, clientId, secret);
      if (!(error instanceof GatewayBError)) throw error;
      this.logger.warn({ mode, err: error.message }, 'gateway B credentials not saved: the check failed');
      if (error instanceof GatewayBCredentialsError) throw new GatewayError('The payment provider refused this client id and secret; nothing was saved.');
      if (error.kind === 'unreachable') throw new GatewayUnavailableError();
      throw toGatewayBFailure(error);
    }
  }

  private async store(mode: GatewayMode, credentials: { email?: string; clientId: string; secret: string }): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      if (credentials.email !== undefined) await this.options.set(gatewayBOption.credential(mode, 'email'), credentials.email, manager);
      await this.options.set(gatewayBOption.credential(mode, 'client_id'), credentials.clientId, manager);
      await this.options.setSecret(gatewayBOption.credential(mode, 'secret'), credentials.secret, manager);
    });
  }
}
