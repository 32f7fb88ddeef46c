/** Any JSON value: what a free-form, service-written detail object (a payment log line's context) holds. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export const JSON_VALUE_SCHEMA_NAME = 'JsonValue';

/** `$ref` to the JsonValue schema, which finishOpenApiDocument adds when an operation uses it. */
export const JSON_VALUE_REF = { $ref: `#/components/schemas/${JSON_VALUE_SCHEMA_NAME}` } as const;

/**
 * Recursive, so a generated client gets a precise type (`string | number | boolean | null |
 * JsonValue[] | { [key: string]: JsonValue }`) instead of `unknown`.
 */
export const JSON_VALUE_SCHEMA = {
  description: 'Any JSON value',
  nullable: true,
  oneOf: [
    { type: 'string' },
    { type: 'number' },
    { type: 'boolean' },
    { type: 'array', items: JSON_VALUE_REF },
    { type: 'object', additionalProperties: JSON_VALUE_REF },
  ],
};
