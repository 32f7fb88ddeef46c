import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { PublicRoute } from '../../common/auth/index.js';
import { ApiErrorResponses } from '../../common/openapi/index.js';
import { TemplatesService } from './templates.service.js';

@ApiTags('Templates')
@Controller('bundled-templates')
export class BundledTemplatesController {
  constructor(private readonly templates: TemplatesService) {}

  @Get(':slug/preview.svg')
  @PublicRoute()
  @ApiProduces('image/svg+xml')
  @ApiParam({ name: 'slug', description: 'Slug of a bundled payment-form template, e.g. `donation`' })
  @ApiResponse({
    status: 200,
    description: 'Deterministic SVG drawn from the template (byte-identical per slug and release). Carries a strong ETag.',
    content: { 'image/svg+xml': { schema: { type: 'string' } } },
  })
  @ApiResponse({ status: 304, description: 'Not modified (If-None-Match matched the ETag)' })
  @ApiErrorResponses(404)
  @ApiOperation({ operationId: 'bundledTemplatesPreview', description: 'A picture of a bundled payment-form template, for a template picker. The same slug and release always give the same bytes (strong ETag, cacheable); it holds no merchant data, so no login is needed.', summary: 'SVG preview of a bundled payment-form template (no merchant data)' })
  preview(@Param('slug') slug: string, @Res({ passthrough: true }) res: Response): string {
    const { svg, etag } = this.templates.previewSvg(slug);
    res.setHeader('Content-Type', 'image/svg+xml; charset=utf-8');
    res.setHeader('ETag', etag);
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // Opened on its own, the SVG must not be able to run or load anything.
    res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
    // Express answers 304 by itself when If-None-Match matches the ETag set above.
    return svg;
  }
}
