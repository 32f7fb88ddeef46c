import { getMetadataStorage } from 'class-validator';

type Storage = ReturnType<typeof getMetadataStorage>;
type Lookup = Storage['getTargetValidationMetadatas'];

let installed = false;

/**
 * class-validator recomputes a DTO's validation metadata on every `validate` call, for the DTO and
 * for every nested object: it filters the DTO's decorators and walks every class that has any
 * (an `instanceof` per class) for inherited ones (docs/benchmarks.md: `getTargetValidationMetadatas`
 * among the top functions of the public payment routes). The answer only changes when decorators
 * are added, which happens while modules load, so it is kept per DTO and options, and all of it is
 * dropped whenever metadata is added. Callers get the same array class-validator would have built.
 */
export function cacheValidationMetadataLookups(storage: Storage = getMetadataStorage()): void {
  if (installed) return;
  installed = true;
  const lookup = storage.getTargetValidationMetadatas.bind(storage) as Lookup;
  let cache = new Map<unknown, Map<string, ReturnType<Lookup>>>();
  storage.getTargetValidationMetadatas = ((target, schema, always, strictGroups, groups) => {
    const key = `${schema ?? ''}\u0000${always}\u0000${strictGroups}\u0000${groups?.join('\u0001') ?? '\u0002'}`;
    let forTarget = cache.get(target);
    if (!forTarget) cache.set(target, (forTarget = new Map()));
    let found = forTarget.get(key);
    if (!found) {
      found = lookup(target, schema, always, strictGroups, groups);
      forTarget.set(key, found);
    }
    // A copy: a caller that changes the array cannot change what the next caller gets.
    return found.slice();
  }) as Lookup;
  for (const method of ['addValidationMetadata', 'addConstraintMetadata', 'addValidationSchema'] as const) {
    const add = (storage[method] as (...args: unknown[]) => void).bind(storage);
    (storage as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      cache = new Map();
      add(...args);
    };
  }
}
