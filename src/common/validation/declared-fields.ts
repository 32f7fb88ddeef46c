import { getMetadataStorage } from 'class-validator';

/** A DTO class (its constructor is what class-validator keys its metadata by). */
type DtoClass = abstract new (...args: never[]) => unknown;

const cache = new WeakMap<DtoClass, ReadonlySet<string>>();

/**
 * The properties class-validator's whitelist allows on an instance of `dto`: every property with a
 * validation decorator, inherited ones included (the same lookup the validator makes without
 * groups). Empty for a class without validation metadata.
 */
export function declaredFields(dto: DtoClass): ReadonlySet<string> {
  let fields = cache.get(dto);
  if (!fields) {
    const storage = getMetadataStorage();
    fields = new Set(Object.keys(storage.groupByPropertyName(storage.getTargetValidationMetadatas(dto, '', false, false))));
    cache.set(dto, fields);
  }
  return fields;
}

/** The declared fields of `dto` present in `body`, as a new plain object (unknown keys are not copied). */
export function pickDeclaredFields(dto: DtoClass, body: object): Record<string, unknown> {
  const fields = declaredFields(dto);
  const picked: Record<string, unknown> = {};
  for (const field of fields) {
    if (Object.prototype.hasOwnProperty.call(body, field)) picked[field] = (body as Record<string, unknown>)[field];
  }
  return picked;
}
