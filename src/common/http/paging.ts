import type { Response } from 'express';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { ToInteger } from '../validation/index.js';

/**
 * A paged list's query (docs/decisions.md §10): `page` from 1, `per_page` at most 100 (each route has its
 * own default). The totals go into the host platform's `X-WP-Total` and `X-WP-TotalPages` headers.
 */
export class PageQueryDto {
  /** Page number, from 1 */
  // Not a .dto.ts file, so the swagger plugin does not read it: the query parameters are declared here.
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 1_000_000, default: 1, description: 'Page number, from 1' })
  @IsOptional()
  @ToInteger()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  page?: number;

  /** Entries per page (at most 100; the route's default otherwise) */
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, description: "Entries per page (at most 100; the route's default otherwise)" })
  @IsOptional()
  @ToInteger()
  @IsInt()
  @Min(1)
  @Max(100)
  per_page?: number;
}

/** The paging headers of a list answer, for `@ApiOkResponse({ headers })`. */
export const PAGING_HEADERS = {
  'X-WP-Total': { description: 'Entries in all pages', schema: { type: 'integer' } },
  'X-WP-TotalPages': { description: 'Pages at this per_page', schema: { type: 'integer' } },
};

export function setPagingHeaders(response: Response, total: number, perPage: number): void {
  response.setHeader('X-WP-Total', String(total));
  response.setHeader('X-WP-TotalPages', String(Math.ceil(total / perPage)));
}
