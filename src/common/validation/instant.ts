import { applyDecorators } from '@nestjs/common';
import { IsISO8601, IsString, Matches } from 'class-validator';

/**
 * A date (`2026-01-31`, midnight UTC) or a date and time with its offset (`2026-01-31T12:00:00Z`,
 * `…+02:00`). A time without an offset is refused: it would be read in the server's time zone.
 */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/**
 * An instant filter's OpenAPI schema, for `@ApiPropertyOptional({ ...ISO_INSTANT_SCHEMA, description, example })`:
 * what IsIsoInstant accepts, a date or a date-time (with its offset; seconds may be left out, as
 * the pattern says), so a date-only example is valid and a client can send a plain date.
 */
export const ISO_INSTANT_SCHEMA = {
  type: String,
  anyOf: [
    { type: 'string', format: 'date' },
    { type: 'string', format: 'date-time' },
  ],
  pattern: ISO_INSTANT.source,
};

/** The message every instant filter refuses with, naming its field. */
export function instantMessage(field: string): string {
  return `${field} must be an ISO 8601 date (2026-01-31) or date-time with an offset (2026-01-31T12:00:00Z)`;
}

/** An instant in a query filter (see ISO_INSTANT); pair with `@IsOptional()`. */
export function IsIsoInstant(field: string): PropertyDecorator {
  // Applied in this order, as `@IsString() @Matches() @IsISO8601()` stacked would be (bottom first):
  // class-validator reports the first registered failing check, so a bad value reads as this message.
  return applyDecorators(IsISO8601({ strict: true }, { message: instantMessage(field) }), Matches(ISO_INSTANT, { message: instantMessage(field) }), IsString());
}
