import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { Trim } from '../../common/validation/index.js';

export const IMPORT_TYPES = ['form_template', 'layout'] as const;
export type ImportType = (typeof IMPORT_TYPES)[number];

/** A catalog item to import: a bundled form template by `slug`, or a full-page layout by `id` */
export class ImportTemplateDto {
  @IsIn(IMPORT_TYPES)
  type: ImportType;

  /** Slug of a bundled payment-form template (with `type: form_template`), e.g. `donation` */
  @ValidateIf((body: ImportTemplateDto) => body.type === 'form_template' || body.slug !== undefined)
  @Trim()
  @Matches(/^[a-z0-9-]+$/, { message: 'slug must be lower-case letters, digits and dashes' })
  @MaxLength(100)
  @IsNotEmpty()
  @IsString()
  slug?: string;

  /** Id of a full-page layout of the catalog (with `type: layout`), e.g. `donation-landing` */
  @ValidateIf((body: ImportTemplateDto) => body.type === 'layout' || body.id !== undefined)
  @Trim()
  @Matches(/^[a-z0-9-]+$/, { message: 'id must be lower-case letters, digits and dashes' })
  @MaxLength(100)
  @IsNotEmpty()
  @IsString()
  id?: string;
}

export class ImportTemplateResultDto {
  /** The new draft payment form */
  form_id: number;
  /** The new draft page (layout imports only) */
  page_id?: number;
}

export class PluginDependencyDto {
  slug: string;
  name: string;
  installed: boolean;
  active: boolean;
}

export class LayoutItemDto {
  id: string;
  name: string;
  description: string;
  category: string;
  @ApiProperty({ enum: ['free', 'pro'] })
  required_plan: 'free' | 'pro';
  /** Plugins the layout needs; always `page_builder` */
  dependencies: string[];
  /** Cover image: a data URI of an SVG wireframe */
  cover: string;
  /** Slug of the bundled form template the page embeds */
  form_template: string;
  /** Absolute URL of that template's SVG preview */
  preview_url: string;
}

export class FormTemplateItemDto {
  slug: string;
  name: string;
  description: string;
  category: string;
  /** Absolute URL of the SVG preview */
  preview_url: string;
}

export class TemplateDependenciesDto {
  page_builder: PluginDependencyDto;
}

export class TemplateListDto {
  /** The site's plan (CHECKOUT_PLAN) the layouts were filtered for */
  @ApiProperty({ enum: ['free', 'pro'] })
  plan: 'free' | 'pro';
  /** Full-page layouts the plan may import */
  layouts: LayoutItemDto[];
  dependencies: TemplateDependenciesDto;
  /** Whether the caller may install the page-builder plugin (host capability install_plugins) */
  user_can_install: boolean;
  /** Whether the caller may activate it (host capability activate_plugins) */
  user_can_activate: boolean;
  /** The 10 bundled payment-form setting templates */
  form_templates: FormTemplateItemDto[];
}
