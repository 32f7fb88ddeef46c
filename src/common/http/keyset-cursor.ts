import { ApiPropertyOptional } from '@nestjs/swagger';
import type { Response } from 'express';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { InvalidParamsError } from '../errors/index.js';

/**
 * Keyset paging of a newest-first list (issue 36): `after` names the last row of the previous page
 * by its sort key and id, so the next page is an index range, not an OFFSET that reads and drops
 * every earlier row. The cursor is opaque to clients: base64url of `<creation time in ms>.<id>`.
 * A value that does not decode to that shape is refused (400 `rest_invalid_param` naming `after`);
 * one that decodes names only a position, which any caller may ask for.
 */
export interface KeysetPosition {
  createdAt: Date;
  id: number;
}

const CURSOR_MAX_LENGTH = 64;
const MAX_ID = 2_147_483_647;
/** The latest instant a Date holds (ECMA-262: 8.64e15 ms). */
const MAX_TIME = 8_640_000_000_000_000;

export function encodeKeysetCursor(position: KeysetPosition): string {
  return Buffer.from(`${position.createdAt.getTime()}.${position.id}`, 'utf8').toString('base64url');
}

/** The position `after` names; InvalidParamsError (naming `param`) when it names none. */
export function decodeKeysetCursor(text: string, param = 'after'): KeysetPosition {
  const refuse = () => new InvalidParamsError({ [param]: `${param} must be the ${NEXT_CURSOR_HEADER} value of a previous page` });
  if (text.length > CURSOR_MAX_LENGTH || !/^[A-Za-z0-9_-]+$/.test(text)) throw refuse();
  const decoded = Buffer.from(text, 'base64url').toString('utf8');
  const match = /^(0|[1-9]\d{0,15})\.([1-9]\d{0,9})$/.exec(decoded);
  // The encoding must be the canonical one too: one position, one cursor.
  if (!match || Buffer.from(decoded, 'utf8').toString('base64url') !== text) throw refuse();
  const time = Number(match[1]);
  const id = Number(match[2]);
  if (time > MAX_TIME || id > MAX_ID) throw refuse();
  return { createdAt: new Date(time), id };
}

/** The header naming the next page's cursor (absent on the last page). */
export const NEXT_CURSOR_HEADER = 'X-Checkout-Next-Cursor';
/** The header saying X-WP-Total is an estimate (`true`) or an exact count (`false`). */
export const TOTAL_ESTIMATED_HEADER = 'X-Checkout-Total-Estimated';

/** The keyset paging headers beside PAGING_HEADERS, for `@ApiOkResponse({ headers })`. */
export const KEYSET_PAGING_HEADERS = {
  [NEXT_CURSOR_HEADER]: { description: 'Pass it as `after` for the next page (absent on the last page)', schema: { type: 'string' } },
  [TOTAL_ESTIMATED_HEADER]: {
    description:
      '`true` when `X-WP-Total` (and `X-WP-TotalPages`) is an estimate: past 10,000 matching entries the list does not count them all (unfiltered, the table\'s size from the database statistics; filtered, at least 10,000)',
    schema: { type: 'string', enum: ['true', 'false'] },
  },
};

export function setKeysetHeaders(response: Response, next: KeysetPosition | null, estimated: boolean): void {
  if (next) response.setHeader(NEXT_CURSOR_HEADER, encodeKeysetCursor(next));
  response.setHeader(TOTAL_ESTIMATED_HEADER, String(estimated));
}

/** The `after` query parameter of a keyset-paged list. */
export class KeysetQueryDto {
  // Not a .dto.ts file, so the swagger plugin does not read it: the query parameter is declared here.
  @ApiPropertyOptional({
    type: String,
    maxLength: CURSOR_MAX_LENGTH,
    pattern: '^[A-Za-z0-9_-]+$',
    description: `The ${NEXT_CURSOR_HEADER} header of the previous page: the page after it (keyset paging; not combined with \`page\` past 1)`,
  })
  @IsOptional()
  @IsString()
  @MaxLength(CURSOR_MAX_LENGTH)
  @Matches(/^[A-Za-z0-9_-]+$/, { message: `after must be the ${NEXT_CURSOR_HEADER} value of a previous page` })
  after?: string;
}
