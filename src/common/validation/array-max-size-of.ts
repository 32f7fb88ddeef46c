import { buildMessage, ValidateBy, type ValidationOptions } from 'class-validator';

/**
 * `@ArrayMaxSize(list.length)` for a list that may still grow while modules load (the gateway
 * catalog's live lists): the bound is read when a value is validated. Same name and message as
 * class-validator's own rule.
 */
export function ArrayMaxSizeOf(list: readonly unknown[], options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'arrayMaxSize',
      validator: {
        validate: (value: unknown) => Array.isArray(value) && value.length <= list.length,
        defaultMessage: buildMessage((eachPrefix) => `${eachPrefix}$property must contain no more than ${list.length} elements`, options),
      },
    },
    options,
  );
}
