import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayUnique, IsArray, IsEmail, IsIn, IsString, Matches, MaxLength } from 'class-validator';
import { IsOmittable, Trim } from '../../common/validation/index.js';
import { FEATURE_AREA_SLUGS } from './feature-areas.js';

export class FeatureItemDto {
  @ApiProperty({ example: 'conditional-logic' })
  tag: string;
  @ApiProperty({ example: 'Conditional fields' })
  name: string;
  /** Path of an illustration; null: the bundled catalog ships none */
  @ApiProperty({ type: String, nullable: true, example: null })
  image: string | null;
}

/** A tagging area: its bundled feature catalog, the caller's defaults and what the caller applied */
export class TaggingAreaDto {
  @ApiProperty({ enum: FEATURE_AREA_SLUGS })
  slug: string;
  @ApiProperty({ example: 'Form builder' })
  name: string;
  description: string;
  features: FeatureItemDto[];
  @ApiProperty({ example: 'Vote for these' })
  submit_text: string;
  /** Default for the form: the caller's last answer in any area, else an empty string (the host slice keeps no names) */
  first_name: string;
  /** Default for the form: the caller's last answer in any area, else an empty string */
  last_name: string;
  /** Default for the form: the caller's last answer in any area, else the account's email */
  @ApiProperty({ example: 'owner@example.com' })
  email_address: string;
  /** Tags the caller applied in this area (empty before the first answer) */
  @ApiProperty({ example: ['conditional-logic'] })
  applied_tags: string[];
  /** When the caller last answered in this area */
  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  applied_at: string | null;
}

export const TAGGING_AREA_EXAMPLE: TaggingAreaDto = {
  slug: 'form-builder',
  name: 'Form builder',
  description: 'Which form-builder features would help you most? We build the most requested first.',
  features: [
    { tag: 'conditional-logic', name: 'Conditional fields', image: null },
    { tag: 'multi-step-forms', name: 'Multi-step forms', image: null },
  ],
  submit_text: 'Vote for these',
  first_name: 'Ada',
  last_name: 'Lovelace',
  email_address: 'owner@example.com',
  applied_tags: ['conditional-logic'],
  applied_at: '2026-11-25T10:00:00.000Z',
};

/** The caller's answer in one area; it replaces their previous answer there */
export class ApplyTagsDto {
  @IsIn(FEATURE_AREA_SLUGS)
  @ApiProperty({ enum: FEATURE_AREA_SLUGS, example: 'form-builder' })
  area_slug: string;

  /** Feature tags of that area (each must be one of its `features[].tag`); an empty list withdraws the answer's tags */
  // class-validator reports the bottom-most failing check first: the array check goes last.
  @ArrayMaxSize(50)
  @ArrayUnique()
  @Matches(/^[a-z0-9-]+$/, { each: true, message: 'each tag must be lower-case letters, digits and dashes' })
  @MaxLength(60, { each: true })
  @IsString({ each: true })
  @IsArray()
  @ApiProperty({ example: ['conditional-logic', 'coupon-codes'] })
  tags: string[];

  @Trim()
  @IsEmail({ require_tld: false }, { message: 'email_address must be an email address' })
  @MaxLength(254)
  @IsString()
  @ApiProperty({ example: 'owner@example.com' })
  email_address: string;

  /** Optional; stored as an empty string when left out */
  @IsOmittable()
  @Trim()
  @MaxLength(100)
  @IsString()
  @ApiProperty({ required: false, example: 'Ada' })
  first_name?: string;

  /** Optional; stored as an empty string when left out */
  @IsOmittable()
  @Trim()
  @MaxLength(100)
  @IsString()
  @ApiProperty({ required: false, example: 'Lovelace' })
  last_name?: string;
}

export class ApplyTagsResultDto {
  @ApiProperty({ example: true })
  success: boolean;
  @ApiProperty({ example: 'Thanks! Your choices for Form builder are saved.' })
  message: string;
}
