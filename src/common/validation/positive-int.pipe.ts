import { Injectable, type PipeTransform } from '@nestjs/common';
import { InvalidParamsError } from '../errors/index.js';

/** Path ids (`{id}`, `:tag_id`) are positive integers; anything else is a 400 naming the param. */
@Injectable()
export class PositiveIntPipe implements PipeTransform<string, number> {
  constructor(private readonly name = 'id') {}

  transform(value: string): number {
    if (!/^[1-9]\d{0,9}$/.test(value) || Number(value) > 2_147_483_647) {
      throw new InvalidParamsError({ [this.name]: `${this.name} must be a positive integer` });
    }
    return Number(value);
  }
}
