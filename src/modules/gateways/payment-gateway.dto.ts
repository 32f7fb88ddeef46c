import { ApiProperty } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsEmail,
  IsFQDN,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { ArrayMaxSizeOf, ToBoolean, Trim } from '../../common/validation/index.js';
import type { ConnectCallbackInput } from './payment-gateway.port.js';
import { CHECKOUT_GATEWAYS, type CheckoutGateway, GATEWAY_MODES, type GatewayMode, METHODS_WITH_SETTINGS, type MethodWithSettings, PAYMENT_METHOD_IDS } from '../../common/gateway-catalog/index.js';

export class ConnectQueryDto {
  /** Mode to connect: `test` or `live` */
  @ApiProperty({ enum: GATEWAY_MODES, description: 'Mode to connect: `test` or `live`' })
  @IsIn(GATEWAY_MODES)
  mode: GatewayMode;
}

/** GET /payment-gateway/connect asked for JSON: where the admin's browser goes to authorise this site. */
export class ConnectStartDto {
  /** The proxy's OAuth page with the signed state */
  authorize_url: string;
}

/**
 * The OAuth return. The proxy sends `code` (exchanged at its token endpoint) or the credentials
 * themselves; `error` when the merchant declined. Every outcome redirects to ADMIN_URL.
 */
export class ConnectCallbackQueryDto implements ConnectCallbackInput {
  /** The signed state issued by `/payment-gateway/connect` */
  @IsOptional()
  @IsString()
  @MaxLength(512)
  state?: string;

  /** Authorization code to exchange */
  @IsOptional()
  @IsString()
  @MaxLength(255)
  code?: string;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  scope?: string;

  /** OAuth error, e.g. `access_denied` */
  @IsOptional()
  @IsString()
  @MaxLength(100)
  error?: string;

  @IsOptional()
  @IsString()
  @MaxLength(500)
  error_description?: string;

  /** Gateway account id (credentials variant), e.g. `acct_...` */
  @IsOptional()
  @IsString()
  @MaxLength(255)
  user_id?: string;

  /** Publishable key (credentials variant), e.g. `pk_test_...` */
  @IsOptional()
  @IsString()
  @MaxLength(255)
  public_key?: string;

  /** Secret key (credentials variant), e.g. `sk_test_...`; stored encrypted */
  @IsOptional()
  @IsString()
  @MaxLength(255)
  secret_key?: string;
}

export class GatewayRefDto {
  @IsIn(CHECKOUT_GATEWAYS)
  gateway: CheckoutGateway;
}

export class SetModeDto extends GatewayRefDto {
  @IsIn(GATEWAY_MODES)
  mode: GatewayMode;
}

export class SetPaymentMethodsDto extends GatewayRefDto {
  /** Method ids of that gateway (gateway A: ccard, sepa (Pro only), device_wallet_1/2, regional_wallet_1/2; gateway B: standard_checkout) */
  @IsArray()
  @ArrayMaxSizeOf(PAYMENT_METHOD_IDS)
  @ArrayUnique()
  @IsIn(PAYMENT_METHOD_IDS, { each: true })
  methods: string[];
}

export class SaveWebhookSettingsDto extends GatewayRefDto {
  @IsIn(GATEWAY_MODES)
  mode: GatewayMode;

  /**
   * The signing secret of a gateway that signs its webhooks with one (gateway A: of a manually
   * managed endpoint, `whsec_...`); stored encrypted, never returned. Its exact form is the gateway
   * adapter's to check; here only the characters and length any such secret has.
   */
  @ValidateIf((dto: SaveWebhookSettingsDto) => dto.signing_secret !== undefined)
  @Trim()
  @IsString()
  @MaxLength(255)
  @Matches(/^[A-Za-z0-9+/=_-]{16,255}$/, { message: 'signing_secret must be a webhook signing secret (16 to 255 letters, digits or + / = _ -)' })
  signing_secret?: string;

  /** Gateway A: the manually managed endpoint is configured with the 12 events; unpauses checkout for the mode */
  @ValidateIf((dto: SaveWebhookSettingsDto) => dto.manual_configuration_complete !== undefined)
  @ToBoolean()
  @IsBoolean()
  manual_configuration_complete?: boolean;

  /** Gateway B (required there): Webhook ID of the mode; stored encrypted, never returned whole */
  @ValidateIf((dto: SaveWebhookSettingsDto) => dto.webhook_id !== undefined)
  @Trim()
  @IsString()
  @Matches(/^[A-Za-z0-9-]{6,64}$/, { message: 'webhook_id must be the Webhook ID shown by the gateway' })
  webhook_id?: string;
}

/**
 * POST /payment-gateway/save-settings: the credentials of the gateway that takes them (gateway B:
 * the PayPal account email and a REST app's client id and secret) for its current mode.
 */
export class SaveSettingsDto {
  /** The account's email address (shown to the admin; not sent to the provider) */
  @Trim()
  @IsString()
  @MaxLength(254)
  @IsEmail({}, { message: 'email must be an email address' })
  email: string;

  /** The REST app's client id */
  @Trim()
  @IsString()
  @Matches(/^[\x21-\x39\x3b-\x7e]{1,255}$/, { message: 'client_id must be the client id of the REST app (visible characters, no colon, at most 255)' })
  client_id: string;

  /** The REST app's secret; stored encrypted, never returned whole */
  @Trim()
  @IsString()
  @Matches(/^[\x21-\x39\x3b-\x7e]{1,255}$/, { message: 'secret must be the secret of the REST app (visible characters, no colon, at most 255)' })
  secret: string;
}

/**
 * POST /payment-gateway/connect-keys: the merchant's own API keys for one mode, for the gateway that
 * takes them (gateway A: a publishable key and a secret or restricted key of that mode). The gateway
 * checks their format and mode.
 */
export class ConnectKeysDto {
  /** The mode the keys are for: `test` keys for test mode, `live` keys for live mode */
  @IsIn(GATEWAY_MODES)
  mode: GatewayMode;

  /** The publishable key of that mode (gateway A: `pk_test_…` or `pk_live_…`) */
  @Trim()
  @IsString()
  @MaxLength(255)
  publishable_key: string;

  /** The secret key of that mode (gateway A: `sk_…` or a restricted `rk_…`); stored encrypted, never returned or logged */
  @Trim()
  @IsString()
  @MaxLength(255)
  secret_key: string;
}

export class DeviceWalletSettingsDto {
  /** Whether the wallet's domain verification is configured for the domains below */
  @ToBoolean()
  @IsBoolean()
  domain_verification: boolean;

  /** Host names where the wallet button is shown (e.g. `shop.example.com`) */
  @IsArray()
  @ArrayMaxSize(20)
  @Transform(({ value }: { value: unknown }) => (Array.isArray(value) ? value.map((item) => (typeof item === 'string' ? item.trim().toLowerCase() : item)) : value))
  @ArrayUnique()
  @IsString({ each: true })
  @MaxLength(253, { each: true })
  @IsFQDN({ require_tld: true, allow_underscores: false, allow_trailing_dot: false }, { each: true, message: 'each domain must be a host name such as shop.example.com' })
  domains: string[];
}

export class SavePaymentMethodSettingsDto extends GatewayRefDto {
  /** A method with settings of its own (device wallets); it must be a method of `gateway` */
  @IsIn(METHODS_WITH_SETTINGS)
  method: MethodWithSettings;

  @IsObject()
  @ValidateNested()
  @Type(() => DeviceWalletSettingsDto)
  settings: DeviceWalletSettingsDto;
}

// --- responses -------------------------------------------------------------------------------------------

export class GatewayStatusDto {
  @ApiProperty({ enum: CHECKOUT_GATEWAYS, type: 'string' })
  gateway: CheckoutGateway;

  /** The gateway's current site mode */
  @ApiProperty({ enum: GATEWAY_MODES })
  mode: GatewayMode;

  /** 1 when the credentials of the current mode are stored */
  @ApiProperty({ enum: [0, 1] })
  is_connected: number;

  /** 1 in live mode */
  @ApiProperty({ enum: [0, 1] })
  is_live: number;

  active_payment_methods: string[];

  /** True while the gateway pauses checkout in the current mode (gateway A: webhook contract unverified); null for a gateway without such a pause */
  @ApiProperty({ type: Boolean, nullable: true })
  checkout_paused: boolean | null;
}

export class WebhookSettingsDto {
  @ApiProperty({ enum: CHECKOUT_GATEWAYS, type: 'string' })
  gateway: CheckoutGateway;

  @ApiProperty({ enum: GATEWAY_MODES })
  mode: GatewayMode;

  /** Gateway A: who manages the endpoint (null when nothing is configured) */
  @ApiProperty({ enum: ['automatic', 'manual'], nullable: true, required: false })
  management?: 'automatic' | 'manual' | null;

  /** Gateway A: the event contract of the mode */
  @ApiProperty({ enum: ['unconfigured', 'unverified', 'verified', 'failed'], required: false })
  status?: string;

  /** Gateway A: checkout answers 409 `checkout_paused` in this mode */
  @ApiProperty({ required: false })
  checkout_paused?: boolean;

  /** Gateway A: id of the endpoint the service manages */
  @ApiProperty({ type: String, nullable: true, required: false })
  endpoint_id?: string | null;

  /** Gateway A: mask of the stored signing secret, e.g. `whsec_…a1b2` */
  @ApiProperty({ type: String, nullable: true, required: false })
  signing_secret?: string | null;

  @ApiProperty({ type: String, nullable: true, required: false })
  verified_at?: string | null;

  /** Gateway A: why the contract is not verified */
  @ApiProperty({ type: String, nullable: true, required: false })
  last_error?: string | null;

  /** Gateway B: mask of the stored Webhook ID */
  @ApiProperty({ type: String, nullable: true, required: false })
  webhook_id?: string | null;
}

export class PaymentMethodSettingsDto {
  @ApiProperty({ enum: CHECKOUT_GATEWAYS, type: 'string' })
  gateway: CheckoutGateway;

  @ApiProperty({ enum: METHODS_WITH_SETTINGS, type: 'string' })
  method: MethodWithSettings;

  settings: DeviceWalletSettingsDto;
}

/** The credentials saved for the gateway's current mode. */
export class CredentialSettingsDto {
  @ApiProperty({ enum: CHECKOUT_GATEWAYS, type: 'string' })
  gateway: CheckoutGateway;

  /** The gateway's current mode: the one the credentials were saved for */
  @ApiProperty({ enum: GATEWAY_MODES })
  mode: GatewayMode;

  @ApiProperty({ type: String, nullable: true })
  email: string | null;

  @ApiProperty({ type: String, nullable: true })
  client_id: string | null;

  /** Mask of the stored secret, e.g. `…x9Zq` */
  @ApiProperty({ type: String, nullable: true })
  secret: string | null;

  /** 1 when the mode's credentials are stored */
  @ApiProperty({ enum: [0, 1] })
  is_connected: number;
}

/** The mode's webhook contract after a connect: checkout in the mode is open only once it is verified. */
export class ConnectKeysWebhookDto {
  /** `verified`: the endpoint was created and read back; `failed`: it could not be set up (see `last_error`; checkout in the mode stays paused) */
  @ApiProperty({ enum: ['unconfigured', 'unverified', 'verified', 'failed'], example: 'verified' })
  status: string;

  /** The endpoint the service created at the provider */
  @ApiProperty({ type: String, nullable: true, example: 'we_1QvP5n2eZvKYlo2C' })
  endpoint_id: string | null;

  /** Why it is not verified, in the service's own words */
  @ApiProperty({ type: String, nullable: true, example: null })
  last_error: string | null;
}

/** POST /payment-gateway/connect-keys: what the connect did. No key is ever answered. */
export class ConnectKeysResultDto {
  @ApiProperty({ enum: CHECKOUT_GATEWAYS, example: 'gateway_a', type: 'string' })
  gateway: CheckoutGateway;

  /** The mode that was connected */
  @ApiProperty({ enum: GATEWAY_MODES, example: 'test' })
  mode: GatewayMode;

  /** The provider account the secret key acts for */
  @ApiProperty({ example: 'acct_1QvP5n2eZvKYlo2C' })
  account_id: string;

  /** 1 when every credential of the mode is stored */
  @ApiProperty({ enum: [0, 1] })
  is_connected: number;

  @ApiProperty({ type: ConnectKeysWebhookDto })
  webhook: ConnectKeysWebhookDto;

  /** True while checkout in this mode is paused (webhook contract not verified) */
  @ApiProperty({ type: Boolean, nullable: true })
  checkout_paused: boolean | null;

  /** The gateway's site mode: the one payments use (`POST /payment-gateway/set-mode` switches it) */
  @ApiProperty({ enum: GATEWAY_MODES })
  site_mode: GatewayMode;

  /** What the administrator should know (the plan the keys are meant for, a site mode that differs) */
  @ApiProperty({ type: [String] })
  notes: string[];
}
