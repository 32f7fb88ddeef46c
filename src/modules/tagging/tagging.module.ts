import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdentityModule } from '../identity/index.js';
import { OutboxModule } from '../outbox/index.js';
import { FeaturesApiForwarder } from './features-api.forwarder.js';
import { TagAssignmentEntity } from './tag-assignment.entity.js';
import { TagEntity } from './tag.entity.js';
import { TaggingAreasController } from './tagging-areas.controller.js';
import { TaggingAreasService } from './tagging-areas.service.js';
import { TagsController } from './tags.controller.js';
import { TagsService } from './tags.service.js';

/**
 * Section B's tag vocabulary (`/tags`, the site's own) and the admin areas' feature-interest
 * questions (`/tagging/*`: bundled catalogs, one answer per user and area, optional forwarding).
 */
@Module({
  imports: [TypeOrmModule.forFeature([TagEntity, TagAssignmentEntity]), IdentityModule, OutboxModule],
  controllers: [TagsController, TaggingAreasController],
  providers: [TagsService, TaggingAreasService, FeaturesApiForwarder],
})
export class TaggingModule {}
