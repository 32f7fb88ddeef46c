import { ApiProperty } from '@nestjs/swagger';
import { PAYER_LOCALES, type PayerLocale } from '../../common/i18n/index.js';
import { FIELD_TYPES, FREQUENCIES } from '../forms/index.js';
import { CHECKOUT_GATEWAYS, type CheckoutGateway, GATEWAY_MODES, type GatewayMode, PAYMENT_METHOD_IDS } from '../gateways/index.js';
import { INTERVAL_UNITS, type IntervalUnit } from './payer-form.js';

/** How often a recurring price is charged: every `count` `unit`s */
export class PublicIntervalDto {
  @ApiProperty({ enum: INTERVAL_UNITS, example: 'month' })
  unit: IntervalUnit;

  @ApiProperty({ example: 1 })
  count: number;
}

/** Bounds of an amount the payer enters (minor units of the price's currency) */
export class PublicCustomAmountDto {
  @ApiProperty({ example: 100 })
  min: number;

  @ApiProperty({ example: 1000000 })
  max: number;
}

export class PublicPriceDto {
  /** Send as `price_index` to `POST /payment/sync-details` */
  price_index: number;

  /** Minor units of `currency`; with `custom_amount` the suggested amount */
  @ApiProperty({ example: 1000 })
  amount: number;

  /** ISO 4217 code */
  @ApiProperty({ example: 'USD' })
  currency: string;

  /** Digits after the decimal point in `currency` (2 for USD, 0 for JPY, 3 for KWD): minor units ÷ 10^exponent = major units */
  @ApiProperty({ example: 2 })
  currency_exponent: number;

  @ApiProperty({ enum: FREQUENCIES, example: 'one-time' })
  frequency: string;

  /** Null for a one-time price */
  @ApiProperty({ type: PublicIntervalDto, nullable: true })
  interval: PublicIntervalDto | null;

  /** One-off fee charged with the first payment of a recurring price (minor units); null when none */
  @ApiProperty({ type: Number, nullable: true, example: null })
  setup_amount: number | null;

  /** Present when the payer enters the amount (send it as `amount`, within these bounds) */
  @ApiProperty({ type: PublicCustomAmountDto, nullable: true })
  custom_amount: PublicCustomAmountDto | null;

  /** The price as a payer reads it (`$10.00`, `€9.99 / month + €5.00 setup fee`) */
  @ApiProperty({ example: '$10.00' })
  label: string;
}

export class PublicPlanDto {
  /** Send as `plan_index` to `POST /payment/sync-details` */
  plan_index: number;

  title: string;

  @ApiProperty({ type: [PublicPriceDto] })
  prices: PublicPriceDto[];
}

/** A payer field (`email_address`, `first_name`, `last_name` are record fields; others go into `custom_fields`) */
export class PublicFieldDto {
  @ApiProperty({ example: 'email_address' })
  name: string;

  @ApiProperty({ example: 'Email' })
  label: string;

  @ApiProperty({ enum: FIELD_TYPES })
  type: string;

  required: boolean;

  /** The choices of a `select` field: the value to submit is one of these, as written */
  @ApiProperty({ type: [String], required: false })
  options?: string[];

  /** What to show for each of `options`, in the same order: in the form's `locale` where the form has a version of them, the choices as written otherwise */
  @ApiProperty({ type: [String], required: false })
  option_labels?: string[];
}

export class PublicMethodDto {
  /** Send as `payment_method` to `POST /payment/sync-details` */
  @ApiProperty({ enum: PAYMENT_METHOD_IDS, example: 'ccard', type: 'string' })
  id: string;

  @ApiProperty({ example: 'Card' })
  label: string;
}

/** The public values the gateway's browser library takes; never a secret */
export class PublicBrowserConfigDto {
  /** Gateway A: the publishable key of the gateway's current mode */
  @ApiProperty({ required: false, example: 'pk_test_51Example0123456789' })
  publishable_key?: string;

  /** Gateway B: the REST app's client id of the gateway's current mode */
  @ApiProperty({ required: false })
  client_id?: string;
}

/** A gateway that can take payments for this form now */
export class PublicGatewayDto {
  /** Send as `payment_gateway` to `POST /payment/sync-details` */
  @ApiProperty({ enum: CHECKOUT_GATEWAYS, example: 'gateway_a', type: 'string' })
  gateway: CheckoutGateway;

  @ApiProperty({ example: 'gateway A' })
  label: string;

  /** The gateway's current mode: `test` takes no real money */
  @ApiProperty({ enum: GATEWAY_MODES })
  mode: GatewayMode;

  /** False when it takes one-time prices only */
  supports_recurring: boolean;

  /** The form's methods of this gateway that the site has active */
  @ApiProperty({ type: [PublicMethodDto] })
  methods: PublicMethodDto[];

  @ApiProperty({ type: PublicBrowserConfigDto })
  browser: PublicBrowserConfigDto;
}

/** GET /payment/form/{form_id}: what a checkout needs to draw a published form and start paying it */
export class PublicFormDto {
  form_id: number;

  /**
   * The payer language the form's texts are in (the form's fixed language, else the best match of
   * `Accept-Language`, else the site's default): the form's own versions of that language where it
   * has them; send it as `locale` to `POST /payment/sync-details`
   */
  @ApiProperty({ enum: PAYER_LOCALES, type: 'string' })
  locale: PayerLocale;

  title: string;

  /** Whether the form shows its title */
  show_title: boolean;

  @ApiProperty({ type: String, nullable: true })
  description: string | null;

  @ApiProperty({ type: [PublicPlanDto] })
  plans: PublicPlanDto[];

  /** The payer fields; `email_address` is always among them and required */
  @ApiProperty({ type: [PublicFieldDto] })
  fields: PublicFieldDto[];

  /** What to tell the payer after a completed payment */
  success_message: string;

  /** Where to send the payer after a completed payment (the form's redirect action); null when none */
  @ApiProperty({ type: String, nullable: true })
  redirect_url: string | null;

  /** The label of the form's pay button */
  button_label: string;

  /** The gateways that can take payments for this form now (connected in their current mode, not paused, with an enabled method); empty when none can */
  @ApiProperty({ type: [PublicGatewayDto] })
  gateways: PublicGatewayDto[];
}
