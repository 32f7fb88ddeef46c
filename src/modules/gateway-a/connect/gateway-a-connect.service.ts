import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AuthenticatedUser } from '../../../common/auth/index.js';
import { CryptoService } from '../../../common/crypto/index.js';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import { Clock } from '../../../common/clock/index.js';
import { GatewayError, InvalidParamsError } from '../../../common/errors/index.js';
import type { ConnectCallbackInput, GatewayMode, GatewaySettingField, KeyConnect, KeyConnectInput, KeyConnectResult, OAuthConnect } from '../../gateways/index.js';
import { OptionsService } from '../../settings/index.js';
import { MalformedGatewayAAnswer, parseAccount, parseBalance, parseOAuthGrant } from '../client/gateway-a-answers.js';
import { GatewayAClientFactory, type StripeClient } from '../client/gateway-a-client.factory.js';
import { describeGatewayFailure, gatewayStatusOf, toGatewayError } from '../client/gateway-a-errors.js';
import { gatewayAOption } from '../gateway-a-options.js';
import { GatewayAContractService } from '../webhook/gateway-a-contract.service.js';
import { gatewayAConnectCallbackUrl } from '../webhook/webhook-contract.js';
import { decodeConnectState, encodeConnectState, newConnectClaims } from './connect-state.js';
import { UsedConnectStateRepository } from './used-connect-state.repository.js';

/** Why a callback stored nothing; sent to the admin UI as `?gateway_a_error=<code>`. */
export type ConnectRefusalCode =
  | 'missing_state'
  | 'invalid_state'
  | 'expired_state'
  | 'reused_state'
  | 'access_denied'
  | 'missing_code'
  | 'exchange_refused'
  | 'exchange_failed'
  | 'invalid_credentials'
  | 'mode_mismatch';

class ConnectRefusal extends Error {
  constructor(readonly code: ConnectRefusalCode) {
    super(code);
  }
}

interface Credentials {
  userId: string;
  publicKey: string;
  secretKey: string;
  /** The token exchange's `livemode` (own keys are checked against the balance before this). */
  livemode?: boolean;
}

const ACCOUNT_ID = /^acct_[A-Za-z0-9]{1,64}$/;
const PUBLIC_KEY = /^pk_(test|live)_[A-Za-z0-9]{1,247}$/;
const SECRET_KEY = /^(sk|rk)_(test|live)_[A-Za-z0-9]{1,247}$/;
const EXCHANGE_TIMEOUT_MS = 15_000;

/**
 * The gateway-A OAuth connect flow through the proxy: a signed, admin- and mode-bound,
 * single-use state that expires in ten minutes; the callback stores the mode's credentials and
 * then provisions the webhook endpoint (outside any transaction). Connecting with the merchant's
 * own keys (the CLI's `gateway-a:connect`) checks them with the gateway and then takes the same
 * store-and-provision path as the callback.
 */
@Injectable()
export class GatewayAConnectService implements OAuthConnect, KeyConnect {
  /** The merchant's own key pair of one mode (the Dashboard's API keys page shows both). */
  readonly fields: readonly GatewaySettingField<'publishable_key' | 'secret_key'>[] = [
    { name: 'publishable_key', label: 'Publishable key', type: 'text', secret: false, required: true, hint: 'pk_test_… or pk_live_…, of the mode' },
    { name: 'secret_key', label: 'Secret key', type: 'text', secret: true, required: true, hint: 'sk_… or a restricted rk_… key, of the mode' },
  ];
  private readonly logger = new Logger(GatewayAConnectService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly crypto: CryptoService,
    private readonly clock: Clock,
    private readonly usedStates: UsedConnectStateRepository,
    private readonly options: OptionsService,
    private readonly clients: GatewayAClientFactory,
    private readonly contract: GatewayAContractService,
    private readonly dataSource: DataSource,
  ) {}

  /** The proxy's OAuth page for this admin and mode (the connect route redirects there). */
  authorizeUrl(user: AuthenticatedUser, mode: GatewayMode): string {
    const state = encodeConnectState(newConnectClaims(user.id, mode, this.clock.now().getTime()), this.signState);
    const url = new URL('/oauth/authorize', this.clients.proxy.origin);
    url.search = new URLSearchParams({
      response_type: 'code',
      scope: 'read_write',
      mode,
      redirect_uri: gatewayAConnectCallbackUrl(this.config),
      state,
    }).toString();
    return url.toString();
  }

  /** Handles the OAuth return and answers where to send the browser (ADMIN_URL plus the outcome). */
  async completeConnect(input: ConnectCallbackInput): Promise<string> {
    try {
      const { mode, contractStatus } = await this.connect(input);
      return this.adminUrl({ gateway_a_connected: mode, gateway_a_webhook: contractStatus });
    } catch (error) {
      if (!(error instanceof ConnectRefusal)) throw error;
      this.logger.warn({ reason: error.code }, 'gateway A connect callback refused');
      return this.adminUrl({ gateway_a_error: error.code });
    }
  }

  private readonly signState = (data: string): Buffer => this.crypto.hmac('connect-state', data);

  private async connect(input: ConnectCallbackInput): Promise<{ mode: GatewayMode; contractStatus: string }> {
    const now = this.clock.now();
    // During a secret rotation a state signed under CHECKOUT_SECRET_PREVIOUS still comes back valid.
    const checks = this.crypto.hmacSigners('connect-state').map((sign) => decodeConnectState(input.state, sign, now.getTime()));
    const check = checks.find((candidate) => candidate.valid) ?? checks[0];
    if (!check.valid) throw new ConnectRefusal(check.reason);
    const { claims } = check;
    // Consumed before anything else: a state that reached the callback is spent, whatever follows.
    if (!(await this.usedStates.markUsed(claims, now))) throw new ConnectRefusal('reused_state');
    if (input.error) throw new ConnectRefusal('access_denied');

    const credentials = await this.resolveCredentials(input);
    this.assertMode(credentials, claims.mode);

    const record = await this.storeAndProvision(claims.mode, credentials, { admin: claims.userId });
    return { mode: claims.mode, contractStatus: record.status ?? 'unverified' };
  }

  /**
   * Connects `mode` with the merchant's own keys: format and test/live checks, then the gateway
   * is asked which account the secret key acts for (a refused key stores nothing), then the
   * callback's own store-and-provision path. Errors carry no key and no provider text.
   */
  async connectWithKeys(mode: GatewayMode, input: KeyConnectInput, actor: string): Promise<KeyConnectResult> {
    if (!PUBLIC_KEY.test(input.publishableKey)) throw new InvalidParamsError({ publishable_key: 'the publishable key must look like pk_test_… or pk_live_…' });
    if (!SECRET_KEY.test(input.secretKey)) throw new InvalidParamsError({ secret_key: 'the secret key must look like sk_test_…, sk_live_… or a restricted rk_… key' });
    const keyModes = [PUBLIC_KEY.exec(input.publishableKey)![1], SECRET_KEY.exec(input.secretKey)![2]];
    if (keyModes.some((keyMode) => keyMode !== mode)) throw new InvalidParamsError({ mode: `${mode} mode takes ${mode} keys (pk_${mode}_…, sk_${mode}_…)` });

    const client = this.clients.forSecretKey(input.secretKey, { maxNetworkRetries: 1 });
    let accountId: string;
    try {
      accountId = parseAccount(await client.accounts.retrieve(null), 'accounts.retrieve').id;
    } catch (error) {
      throw this.keyCheckFailed(mode, error);
    }
    const livemode = await this.keyLivemode(mode, client);
    if (livemode !== null && livemode !== (mode === 'live')) throw new InvalidParamsError({ mode: `the gateway says this key is not a ${mode} key` });
    const credentials: Credentials = { userId: accountId, publicKey: input.publishableKey, secretKey: input.secretKey };

    const record = await this.storeAndProvision(mode, credentials, { actor });
    return { accountId: credentials.userId, webhook: { status: record.status ?? 'unverified', endpointId: record.endpoint_id, lastError: record.last_error ?? null } };
  }

  /**
   * The mode the gateway says the key acts in. The account object carries no `livemode` at the
   * pinned API version; the balance does (every key of the account can read it, a restricted key
   * only with balance read permission). The key's prefix, checked before any call, is what the
   * gateway itself goes by; this is its confirmation by whatever answers at the configured API
   * address. A restricted key refused the balance (403) leaves the prefix alone as the answer
   * (null); any other failure stops the connect as the account check does.
   */
  private async keyLivemode(mode: GatewayMode, client: StripeClient): Promise<boolean | null> {
    try {
      return parseBalance(await client.balance.retrieve(), 'balance.retrieve').livemode;
    } catch (error) {
      if (gatewayStatusOf(error) === 403) {
        this.logger.warn({ mode }, 'gateway A key: the balance is not readable with this key; its mode is taken from its prefix');
        return null;
      }
      throw this.keyCheckFailed(mode, error);
    }
  }

  private keyCheckFailed(mode: GatewayMode, error: unknown): Error {
    this.logger.warn({ mode, err: describeGatewayFailure(error) }, 'gateway A keys not saved: the check failed');
    if (error instanceof MalformedGatewayAAnswer) return new GatewayError('The payment gateway did not say which account this key belongs to or in which mode it acts; nothing was saved.');
    const status = gatewayStatusOf(error);
    if (status === 401 || status === 403) return new GatewayError('The payment gateway refused this secret key; nothing was saved.');
    return toGatewayError(error);
  }

  /**
   * The credential path every connect takes: the mode's credentials and a fresh automatic webhook
   * record in one transaction, then (outside it) the endpoint provisioned and read back, and the
   * endpoint this service created for the same account before retired.
   */
  private async storeAndProvision(mode: GatewayMode, credentials: Credentials, by: Record<string, string | number>): Promise<Awaited<ReturnType<GatewayAContractService['provisionAutomatic']>>> {
    const previous = await this.contract.getRecord(mode);
    await this.dataSource.transaction(async (manager) => {
      await this.options.set(gatewayAOption.credential(mode, 'user_id'), credentials.userId, manager);
      await this.options.set(gatewayAOption.credential(mode, 'public_key'), credentials.publicKey, manager);
      await this.options.setSecret(gatewayAOption.credential(mode, 'secret_key'), credentials.secretKey, manager);
      await this.contract.clear(mode, manager);
      await this.contract.saveRecord(mode, { management: 'automatic', endpoint_id: null, account_id: credentials.userId, status: 'unverified' }, manager);
    });
    this.logger.log({ mode, account: credentials.userId, ...by }, 'gateway A connected');

    const record = await this.contract.provisionAutomatic(mode);
    await this.retirePrevious(mode, previous, credentials.userId, record.endpoint_id);
    return record;
  }

  private async resolveCredentials(input: ConnectCallbackInput): Promise<Credentials> {
    const direct = [input.user_id, input.public_key, input.secret_key];
    if (direct.some((value) => value !== undefined)) {
      if (input.code !== undefined || direct.some((value) => value === undefined)) throw new ConnectRefusal('invalid_credentials');
      return this.validated({ userId: input.user_id!, publicKey: input.public_key!, secretKey: input.secret_key! });
    }
    if (!input.code) throw new ConnectRefusal('missing_code');
    return this.exchange(input.code);
  }

  /** The proxy's token endpoint answers in the gateway's OAuth format (docs/decisions.md §12). */
  private async exchange(code: string): Promise<Credentials> {
    let response: Response;
    try {
      response = await fetch(new URL('/oauth/token', this.clients.proxy.origin), {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        body: new URLSearchParams({ grant_type: 'authorization_code', code }),
        signal: AbortSignal.timeout(EXCHANGE_TIMEOUT_MS),
        redirect: 'error',
      });
    } catch {
      throw new ConnectRefusal('exchange_failed');
    }
    const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
    if (!response.ok) {
      throw new ConnectRefusal(response.status >= 400 && response.status < 500 && body?.error === 'invalid_grant' ? 'exchange_refused' : 'exchange_failed');
    }
    try {
      const grant = parseOAuthGrant(body);
      return { userId: grant.accountId, publicKey: grant.publishableKey, secretKey: grant.secretKey, livemode: grant.livemode };
    } catch (error) {
      if (!(error instanceof MalformedGatewayAAnswer)) throw error;
      // Nothing is stored from an answer that is not a grant; the reason names fields, never values.
      this.logger.warn({ reason: error.problem }, 'gateway A token exchange answered something that is not a grant');
      throw new ConnectRefusal('exchange_failed');
    }
  }

  private validated(credentials: Credentials, refusal: ConnectRefusalCode = 'invalid_credentials'): Credentials {
    if (!ACCOUNT_ID.test(credentials.userId) || !PUBLIC_KEY.test(credentials.publicKey) || !SECRET_KEY.test(credentials.secretKey)) {
      throw new ConnectRefusal(refusal);
    }
    return credentials;
  }

  /** Test keys for test mode, live keys for live mode: a swapped pair would charge the wrong way. */
  private assertMode(credentials: Credentials, mode: GatewayMode): void {
    const keyModes = [PUBLIC_KEY.exec(credentials.publicKey)![1], SECRET_KEY.exec(credentials.secretKey)![2]];
    if (keyModes.some((keyMode) => keyMode !== mode)) throw new ConnectRefusal('mode_mismatch');
    if (credentials.livemode !== undefined && credentials.livemode !== (mode === 'live')) throw new ConnectRefusal('mode_mismatch');
  }

  /** After a reconnect of the same account, the endpoint we created before is ours to remove. */
  private async retirePrevious(mode: GatewayMode, previous: Awaited<ReturnType<GatewayAContractService['getRecord']>>, accountId: string, newEndpointId: string | null): Promise<void> {
    if (!previous || previous.management !== 'automatic' || !previous.endpoint_id || previous.endpoint_id === newEndpointId) return;
    if (previous.account_id !== accountId) return;
    const account = await this.clients.findForMode(mode, { maxNetworkRetries: 0 });
    if (account) await this.contract.retireManagedEndpoint(account.client, previous.endpoint_id);
  }

  private adminUrl(params: Record<string, string>): string {
    const [base, hash] = this.config.adminUrl.split('#', 2);
    const query = new URLSearchParams(params).toString();
    return `${base}${base.includes('?') ? '&' : '?'}${query}${hash !== undefined ? `#${hash}` : ''}`;
  }
}
