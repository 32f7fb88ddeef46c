import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminRoute, Capability, type AuthenticatedUser, CurrentUser } from '../../common/auth/index.js';
import { ApiErrorResponses } from '../../common/openapi/index.js';
import { ImportTemplateDto, ImportTemplateResultDto, TemplateListDto } from './template-catalog.dto.js';
import { TemplateCatalogService } from './template-catalog.service.js';

@ApiTags('Templates')
@Controller('administration')
export class AdministrationTemplatesController {
  constructor(private readonly catalog: TemplateCatalogService) {}

  @Get('template-list')
  @AdminRoute(Capability.editForms)
  @ApiOkResponse({ type: TemplateListDto })
  @ApiOperation({
    operationId: 'administrationTemplateList', description: 'The full-page layouts you can import, limited to what the current plan allows, and whether the page-builder plugin they need is installed and active. Import one with `POST /administration/import-template`.',
    summary: 'Full-page layout catalog filtered for the current plan, with the page-builder dependency state',
  })
  templateList(@CurrentUser() user: AuthenticatedUser): Promise<TemplateListDto> {
    return this.catalog.list(user);
  }

  @Post('import-template')
  @AdminRoute(Capability.editForms)
  // Swagger UI pre-fills the first example; a sample built from the schema would send both `slug` and `id`.
  @ApiBody({
    type: ImportTemplateDto,
    examples: {
      form_template: { summary: 'A bundled form template', value: { type: 'form_template', slug: 'donation' } },
      layout: { summary: 'A full-page layout (needs the page-builder plugin and a plan that includes it)', value: { type: 'layout', id: 'donation-landing' } },
    },
  })
  @ApiErrorResponses(400, 404, 409)
  @ApiCreatedResponse({ type: ImportTemplateResultDto })
  @ApiOperation({
    operationId: 'administrationImportTemplate',
    summary: 'Import a bundled form template (draft form) or a full-page layout (draft page + form)',
    description:
      '`{type: "form_template", slug}` answers `{form_id}`. `{type: "layout", id}` answers `{form_id, page_id}`, or 409 ' +
      '`checkout_plan_required` (layout not in the plan), `checkout_plugin_not_installed` or `checkout_plugin_inactive` ' +
      '(page-builder plugin missing). Unknown slug or id: 404. Creating forms needs edit_checkout_forms.',
  })
  importTemplate(@CurrentUser() user: AuthenticatedUser, @Body() body: ImportTemplateDto): Promise<ImportTemplateResultDto> {
    return this.catalog.import(user, body);
  }
}
