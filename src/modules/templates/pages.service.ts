import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import type { LayoutBlock } from './layout-catalog.js';
import { PageEntity } from './page.entity.js';

/** A page block as stored: the layout's block, with the embedded form resolved to its id. */
export type PageBlock = Exclude<LayoutBlock, { type: 'payment_form' }> | { type: 'payment_form'; form_id: number };

export interface DraftPage {
  id: number;
  title: string;
  status: 'draft' | 'publish';
  author_id: number;
  layout_id: string;
  blocks: PageBlock[];
  created_at: string;
}

/** Owns the pages table (host slice). */
@Injectable()
export class PagesService {
  constructor(@InjectRepository(PageEntity) private readonly pages: Repository<PageEntity>) {}

  /** `manager`: run inside the caller's transaction. */
  async createDraft(input: { title: string; authorId: number; layoutId: string; blocks: PageBlock[] }, manager?: EntityManager): Promise<DraftPage> {
    const now = new Date();
    const repo = manager ? manager.getRepository(PageEntity) : this.pages;
    const row = await repo.save(
      repo.create({
        title: input.title,
        status: 'draft',
        authorId: input.authorId,
        layoutId: input.layoutId,
        content: JSON.stringify({ blocks: input.blocks }),
        createdAt: now,
        updatedAt: now,
      }),
    );
    return toDraftPage(row);
  }

  async findById(id: number): Promise<DraftPage | null> {
    const row = await this.pages.findOne({ where: { id } });
    return row ? toDraftPage(row) : null;
  }
}

function toDraftPage(row: PageEntity): DraftPage {
  return {
    id: row.id,
    title: row.title,
    status: row.status as DraftPage['status'],
    author_id: row.authorId,
    layout_id: row.layoutId,
    blocks: (JSON.parse(row.content) as { blocks: PageBlock[] }).blocks,
    created_at: row.createdAt.toISOString(),
  };
}
