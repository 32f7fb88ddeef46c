import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AdminRoute, Capability, type AuthenticatedUser, CurrentUser } from '../../common/auth/index.js';
import { ApiErrorResponses } from '../../common/openapi/index.js';
import { FEATURE_AREA_SLUGS } from './feature-areas.js';
import { ApplyTagsDto, ApplyTagsResultDto, TAGGING_AREA_EXAMPLE, TaggingAreaDto } from './tagging-areas.dto.js';
import { TaggingAreasService } from './tagging-areas.service.js';

@ApiTags('Tags')
@Controller('tagging')
export class TaggingAreasController {
  constructor(private readonly areas: TaggingAreasService) {}

  @Get('area/:slug')
  @AdminRoute(Capability.manageSettings)
  @ApiParam({ name: 'slug', enum: FEATURE_AREA_SLUGS })
  @ApiErrorResponses(404)
  @ApiOkResponse({ type: TaggingAreaDto, example: TAGGING_AREA_EXAMPLE })
  @ApiOperation({
    operationId: 'taggingGetArea',
    summary: "An admin area's feature catalog (name, description, features, submit_text), the caller's defaults and the tags the caller applied there",
    description: 'Areas: `payment-gateways`, `templates`, `form-builder`; any other slug is 404 `checkout_not_found`.',
  })
  area(@CurrentUser() user: AuthenticatedUser, @Param('slug') slug: string): Promise<TaggingAreaDto> {
    return this.areas.area(user, slug);
  }

  @Post('apply')
  @ApiBody({
    type: ApplyTagsDto,
    examples: {
      form_builder: {
        summary: 'Tag the owner with two form-builder interests',
        value: { area_slug: 'form-builder', tags: ['conditional-logic', 'coupon-codes'], email_address: 'owner@example.com', first_name: 'Ada', last_name: 'Lovelace' },
      },
    },
  })
  @HttpCode(200)
  @AdminRoute(Capability.manageSettings)
  @ApiErrorResponses(400)
  @ApiOkResponse({ type: ApplyTagsResultDto })
  @ApiOperation({
    operationId: 'taggingApply',
    summary: "Save the caller's answer in an area (replaces their previous one there)",
    description:
      'Each tag must be a feature of the area (400 naming `tags` otherwise). When FEATURES_API_URL is set, the stored answer is also ' +
      'POSTed there form-encoded (`area`, `tags[]`, `email_address`, `first_name`, `last_name`) after the commit; its failure never fails this request.',
  })
  apply(@CurrentUser() user: AuthenticatedUser, @Body() body: ApplyTagsDto): Promise<ApplyTagsResultDto> {
    return this.areas.apply(user, body);
  }
}
