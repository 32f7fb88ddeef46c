import { All, Body, Controller, Get, HttpCode, Post, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { AdminRoute, Capability, type AuthenticatedUser, CurrentUser } from '../../common/auth/index.js';
import { ApiErrorResponses } from '../../common/openapi/index.js';
import { IdParam } from '../../common/validation/index.js';
import { BuilderDataDto, LivePreviewDto, TestEmailDto, TestEmailResultDto } from './form-builder.dto.js';
import { FormBuilderService } from './form-builder.service.js';

/** The live preview's CSP: the form stylesheets of the service, the favicon stand-in, nothing else; framed by the same origin only. */
const LIVE_PREVIEW_CSP = "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'";

@ApiTags('Forms')
@Controller('administration/payment-forms')
export class FormBuilderController {
  constructor(private readonly builder: FormBuilderService) {}

  @Get(':id/builder-data')
  @AdminRoute(Capability.editForms)
  @ApiErrorResponses(400, 404)
  @ApiOkResponse({ type: BuilderDataDto })
  @ApiOperation({ operationId: 'administrationBuilderData', description: 'What the form builder needs to draw the editor of one form: its sections, groups and fields, each with the value a new form starts with and the value saved on this form. Needs edit access to the form.', summary: 'Form-builder field map of a form: sections, groups, fields with defaults and values' })
  builderData(@IdParam('id') id: number): Promise<BuilderDataDto> {
    return this.builder.builderData(id);
  }

  /**
   * Any HTTP method (the spec's ALL). @nestjs/swagger lists an ALL route once per method and gives
   * each the one operation id below (the route inventory test accepts that for ALL routes only).
   */
  @All(':id/live-preview')
  @HttpCode(200)
  // Shown in a frame of the admin console, which cannot send X-WP-Nonce: `?_wpnonce=` on GET/HEAD.
  @AdminRoute(Capability.editForms, { nonceInQuery: true })
  @ApiBody({
    type: LivePreviewDto,
    required: false,
    examples: {
      display: {
        summary: 'Preview a new title and button (settings not sent keep their saved value)',
        value: { title: 'Spring donation', settings: { display: { button_label: 'Donate now', primary_color: '#1e73be', layout: 'stacked', show_title: true } } },
      },
    },
  })
  @ApiProduces('text/html')
  @ApiResponse({ status: 200, description: 'The rendered form (every merchant string escaped)', content: { 'text/html': { schema: { type: 'string' } } } })
  @ApiErrorResponses(400, 404)
  @ApiOperation({
    operationId: 'administrationLivePreview', description: 'Renders the form as the payer would see it, as HTML with every merchant string escaped. Send unsaved settings in the body (POST, PUT, PATCH) to preview changes before saving; they are validated and never stored. GET, HEAD, OPTIONS and DELETE preview the saved form and take no body.',
    summary: 'Live preview of a form as HTML, optionally with unsaved settings (validated, never stored); any HTTP method',
  })
  async livePreview(
    @IdParam('id') id: number,
    @Body() body: LivePreviewDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string> {
    const html = await this.builder.livePreview(id, body);
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // Styles only from the service's stylesheets (no inline style); no script at all; framed by the
    // admin console on the same origin only.
    res.setHeader('Content-Security-Policy', LIVE_PREVIEW_CSP);
    res.setHeader('X-Frame-Options', 'SAMEORIGIN');
    res.setHeader('Referrer-Policy', 'no-referrer');
    return html;
  }

  @Post(':id/test-email')
  @ApiBody({ type: TestEmailDto, examples: { payer: { summary: 'Send the payer email to this address', value: { payer_email: 'payer@example.com' } } } })
  @HttpCode(200)
  @AdminRoute(Capability.editForms)
  @ApiErrorResponses(400, 404, 502)
  @ApiOkResponse({ type: TestEmailResultDto })
  @ApiOperation({
    operationId: 'administrationTestEmail',
    summary: 'Send the sample admin and payer emails of a completed payment (needs edit access to the form)',
    description: 'SMTP when SMTP_URL is set, otherwise `.eml` files in `<DATA_DIR>/outbox/`. 502 `checkout_mail_failed` when the SMTP server fails.',
  })
  sendTestEmail(
    @CurrentUser() user: AuthenticatedUser,
    @IdParam('id') id: number,
    @Body() body: TestEmailDto,
  ): Promise<TestEmailResultDto> {
    return this.builder.sendTestEmail(user, id, body);
  }
}
