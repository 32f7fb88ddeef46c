import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsNotEmpty, IsObject, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { PageQueryDto } from '../../common/http/index.js';
import { IsOmittable, Trim } from '../../common/validation/index.js';
import type { FormStatus } from './form-settings.js';
import { PaymentFormSettingsDto } from './payment-form-settings.dto.js';

export const FORM_STATUSES: readonly FormStatus[] = ['draft', 'publish'];

/** A payment form (content type `checkout_form`) */
export class PaymentFormDto {
  id: number;
  title: string;
  @ApiProperty({ enum: FORM_STATUSES })
  status: FormStatus;
  /** User id of the author */
  author_id: number;
  @ApiProperty({ type: () => PaymentFormSettingsDto })
  settings: PaymentFormSettingsDto;
  /** ISO 8601 UTC */
  created_at: string;
  /** ISO 8601 UTC */
  updated_at: string;
}

export class CreatePaymentFormDto {
  @Trim()
  @Matches(/^[^\r\n]*$/, { message: 'title must be a single line' })
  @MaxLength(200)
  @IsNotEmpty()
  @IsString()
  title: string;

  /** Defaults to `draft` */
  @IsOmittable()
  @IsIn(FORM_STATUSES)
  status?: FormStatus;

  @ApiProperty({ type: () => PaymentFormSettingsDto })
  @Type(() => PaymentFormSettingsDto)
  @ValidateNested()
  @IsObject()
  settings: PaymentFormSettingsDto;
}

/** Fields to change; `settings`, when given, replaces the stored settings as a whole. */
// skipNullProperties: false: a field may be left out, but `null` is validated (and refused).
export class UpdatePaymentFormDto extends PartialType(CreatePaymentFormDto, { skipNullProperties: false }) {}

/** Paged (default 20 per page), optionally by status. */
export class ListPaymentFormsQueryDto extends PageQueryDto {
  /** Only forms with this status */
  @ApiPropertyOptional({ enum: FORM_STATUSES, description: 'Only forms with this status' })
  @IsOptional()
  @IsIn(FORM_STATUSES)
  status?: FormStatus;
}

export class PaymentFormDeletedDto {
  deleted: boolean;
  /** The form as it was before deletion */
  previous: PaymentFormDto;
}
