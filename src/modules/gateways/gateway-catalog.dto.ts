import { ApiProperty } from '@nestjs/swagger';
import { CHECKOUT_GATEWAYS, type CheckoutGateway, GATEWAY_MODES, type GatewayMode, PAYMENT_METHOD_IDS } from '../../common/gateway-catalog/index.js';
import { DeviceWalletSettingsDto } from './payment-gateway.dto.js';

export const CONNECT_KINDS = ['oauth', 'own_keys', 'credentials', 'webhook_settings'] as const;
export type ConnectKind = (typeof CONNECT_KINDS)[number];
export const SETTING_FIELD_TYPES = ['text', 'email', 'boolean'] as const;

/** One payment method of a gateway. */
export class GatewayCatalogMethodDto {
  /** The method id forms, payments and `set-payment-methods` use */
  @ApiProperty({ enum: PAYMENT_METHOD_IDS, example: 'ccard', type: 'string' })
  id: string;

  /** The method's name as payers know it (`Card`, `Apple Pay`) */
  @ApiProperty({ example: 'Card' })
  label: string;

  /** Only the Pro plan may activate it (`set-payment-methods` refuses it on the free plan) */
  pro_only: boolean;

  /** Active on the site: payers are offered it where a form enables it. One list per gateway, for both modes (`POST /payment-gateway/set-payment-methods`) */
  active: boolean;

  /** It has settings of its own (`POST /payment-gateway/save-payment-method-settings`: device wallets' domain verification) */
  has_settings: boolean;

  /** The method's saved settings, for a method that `has_settings` (null when never saved); absent for the others */
  @ApiProperty({ type: DeviceWalletSettingsDto, nullable: true, required: false })
  settings?: DeviceWalletSettingsDto | null;

  /** The hosted payment page `/pay/{form_id}` can take it (the other methods are for a checkout that drives the gateway's browser library itself) */
  hosted_page: boolean;
}

/** A body field of a connect or settings route, as the gateway labels it. */
export class GatewaySettingFieldDto {
  /** The field's name in the route's JSON body */
  @ApiProperty({ example: 'secret_key' })
  name: string;

  @ApiProperty({ example: 'Secret key' })
  label: string;

  /** `boolean`: a checkbox; `email`: an email address; `text`: anything else */
  @ApiProperty({ enum: SETTING_FIELD_TYPES })
  type: (typeof SETTING_FIELD_TYPES)[number];

  /** Stored encrypted and only ever answered as a mask: type it into a password input */
  secret: boolean;

  required: boolean;

  /** What a valid value looks like */
  @ApiProperty({ required: false, example: 'sk_… or a restricted rk_… key, of the mode' })
  hint?: string;
}

/** One way to connect or configure a gateway, with the route that does it. */
export class GatewayConnectKindDto {
  /**
   * `oauth`: the gateway's connect page (the route answers where to send the browser; it comes back to ADMIN_URL with
   * `?<gateway id>_connected=<mode>&<gateway id>_webhook=<contract status>` or `?<gateway id>_error=<code>`);
   * `own_keys`: the merchant's own API keys; `credentials`: API credentials the admin enters for the current mode;
   * `webhook_settings`: the webhook settings of a mode for an endpoint the merchant manages
   */
  @ApiProperty({ enum: CONNECT_KINDS })
  kind: ConnectKind;

  /** The admin route, as `METHOD /path` relative to the REST base */
  @ApiProperty({ example: 'POST /payment-gateway/connect-keys' })
  route: string;

  /** True when the route takes a `mode` (`test` or `live`); false when it acts on the gateway's current mode */
  takes_mode: boolean;

  /** The route's body fields besides `gateway` and `mode` (none for `oauth`: it takes the mode only) */
  @ApiProperty({ type: [GatewaySettingFieldDto] })
  fields: GatewaySettingFieldDto[];
}

/** One gateway as an admin UI draws it: what it is, its methods and how it is connected. No state but the mode and the active methods. */
export class GatewayCatalogEntryDto {
  @ApiProperty({ enum: CHECKOUT_GATEWAYS, example: 'gateway_a', type: 'string' })
  id: CheckoutGateway;

  /** The provider's name as merchants know it (the slice's display name) */
  @ApiProperty({ example: 'Stripe' })
  label: string;

  @ApiProperty({ enum: ['card', 'wallet'] })
  kind: 'card' | 'wallet';

  /** False when it takes one-time prices only (a recurring price cannot be paid with it) */
  supports_recurring: boolean;

  /** The gateway's current site mode (`POST /payment-gateway/set-mode`) */
  @ApiProperty({ enum: GATEWAY_MODES })
  mode: GatewayMode;

  @ApiProperty({ type: [GatewayCatalogMethodDto] })
  methods: GatewayCatalogMethodDto[];

  /** How it is connected and configured, in the order an admin UI offers them */
  @ApiProperty({ type: [GatewayConnectKindDto] })
  connect: GatewayConnectKindDto[];

  /** How a payer pays in test mode (the provider's test card or sandbox account: no money moves), for a merchant's first test payment; null when the gateway does not say */
  @ApiProperty({ type: String, nullable: true, example: 'the test card 4242 4242 4242 4242, any future expiry date, any CVC' })
  test_payment: string | null;
}

/** GET /payment-gateway/catalog */
export class GatewayCatalogDto {
  /** The site's plan (CHECKOUT_PLAN): `pro_only` methods need `pro` */
  @ApiProperty({ enum: ['free', 'pro'] })
  plan: 'free' | 'pro';

  @ApiProperty({ type: [GatewayCatalogEntryDto] })
  gateways: GatewayCatalogEntryDto[];
}
