import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, ValidationTypes } from 'class-validator';

/** A DTO class (its constructor is what both libraries key their metadata by). */
type DtoClass = abstract new (...args: never[]) => object;
type Condition = (object: object, value: unknown) => boolean;
type Check = { validate: (value: unknown, args: object) => unknown; constraints: unknown[]; propertyName: string; validateIf?: Condition };
type Field = { name: string; conditions: Condition[]; checks: Check[] };
type Plan = { dto: new () => object; fields: Field[]; byName: ReadonlyMap<string, Field> };

/** The transform options of the global ValidationPipe (validation.pipe.ts), so the instance is the one it would build. */
const TRANSFORM_OPTIONS = Object.freeze({ enableImplicitConversion: false });

const FAST = new WeakSet<DtoClass>();
const plans = new WeakMap<DtoClass, Plan | null>();

/**
 * Marks a request DTO for the fast path of `acceptValid`: a hot public route's body is checked
 * with the DTO's own constraints without class-validator's per-call machinery. Only DTOs whose
 * validity is proven equal by a differential test are marked.
 */
export function FastAccept(): ClassDecorator {
  return (target) => {
    FAST.add(target as unknown as DtoClass);
  };
}

/**
 * "Fast accept, slow reject": the DTO instance `plainToInstance(dto, body)` builds, when the body
 * is one that `validate()` (whitelist + forbidNonWhitelisted, no groups) passes without any error;
 * `undefined` for anything it does not fully accept, and the caller then runs class-transformer and
 * class-validator as before, so every error answer still comes from them.
 *
 * The instance is built by class-transformer's own `plainToInstance` (its transforms, @Type,
 * @Expose/@Exclude, exactly as the pipe applies them). Only the validation is done here, from
 * class-validator's public metadata storage (the decorators stay the source of truth, also for the
 * OpenAPI document): every constraint's own `validate`, called as class-validator calls it. It
 * accepts only flat bodies whose values are strings, numbers or booleans; a DTO with a rule it does
 * not model (nested or async validation, IsDefined, groups, `each`) never takes this path.
 * Both libraries are used through their entry points only: no private module of either is read.
 */
export function acceptValid<T extends object>(dto: abstract new (...args: never[]) => T, body: unknown): T | undefined {
  if (!FAST.has(dto) || typeof body !== 'object' || body === null || Object.getPrototypeOf(body) !== Object.prototype) return undefined;
  let plan = plans.get(dto);
  if (plan === undefined) plans.set(dto, (plan = compile(dto)));
  if (plan === null) return undefined;
  const source = body as Record<string, unknown>;
  for (const key of Object.keys(source)) {
    const raw = source[key];
    if (!plan.byName.has(key) || (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean')) return undefined;
  }
  const instance = plainToInstance(plan.dto, source, TRANSFORM_OPTIONS) as Record<string, unknown>;
  // The whitelist: every own property of the instance must be a declared one.
  for (const key of Object.keys(instance)) if (!plan.byName.has(key)) return undefined;
  for (const field of plan.fields) {
    const value = instance[field.name];
    if (!field.conditions.every((condition) => condition(instance, value))) continue;
    for (const check of field.checks) {
      if (check.validateIf && !check.validateIf(instance, value)) continue;
      const args = { targetName: plan.dto.name, property: check.propertyName, object: instance, value, constraints: check.constraints };
      // A promise (async constraint) or any falsy answer: not accepted here.
      if (check.validate(value, args) !== true) return undefined;
    }
  }
  return instance as T;
}

/** The per-field plan, or null when the DTO uses something acceptValid does not model. */
function compile(dto: DtoClass): Plan | null {
  const storage = getMetadataStorage();
  const metadatas = storage.getTargetValidationMetadatas(dto, '', false, false, undefined);
  if (metadatas.length === 0) return null;
  const fields: Field[] = [];
  for (const [name, group] of Object.entries(storage.groupByPropertyName(metadatas))) {
    const field: Field = { name, conditions: [], checks: [] };
    for (const metadata of group) {
      if (metadata.each || metadata.groups?.length) return null;
      if (metadata.type === ValidationTypes.WHITELIST) continue;
      if (metadata.type === ValidationTypes.CONDITIONAL_VALIDATION) {
        field.conditions.push(metadata.constraints[0] as Condition);
      } else if (metadata.type === ValidationTypes.CUSTOM_VALIDATION) {
        for (const constraint of storage.getTargetValidatorConstraints(metadata.constraintCls)) {
          if (constraint.async) return null;
          const instance = constraint.instance as { validate: Check['validate'] };
          field.checks.push({ validate: instance.validate.bind(instance), constraints: metadata.constraints, propertyName: metadata.propertyName, validateIf: metadata.validateIf });
        }
      } else {
        return null;
      }
    }
    fields.push(field);
  }
  return { dto: dto as unknown as new () => object, fields, byName: new Map(fields.map((field) => [field.name, field])) };
}
