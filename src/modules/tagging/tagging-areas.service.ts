import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { AuthenticatedUser } from '../../common/auth/index.js';
import { InvalidParamsError, NotFoundError } from '../../common/errors/index.js';
import { IdentityService } from '../identity/index.js';
import { type FeatureArea, findFeatureArea } from './feature-areas.js';
import { FeaturesApiForwarder } from './features-api.forwarder.js';
import { TagAssignmentEntity } from './tag-assignment.entity.js';
import type { ApplyTagsDto, ApplyTagsResultDto, TaggingAreaDto } from './tagging-areas.dto.js';

/**
 * Tagging areas (docs/decisions.md §14): each admin area's bundled feature catalog, and the caller's answer
 * there (one per user and area, replaced on a new answer), kept locally and, when
 * FEATURES_API_URL is set, also sent there (through the outbox) after it is stored.
 */
@Injectable()
export class TaggingAreasService {
  constructor(
    @InjectRepository(TagAssignmentEntity) private readonly assignments: Repository<TagAssignmentEntity>,
    private readonly identity: IdentityService,
    private readonly forwarder: FeaturesApiForwarder,
  ) {}

  async area(user: AuthenticatedUser, slug: string): Promise<TaggingAreaDto> {
    const area = this.getArea(slug);
    const here = await this.assignments.findOne({ where: { userId: user.id, areaSlug: area.slug } });
    const defaults = await this.defaultsFor(user);
    return {
      slug: area.slug,
      name: area.name,
      description: area.description,
      features: area.features.map((feature) => ({ ...feature })),
      submit_text: area.submit_text,
      ...defaults,
      applied_tags: here ? (JSON.parse(here.tags) as string[]) : [],
      applied_at: here ? here.updatedAt.toISOString() : null,
    };
  }

  async apply(user: AuthenticatedUser, body: ApplyTagsDto): Promise<ApplyTagsResultDto> {
    const area = this.getArea(body.area_slug);
    const known = new Set(area.features.map((feature) => feature.tag));
    const unknown = body.tags.filter((tag) => !known.has(tag));
    if (unknown.length > 0) throw new InvalidParamsError({ tags: `not a feature of ${area.slug}: ${unknown.join(', ')}` });

    // Stored in the catalog's order, so an answer reads the same however the tags were sent.
    const tags = area.features.map((feature) => feature.tag).filter((tag) => body.tags.includes(tag));
    const interest = { area: area.slug, tags, emailAddress: body.email_address, firstName: body.first_name ?? '', lastName: body.last_name ?? '' };
    const now = new Date();
    // The answer and, with FEATURES_API_URL, its forward (an outbox item) commit together.
    await this.assignments.manager.transaction(async (manager) => {
      await manager
        .createQueryBuilder()
        .insert()
        .into(TagAssignmentEntity)
        .values({
          userId: user.id,
          areaSlug: area.slug,
          tags: JSON.stringify(tags),
          emailAddress: interest.emailAddress,
          firstName: interest.firstName,
          lastName: interest.lastName,
          createdAt: now,
          updatedAt: now,
        })
        .orUpdate(['tags', 'email_address', 'first_name', 'last_name', 'updated_at'], ['user_id', 'area_slug'])
        .execute();
      await this.forwarder.schedule(manager, interest);
    });
    return { success: true, message: `Thanks! Your choices for ${area.name} are saved.` };
  }

  private getArea(slug: string): FeatureArea {
    const area = findFeatureArea(slug);
    if (!area) throw new NotFoundError('Tagging area');
    return area;
  }

  /** The caller's last answer in any area; before the first one, the account's email and no names. */
  private async defaultsFor(user: AuthenticatedUser): Promise<Pick<TaggingAreaDto, 'first_name' | 'last_name' | 'email_address'>> {
    const [latest] = await this.assignments.find({ where: { userId: user.id }, order: { updatedAt: 'DESC', id: 'DESC' }, take: 1 });
    if (latest) return { first_name: latest.firstName, last_name: latest.lastName, email_address: latest.emailAddress };
    const account = await this.identity.findUserByLogin(user.login);
    return { first_name: '', last_name: '', email_address: account.email };
  }
}
