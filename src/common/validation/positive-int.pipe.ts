import { Injectable, Param, type PipeTransform } from '@nestjs/common';
import { InvalidParamsError } from '../errors/index.js';

/** The largest id a path takes: the ids are signed 32-bit integer columns. */
const MAX_ID = 2_147_483_647;

/**
 * A path id written as a canonical decimal integer, or null: digits only, no sign, no leading
 * zero, no space, no decimal point, exponent or hex (`0x1`, `1e0`, `1.0`, `+1`, ` 1`, `01` are
 * not 1), from 1 to 2^31-1. One reading for the API's ids and the hosted page's `/pay/{form_id}`.
 */
export function positiveIdOf(value: unknown): number | null {
  if (typeof value !== 'string' || !/^[1-9]\d{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= MAX_ID ? id : null;
}

/**
 * Path ids (`{id}`, `{form_id}`, `{tag_id}`) as `positiveIdOf` reads them; anything else is a 400
 * naming the param. It must see the string the client sent: the global validation pipe leaves
 * path params alone for it (Nest's own `+value` would have made `0x1` a 1 before this ran).
 */
@Injectable()
export class PositiveIntPipe implements PipeTransform<unknown, number> {
  constructor(private readonly name = 'id') {}

  transform(value: unknown): number {
    const id = positiveIdOf(value);
    if (id === null) throw new InvalidParamsError({ [this.name]: `${this.name} must be a positive integer` });
    return id;
  }
}

/** A numeric path id: `@IdParam('form_id') formId: number`. Every id of a route path goes through it. */
export function IdParam(name: string): ParameterDecorator {
  return Param(name, new PositiveIntPipe(name));
}
