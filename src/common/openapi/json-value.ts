/** Any JSON value: what a free-form, service-written detail object (a payment log line's context) holds. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export const JSON_VALUE_SCHEMA_NAME = 'JsonValue';

/** `$ref` to the JsonValue schema, which finishOpenApiDocument adds when an operation uses it. */
export const JSON_VALUE_REF = { $ref: `#/components/schemas/${JSON_VALUE_SCHEMA_NAME}` } as const;

/**
 * Recursive, so a generated client gets a precise type (`string | null | number | boolean |
 * JsonValue[] | { [key: string]: JsonValue }`) instead of `unknown`. OpenAPI 3.0 has no null type
 * and `nullable` needs a `type` beside it, so null rides on the string branch (anyOf: a null
 * matching one branch is enough).
 */
export const JSON_VALUE_SCHEMA = {
  description: 'Any JSON value',
  anyOf: [
    { type: 'string', nullable: true },
    { type: 'number' },
    { type: 'boolean' },
    { type: 'array', items: JSON_VALUE_REF },
    { type: 'object', additionalProperties: JSON_VALUE_REF },
  ],
};
