import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PAYER_LOCALES } from '../../common/i18n/index.js';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsString,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { CURRENCY_CODES } from '../../common/money/index.js';
import { IsOmittable, Trim } from '../../common/validation/index.js';
import { type GatewayCatalogEntry, gatewayCatalog } from '../gateways/index.js';
import {
  CORE_FIELDS,
  DISPLAY_LAYOUTS,
  FIELD_TYPES,
  type FormField,
  FREQUENCIES,
  type Frequency,
  SUBMIT_ACTIONS,
  type SubmitAction,
} from './form-settings.js';
import {
  ContainsItemWith,
  HasSomePaymentMethod,
  IsNotBelowSibling,
  IsOnlyForRecurring,
  IsUniqueBy,
  IsChargeableIn,
  IsWithinCustomAmount,
  MatchesCoreFieldType,
  NamesFieldsAndPlansOfForm,
} from './settings-validators.js';

// class-validator runs a property's decorators bottom-up and the pipe reports the first failure,
// so each property lists its basic type check last and the cross-field rules first.

/** Largest amount a form may ask for, in minor units (the card gateway's eight-digit limit). */
export const MAX_FORM_AMOUNT = 99_999_999;
const SINGLE_LINE = /^[^\r\n]*$/;
// A plan's title and a field's label: their rules once, for the text and for its versions in other
// payer languages (translations). Applied in this order, as stacked decorators are bottom-up (the
// type check first). `ApiProperty` repeats the length for OpenAPI: the swagger plugin reads only
// decorators written on the property itself.
const planTitleRules = () => applyDecorators(IsString(), IsNotEmpty(), MaxLength(100), Trim(), ApiProperty({ type: String, maxLength: 100 }));
const fieldLabelRules = () => applyDecorators(IsString(), IsNotEmpty(), MaxLength(100), Trim(), ApiProperty({ type: String, maxLength: 100 }));
// A select field's choices, and their versions in other payer languages (one per choice, in order).
const selectOptionsRules = () => applyDecorators(IsArray(), ArrayMinSize(1), ArrayMaxSize(50), IsString({ each: true }), MaxLength(100, { each: true }));
// The payer confirmation's subject, and its versions (same placeholders, filled the same way).
const payerSubjectRules = () =>
  applyDecorators(IsString(), IsNotEmpty(), MaxLength(200), Matches(SINGLE_LINE, { message: 'payer_subject must be a single line' }), Trim(), ApiProperty({ type: String, maxLength: 200 }));
const CORE_FIELD_TYPES: Record<(typeof CORE_FIELDS)[number], FormField['type']> = { email_address: 'email', first_name: 'text', last_name: 'text' };

/** Bounds of a customer-entered amount, in minor units */
export class CustomAmountDto {
  @Max(MAX_FORM_AMOUNT)
  @Min(1)
  @IsInt()
  min: number;

  @IsNotBelowSibling('min')
  @Max(MAX_FORM_AMOUNT)
  @Min(1)
  @IsInt()
  max: number;
}

export class FormPriceDto {
  /** Amount in minor units of `currency` (1000 USD = $10.00); with `custom_amount`, the suggested amount */
  @IsWithinCustomAmount()
  @IsChargeableIn('currency')
  @Max(MAX_FORM_AMOUNT)
  @Min(1)
  @IsInt()
  amount: number;

  /** ISO 4217 currency code */
  @IsIn(CURRENCY_CODES, { message: 'currency must be an ISO 4217 currency code' })
  currency: string;

  @IsIn(FREQUENCIES)
  frequency: Frequency;

  /** One-off fee charged with the first payment of a recurring price, in minor units */
  @IsOmittable()
  @IsOnlyForRecurring()
  @IsChargeableIn('currency')
  @Max(MAX_FORM_AMOUNT)
  @Min(0)
  @IsInt()
  setup_amount?: number;

  /** Present when the payer enters the amount */
  @IsOmittable()
  @Type(() => CustomAmountDto)
  @ValidateNested()
  @IsObject()
  custom_amount?: CustomAmountDto;
}

export class FormPlanDto {
  @planTitleRules()
  title: string;

  @Type(() => FormPriceDto)
  @ValidateNested({ each: true })
  @ArrayMaxSize(10)
  @ArrayMinSize(1)
  @IsArray()
  prices: FormPriceDto[];
}

/**
 * Methods offered per gateway; each a subset of the gateway's method identifiers. One optional
 * property per catalog gateway, declared by `declareMethodList` as the gateway registers: every
 * gateway gets the same rules, and the OpenAPI document one named property per gateway.
 */
// No index signature: the swagger plugin would describe the class as a free-form object.
export class FormPaymentMethodsDto {}

/** The rules of one gateway's method list, as the decorators of a property `<gateway id>?: string[]` would declare them. */
function declareMethodList(entry: GatewayCatalogEntry): void {
  const methods = entry.methods.map((method) => method.id);
  // In the order TypeScript applies decorators written top to bottom (the last one first).
  const decorators = [
    IsArray(),
    ArrayMaxSize(methods.length),
    ArrayUnique(),
    IsIn(methods, { each: true }),
    IsOmittable(),
    ApiPropertyOptional({ type: 'array', uniqueItems: true, items: { type: 'string', enum: methods } }),
  ];
  for (const decorate of decorators) decorate(FormPaymentMethodsDto.prototype, entry.id);
}
gatewayCatalog.onEntry(declareMethodList);

/** One input of the form. The core fields `email_address`, `first_name`, `last_name` keep their types. */
export class FormFieldDto {
  /** Field key, lower snake_case */
  @Matches(/^[a-z][a-z0-9_]*$/, { message: 'name must be lower snake_case starting with a letter' })
  @MaxLength(40)
  @IsString()
  name: string;

  @MatchesCoreFieldType(CORE_FIELD_TYPES)
  @IsIn(FIELD_TYPES)
  type: FormField['type'];

  @fieldLabelRules()
  label: string;

  @IsBoolean()
  required: boolean;

  /** Choices of a `select` field */
  @ValidateIf((field: FormFieldDto) => field.type === 'select' || field.options !== undefined)
  @selectOptionsRules()
  options?: string[];
}

/** Who is told about a completed payment, and how the emails are titled. Subjects may use {form_title}, {amount}, {payer_name}, {payer_email}, {payment_id}. */
export class FormEmailSettingsDto {
  /** Address of the site owner's notification */
  @IsEmail({ require_tld: false }, { message: 'email_to must be an email address' })
  @MaxLength(254)
  @IsString()
  email_to: string;

  @Trim()
  @Matches(SINGLE_LINE, { message: 'admin_subject must be a single line' })
  @MaxLength(200)
  @IsNotEmpty()
  @IsString()
  admin_subject: string;

  @payerSubjectRules()
  payer_subject: string;

  @Trim()
  @Matches(/^[^\r\n<>"]*$/, { message: 'from_name must be a single line without < > "' })
  @MaxLength(100)
  @IsNotEmpty()
  @IsString()
  from_name: string;

  /**
   * Whether the payer of a subscription is emailed when a renewal payment fails (each attempt, with
   * the provider's next attempt and a link to update the card) and when the provider gives up.
   * Default true; the payment log and the dashboard say it either way.
   */
  @IsOmittable()
  @IsBoolean({ message: 'renewal_failure_emails must be a boolean' })
  renewal_failure_emails?: boolean;
}

/** A form's `display.locale`: `auto` or a payer language. */
export const FORM_LOCALES = ['auto', ...PAYER_LOCALES] as const;

export class FormDisplaySettingsDto {
  /** Label of the pay button */
  @IsOmittable()
  @Trim()
  @MaxLength(40)
  @IsNotEmpty()
  @IsString()
  button_label?: string;

  /** Accent colour `#rrggbb` */
  @IsOmittable()
  @Matches(/^#[0-9a-fA-F]{6}$/, { message: 'primary_color must be a #rrggbb colour' })
  @MaxLength(7)
  @IsString()
  primary_color?: string;

  @IsOmittable()
  @IsIn(DISPLAY_LAYOUTS)
  layout?: (typeof DISPLAY_LAYOUTS)[number];

  @IsOmittable()
  @IsBoolean()
  show_title?: boolean;

  /** Short text under the title */
  @IsOmittable()
  @MaxLength(500)
  @IsString()
  description?: string;
  /**
   * The payer's language of the hosted page, the embedded form and the payer's emails: `auto` (the
   * browser's Accept-Language, then the site's default language; the default) or one payer language
   */
  @IsOmittable()
  @ApiPropertyOptional({ enum: FORM_LOCALES, type: 'string' })
  @IsIn(FORM_LOCALES)
  locale?: (typeof FORM_LOCALES)[number];
}

/** A payer field's label, and a select field's choices, in one payer language (at least one of the two) */
export class FormFieldTranslationDto {
  /** The field's `name` (one of the form's `fields`) */
  @MaxLength(40)
  @IsString()
  name: string;

  // Required when the version has no choices: a version of nothing is refused like an emptied label.
  @ValidateIf((version: FormFieldTranslationDto) => version.label !== undefined || version.options === undefined)
  @fieldLabelRules()
  @ApiPropertyOptional()
  label?: string;

  /**
   * A select field's choices as payers of this language read them: one per choice of its `options`,
   * in the same order. Only the label shown changes: the value submitted and stored stays the choice as written
   */
  @IsOmittable()
  @selectOptionsRules()
  @ApiPropertyOptional({ type: [String], maxItems: 50, items: { type: 'string', maxLength: 100 } })
  options?: string[];
}

/** A plan's title in one payer language */
export class FormPlanTranslationDto {
  /** The plan's position in `plans`, from 0: the `plan_index` of the public form and of `POST /payment/sync-details` */
  @Max(19)
  @Min(0)
  @IsInt()
  plan_index: number;

  @planTitleRules()
  title: string;
}

/** The form's own texts in one payer language (issue 32); a text left out is shown as written in the settings. */
export class FormTranslationDto {
  /** The payer language these texts are for (required: the entry is chosen by it) */
  @ApiProperty({ enum: PAYER_LOCALES, type: 'string' })
  @IsIn(PAYER_LOCALES)
  locale: (typeof PAYER_LOCALES)[number];

  @IsOmittable()
  @Trim()
  @Matches(/^[^\r\n]*$/, { message: 'title must be a single line' })
  @MaxLength(200)
  @IsNotEmpty()
  @IsString()
  title?: string;

  @IsOmittable()
  @MaxLength(500)
  @IsString()
  description?: string;

  @IsOmittable()
  @Trim()
  @MaxLength(40)
  @IsNotEmpty()
  @IsString()
  button_label?: string;

  @IsOmittable()
  @Trim()
  @MaxLength(1000)
  @IsNotEmpty()
  @IsString()
  success_message?: string;

  /** The subject of the payer's confirmation email in this language (the placeholders of `email.payer_subject`) */
  @IsOmittable()
  @payerSubjectRules()
  @ApiPropertyOptional()
  payer_subject?: string;

  /** Labels and select choices of the form's fields in this language, by field `name` (each field at most once) */
  @IsOmittable()
  @Type(() => FormFieldTranslationDto)
  @ValidateNested({ each: true })
  @IsUniqueBy('name')
  @ArrayMaxSize(30)
  @IsArray()
  fields?: FormFieldTranslationDto[];

  /** Titles of the form's plans in this language, by `plan_index` (each plan at most once) */
  @IsOmittable()
  @Type(() => FormPlanTranslationDto)
  @ValidateNested({ each: true })
  @IsUniqueBy('plan_index')
  @ArrayMaxSize(20)
  @IsArray()
  plans?: FormPlanTranslationDto[];
}

/** The settings of a payment form (docs/decisions.md §11). Amounts are integer minor units. */
export class PaymentFormSettingsDto {
  @Type(() => FormPlanDto)
  @ValidateNested({ each: true })
  @ArrayMaxSize(20)
  @ArrayMinSize(1)
  @IsArray()
  plans: FormPlanDto[];

  @Type(() => FormPaymentMethodsDto)
  @ValidateNested()
  @HasSomePaymentMethod()
  @IsObject()
  payment_methods: FormPaymentMethodsDto;

  /** The field map: the core fields plus custom fields; `email_address` is required */
  @Type(() => FormFieldDto)
  @ValidateNested({ each: true })
  @ContainsItemWith('name', 'email_address')
  @IsUniqueBy('name')
  @ArrayMaxSize(30)
  @ArrayMinSize(1)
  @IsArray()
  fields: FormFieldDto[];

  /** What happens after a completed payment */
  @IsIn(SUBMIT_ACTIONS, { each: true })
  @ArrayUnique()
  @ArrayMaxSize(SUBMIT_ACTIONS.length)
  @IsArray()
  submit_actions: SubmitAction[];

  @Type(() => FormEmailSettingsDto)
  @ValidateNested()
  @IsObject()
  email: FormEmailSettingsDto;

  @IsOmittable()
  @Type(() => FormDisplaySettingsDto)
  @ValidateNested()
  @IsObject()
  display?: FormDisplaySettingsDto;

  /** Where the payer goes after paying; required with the `redirect` action */
  @ValidateIf((settings: PaymentFormSettingsDto) => settings.submit_actions?.includes?.('redirect') || settings.redirect_url !== undefined)
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false }, { message: 'redirect_url must be an http(s) URL' })
  @MaxLength(2000)
  @IsString()
  redirect_url?: string;

  /** Shown after paying; required with the `message` action */
  @ValidateIf((settings: PaymentFormSettingsDto) => settings.submit_actions?.includes?.('message') || settings.success_message !== undefined)
  @Trim()
  @MaxLength(1000)
  @IsNotEmpty()
  @IsString()
  success_message?: string;

  /** The form's own texts in other payer languages: at most one entry per language; field versions name fields of this form (choices: one per choice of a select field) and plan titles its plans */
  @IsOmittable()
  @Type(() => FormTranslationDto)
  @ValidateNested({ each: true })
  @NamesFieldsAndPlansOfForm()
  @ArrayUnique((translation: FormTranslationDto) => translation.locale, { message: 'translations must name each language once' })
  @ArrayMaxSize(PAYER_LOCALES.length)
  @IsArray()
  translations?: FormTranslationDto[];
}
