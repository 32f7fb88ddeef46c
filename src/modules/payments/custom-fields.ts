import { registerDecorator, type ValidationArguments, type ValidationOptions } from 'class-validator';

/** Bounds on the payer's custom field values (docs/decisions.md §5). */
export const CUSTOM_FIELDS_LIMITS = { maxKeys: 50, maxKeyLength: 40, maxValueLength: 500 } as const;

/** The form builder's field names: lower snake_case starting with a letter. Never `__proto__` & co. */
const KEY = /^[a-z][a-z0-9_]*$/;
const RESERVED = new Set(['constructor', 'prototype', 'hasownproperty', 'tostring', 'valueof']);

export type CustomFields = Record<string, string>;

/** Why `value` is not an acceptable custom_fields object, or null when it is. */
export function customFieldsProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'custom_fields must be an object';
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return 'custom_fields must be a plain object';
  const entries = Object.entries(value);
  if (entries.length > CUSTOM_FIELDS_LIMITS.maxKeys) return `custom_fields must have at most ${CUSTOM_FIELDS_LIMITS.maxKeys} keys`;
  for (const [key, item] of entries) {
    if (key.length > CUSTOM_FIELDS_LIMITS.maxKeyLength || !KEY.test(key) || RESERVED.has(key.toLowerCase())) {
      return `custom_fields keys must be field names of at most ${CUSTOM_FIELDS_LIMITS.maxKeyLength} characters (a-z, 0-9, _)`;
    }
    if (typeof item === 'string') {
      if (item.length > CUSTOM_FIELDS_LIMITS.maxValueLength) return `custom_fields.${key} must be at most ${CUSTOM_FIELDS_LIMITS.maxValueLength} characters`;
    } else if (!(typeof item === 'boolean' || (typeof item === 'number' && Number.isFinite(item)))) {
      return `custom_fields.${key} must be a string, number or boolean`;
    }
  }
  return null;
}

/** Values as stored: strings (a checkbox `true` becomes 'true'), in a null-prototype-free copy. */
export function normaliseCustomFields(value: Record<string, unknown>): CustomFields {
  const result: CustomFields = {};
  for (const [key, item] of Object.entries(value)) result[key] = String(item);
  return result;
}

export function IsCustomFields(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isCustomFields',
      target: target.constructor,
      propertyName: String(propertyName),
      options,
      validator: {
        validate: (value: unknown) => customFieldsProblem(value) === null,
        defaultMessage: (args?: ValidationArguments) => customFieldsProblem(args?.value) ?? 'custom_fields is invalid',
      },
    });
  };
}
