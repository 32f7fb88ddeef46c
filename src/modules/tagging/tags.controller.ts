import { Body, Controller, Delete, Get, Post } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminRoute, Capability } from '../../common/auth/index.js';
import { AcknowledgementDto, ApiErrorResponses } from '../../common/openapi/index.js';
import { IdParam } from '../../common/validation/index.js';
import { CreateTagDto, TagCreatedDto, TagDto } from './tags.dto.js';
import { TagsService } from './tags.service.js';

@ApiTags('Tags')
@Controller('tags')
export class TagsController {
  constructor(private readonly tags: TagsService) {}

  @Get()
  @AdminRoute(Capability.manageSettings)
  @ApiOperation({ operationId: 'tagsList', description: 'Every tag of the site, for pickers and filters.', summary: 'List the tag vocabulary' })
  @ApiOkResponse({ type: [TagDto] })
  list(): Promise<TagDto[]> {
    return this.tags.list();
  }

  @Post()
  @ApiBody({ type: CreateTagDto, examples: { tag: { summary: 'A new tag', value: { tag: 'Donations' } } } })
  @AdminRoute(Capability.manageSettings)
  @ApiErrorResponses(400, 409)
  @ApiOperation({ operationId: 'tagsCreate', description: 'Adds a tag to the vocabulary. Tag names are unique: a second tag with the same name answers 409 `checkout_tag_exists`.', summary: 'Create a tag (names are unique)' })
  @ApiCreatedResponse({ type: TagCreatedDto })
  async create(@Body() body: CreateTagDto): Promise<TagCreatedDto> {
    const tagId = await this.tags.create(body.tag);
    return { success: true, message: 'Tag created.', tag_id: tagId };
  }

  @Delete(':tag_id')
  @AdminRoute(Capability.manageSettings)
  @ApiErrorResponses(400, 404)
  @ApiOperation({ operationId: 'tagsDelete', description: 'Removes a tag from the vocabulary. An unknown tag id answers 404.', summary: 'Delete a tag' })
  @ApiOkResponse({ type: AcknowledgementDto })
  async remove(@IdParam('tag_id') tagId: number): Promise<AcknowledgementDto> {
    await this.tags.remove(tagId);
    return { success: true, message: 'Tag deleted.' };
  }
}
