import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ConflictError, NotFoundError } from '../../common/errors/index.js';
import { isDuplicateKeyError, selectRows } from '../../database/index.js';
import { TagEntity } from './tag.entity.js';
import type { TagDto } from './tags.dto.js';

export class DuplicateTagError extends ConflictError {
  constructor() {
    super('checkout_tag_exists', 'A tag with that name already exists.');
  }
}

/** The tag vocabulary (section B `/tags`). Names are unique regardless of case. */
@Injectable()
export class TagsService {
  /**
   * `GET /tags` in fixed SQL (database/hot-sql.ts): building the same SELECT with the query builder
   * was a fifth of the route's CPU in the bench's profile (docs/benchmarks.md). Names from the entity.
   */
  private readonly listSql: string;

  constructor(@InjectRepository(TagEntity) private readonly tags: Repository<TagEntity>) {
    const column = (property: keyof TagEntity) => `\`${tags.metadata.findColumnWithPropertyName(property)!.databaseName}\``;
    this.listSql = `SELECT ${column('id')} AS id, ${column('tag')} AS tag FROM \`${tags.metadata.tableName}\` ORDER BY ${column('id')}`;
  }

  async list(): Promise<TagDto[]> {
    const rows = await selectRows<{ id: number | bigint; tag: string }>(this.tags.manager, this.listSql, []);
    return rows.map((row) => ({ tag_id: Number(row.id), tag: row.tag }));
  }

  async create(name: string): Promise<number> {
    const clash = await this.tags.createQueryBuilder('t').where('LOWER(t.tag) = LOWER(:name)', { name }).getExists();
    if (clash) throw new DuplicateTagError();
    try {
      const result = await this.tags.insert({ tag: name, createdAt: new Date() });
      return Number(result.identifiers[0].id);
    } catch (error) {
      // A concurrent insert of the same name lost the race against the unique key.
      if (isDuplicateKeyError(error)) throw new DuplicateTagError();
      throw error;
    }
  }

  async remove(id: number): Promise<void> {
    const result = await this.tags.delete({ id });
    if (!result.affected) throw new NotFoundError('Tag');
  }
}
