import { ApiProperty, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsEmail, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { Trim } from '../../common/validation/index.js';
import { PaymentFormSettingsDto } from '../forms/index.js';

export const BUILDER_FIELD_TYPES = ['text', 'textarea', 'email', 'url', 'number', 'amount', 'select', 'multiselect', 'checkbox', 'color', 'list', 'repeater'] as const;

export class BuilderOptionDto {
  value: string;
  label: string;
}

/** A field's value: any JSON value. OpenAPI 3.0 has no `null` type, so the string branch is nullable. */
const ANY_JSON_VALUE = [
  { type: 'string', nullable: true },
  { type: 'number' },
  { type: 'boolean' },
  { type: 'array', items: {} },
  { type: 'object', additionalProperties: true },
];

/** One editable setting of the form */
export class BuilderFieldDto {
  /** Dotted path in the form resource (`settings.email.email_to`); relative to the item inside a repeater */
  key: string;
  /** Input name in the field namespace, e.g. `checkout_form[settings][email][email_to]` */
  input_name: string;
  @ApiProperty({ enum: BUILDER_FIELD_TYPES, description: '`amount` is an integer of minor units of the sibling currency' })
  type: (typeof BUILDER_FIELD_TYPES)[number];
  label: string;
  required: boolean;
  /** Choices of select and multiselect fields */
  options?: BuilderOptionDto[];
  @ApiProperty({ description: 'Value a new form starts with (any JSON value, null included)', anyOf: ANY_JSON_VALUE })
  default: unknown;
  @ApiProperty({ description: 'Saved value of this form (any JSON value, null included; absent on repeater sub-fields)', required: false, anyOf: ANY_JSON_VALUE })
  value?: unknown;
  min?: number;
  max?: number;
  max_length?: number;
  min_items?: number;
  max_items?: number;
  /** Fields of one item of a repeater */
  @ApiProperty({ type: () => [BuilderFieldDto], required: false })
  fields?: BuilderFieldDto[];
}

export class BuilderGroupDto {
  id: string;
  label: string;
  fields: BuilderFieldDto[];
}

export class BuilderSectionDto {
  id: string;
  label: string;
  groups: BuilderGroupDto[];
}

export class LivePreviewEndpointDto {
  /** Absolute URL of the live-preview route of this form */
  url: string;
  /** Any method works; POST carries unsaved settings */
  methods: string[];
}

/** The form-builder field map of one form */
export class BuilderDataDto {
  form_id: number;
  title: string;
  status: string;
  /** Namespace of every input name (the content type) */
  namespace: string;
  live_preview: LivePreviewEndpointDto;
  sections: BuilderSectionDto[];
}

/** Unsaved settings to preview: each top-level key given replaces the saved one. Nothing is stored. */
export class PreviewSettingsOverridesDto extends PartialType(PaymentFormSettingsDto) {}

export class LivePreviewDto {
  @IsOptional()
  @Trim()
  @MaxLength(200)
  @IsNotEmpty()
  @IsString()
  title?: string;

  @IsOptional()
  @Type(() => PreviewSettingsOverridesDto)
  @ValidateNested()
  @IsObject()
  settings?: PreviewSettingsOverridesDto;
}

export class TestEmailDto {
  /** Recipient of the sample payer confirmation; defaults to the caller's own address */
  @IsOptional()
  @Trim()
  @IsEmail({ require_tld: false }, { message: 'payer_email must be an email address' })
  @MaxLength(254)
  @IsString()
  payer_email?: string;
}

export class SentEmailDto {
  @ApiProperty({ enum: ['admin', 'payer'] })
  kind: 'admin' | 'payer';
  to: string;
  subject: string;
  message_id: string;
  /** File name under `<DATA_DIR>/outbox/` when no SMTP server is configured */
  outbox_file?: string;
}

export class TestEmailResultDto {
  success: boolean;
  message: string;
  @ApiProperty({ enum: ['smtp', 'outbox'] })
  transport: 'smtp' | 'outbox';
  emails: SentEmailDto[];
}
