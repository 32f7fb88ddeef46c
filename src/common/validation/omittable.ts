import { ValidateIf, type ValidationOptions } from 'class-validator';

/**
 * An optional field: it may be left out, but when present it is validated, `null` included.
 * class-validator's `@IsOptional()` also skips `null`, which let `{"currency": null}` through
 * to the store (or crash on a NOT NULL column); use this one on request fields instead.
 */
export function IsOmittable(options?: ValidationOptions): PropertyDecorator {
  return ValidateIf((_object: object, value: unknown) => value !== undefined, options);
}
