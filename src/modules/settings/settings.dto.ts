import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsString, MaxLength, MinLength } from 'class-validator';
import { SECTION_B_GATEWAY_IDS, type SectionBGatewayId } from '../../common/gateway-catalog/index.js';
import { PAYER_LOCALES, type PayerLocale } from '../../common/i18n/index.js';
import { CURRENCY_CODES } from '../../common/money/index.js';
import { IsOmittable, ToBoolean, Trim } from '../../common/validation/index.js';

/** Section B's gateway list: `payment_gateway` is one of its ids (the catalog's list, not a copy). */
export const GATEWAY_IDS = SECTION_B_GATEWAY_IDS;
export type GatewayId = SectionBGatewayId;

/** Section B settings as the admin UI reads them; `api_key` is only ever a mask. */
export class SettingsDto {
  /** ISO 4217 currency code */
  currency: string;

  /** Gateway identifier */
  @ApiProperty({ enum: GATEWAY_IDS, type: 'string' })
  payment_gateway: GatewayId;

  /** Mask of the stored API key (e.g. `sk_test_…4242`), or null when none is stored */
  api_key: string | null;

  debug_mode: boolean;

  /** The site's default payer language: the hosted page, embedded form, manage page and payer emails when a form's `auto` locale matches none of the browser's languages */
  @ApiProperty({ enum: PAYER_LOCALES, type: 'string' })
  language: PayerLocale;
}

/** Fields to change; omitted fields keep their value. `api_key` is write-only. */
export class UpdateSettingsDto {
  /** ISO 4217 currency code */
  @IsOmittable()
  @IsIn(CURRENCY_CODES, { message: 'currency must be an ISO 4217 currency code' })
  currency?: string;

  @IsOmittable()
  @IsIn(GATEWAY_IDS)
  payment_gateway?: GatewayId;

  /** Stored encrypted; never returned whole */
  @IsOmittable()
  @Trim()
  @IsString()
  @MinLength(8)
  @MaxLength(255)
  api_key?: string;

  @IsOmittable()
  @ToBoolean()
  @IsBoolean()
  debug_mode?: boolean;

  /** The site's default payer language */
  @IsOmittable()
  @ApiProperty({ enum: PAYER_LOCALES, type: 'string', required: false })
  @IsIn(PAYER_LOCALES)
  language?: PayerLocale;
}
