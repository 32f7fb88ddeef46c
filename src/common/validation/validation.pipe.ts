import { type ArgumentMetadata, ValidationPipe, type ValidationError } from '@nestjs/common';
import { DomainError } from '../errors/index.js';
import { declaredFields } from './declared-fields.js';
import { acceptValid } from './fast-accept.js';
import { cacheValidationMetadataLookups } from './metadata-cache.js';

/** At most this many fields are named in `data.params`; `data.more_params` counts the rest. */
export const MAX_REPORTED_PARAMS = 10;

/**
 * The global pipe: whitelist + refuse unknown fields + transform. Failures become WP_Error
 * `rest_invalid_param` (or `rest_missing_callback_param` when every problem is a missing field),
 * with `data.params` naming each bad field by its dotted path — at most MAX_REPORTED_PARAMS of
 * them, plus `data.more_params` with the count of the others, so a body of thousands of junk keys
 * gets a short answer.
 */
export function createValidationPipe(options: { fastAccept?: boolean } = {}): ValidationPipe {
  cacheValidationMetadataLookups();
  return new CheckoutValidationPipe(options.fastAccept ?? true, {
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    // Values are kept on the error objects only to tell missing from invalid; they never reach the response.
    validationError: { target: false, value: true },
    stopAtFirstError: true,
    exceptionFactory: (errors) => validationFailure(errors),
  });
}

/**
 * Unknown top-level fields are found by a lookup of each key in the DTO's declared fields, before
 * class-transformer copies the body (that copy costs ~10 µs per key, and the validator then
 * builds an error per key). With unknown fields present only the declared ones are transformed and
 * validated, and their problems are reported after the unknown ones, as before.
 */
class CheckoutValidationPipe extends ValidationPipe {
  constructor(
    private readonly fastAccept: boolean,
    options: ConstructorParameters<typeof ValidationPipe>[0],
  ) {
    super(options);
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // A path param reaches its own pipe as the client sent it (`IdParam`, the webhook mode):
    // Nest's primitive conversion (`+value` for a `number` param) reads `0x1`, `1e0`, `1.0` and
    // ` 1` as 1, which the id's own check could then no longer refuse.
    if (metadata.type === 'param' && metadata.data !== undefined) return value;
    const { metatype } = metadata;
    if (!metatype || !isPlainObject(value) || !this.toValidate(metadata)) return super.transform(value, metadata);
    const fields = declaredFields(metatype);
    if (fields.size === 0) return super.transform(value, metadata);

    const report = new ParamReport();
    const known: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      if (fields.has(key)) known[key] = value[key];
      else report.add(key, `property ${key} should not exist`, false);
    }
    if (report.total === 0) {
      // A valid body of a @FastAccept() DTO skips the libraries; anything else goes through them.
      const accepted = this.fastAccept ? acceptValid(metatype as new () => object, value) : undefined;
      if (accepted !== undefined) return accepted;
      // class-transformer skips `__proto__` and `constructor` below the top level, so the whitelist
      // never sees them: name them as the unknown fields they are. Only bodies the body parsers do
      // not check for these names (the signed webhook routes) can hold them at this point.
      if (metadata.type === 'body') for (const path of nestedReservedKeys(value)) report.add(path, `property ${path.slice(path.lastIndexOf('.') + 1)} should not exist`, false);
      if (report.total === 0) return super.transform(value, metadata);
    }
    try {
      await super.transform(known, metadata);
    } catch (error) {
      if (!(error instanceof DomainError) || !error.data.params) throw error;
      report.addReported(error);
    }
    throw report.toError();
  }
}

export function validationFailure(errors: ValidationError[]): DomainError {
  const report = new ParamReport();
  for (const { path, error } of flatten(errors, '')) {
    const unknownField = Object.keys(error.constraints ?? {}).includes('whitelistValidation');
    report.add(path, unknownField ? firstMessage(error) : messageFor(error), !unknownField && isMissing(error));
  }
  return report.toError();
}

/** Bad fields collected for one answer: the first MAX_REPORTED_PARAMS named, the rest counted. */
class ParamReport {
  private readonly params: Record<string, string> = {};
  private listed = 0;
  private more = 0;
  private allMissing = true;

  get total(): number {
    return this.listed + this.more;
  }

  add(path: string, message: string, missing: boolean): void {
    if (!missing) this.allMissing = false;
    if (Object.prototype.hasOwnProperty.call(this.params, path)) return;
    if (this.listed < MAX_REPORTED_PARAMS) {
      // Defined, not assigned: `params.__proto__ = …` would set the prototype and name nothing.
      Object.defineProperty(this.params, path, { value: message, enumerable: true, writable: true, configurable: true });
      this.listed += 1;
    } else {
      this.more += 1;
    }
  }

  /** Merges the report of another validation failure (see toError). */
  addReported(error: DomainError): void {
    const missing = error.code === 'rest_missing_callback_param';
    for (const [path, message] of Object.entries(error.data.params as Record<string, string>)) this.add(path, message, missing);
    const more = Number(error.data.more_params ?? 0);
    if (more > 0) {
      this.more += more;
      if (!missing) this.allMissing = false;
    }
  }

  toError(): DomainError {
    const names = Object.keys(this.params).join(', ') + (this.more > 0 ? ` and ${this.more} more` : '');
    const data = this.more > 0 ? { params: this.params, more_params: this.more } : { params: this.params };
    if (this.allMissing) return new DomainError('rest_missing_callback_param', 400, `Missing parameter(s): ${names}`, data);
    return new DomainError('rest_invalid_param', 400, `Invalid parameter(s): ${names}`, data);
  }
}

/** Keys class-transformer drops without a word when it copies nested objects. */
const SKIPPED_BY_TRANSFORM: ReadonlySet<string> = new Set(['__proto__', 'constructor']);

/** Dotted paths of `__proto__` and `constructor` keys below the top level (an iterative walk; depth is bounded by the body parsers). */
function nestedReservedKeys(body: Record<string, unknown>): string[] {
  const found: string[] = [];
  const stack: Array<[unknown, string]> = Object.keys(body).map((key) => [body[key], key]);
  while (stack.length > 0 && found.length <= MAX_REPORTED_PARAMS) {
    const [value, path] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    for (const key of Object.keys(value)) {
      if (SKIPPED_BY_TRANSFORM.has(key)) found.push(`${path}.${key}`);
      else stack.push([(value as Record<string, unknown>)[key], `${path}.${key}`]);
    }
  }
  return found;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

function firstMessage(error: ValidationError): string {
  return Object.values(error.constraints ?? {})[0] ?? `${error.property} is invalid`;
}

/**
 * The message for one bad field, naming the rule that failed. A field that was not sent, or sent as
 * null, fails every rule of its type at once, and whichever ran first (often `@MaxLength`) would
 * say something beside the point ("must be shorter than or equal to 40 characters"): a missing
 * field is reported as required, a null one as not allowed to be null (optional fields may be left
 * out, never null).
 */
function messageFor(error: ValidationError): string {
  if (error.value === undefined) return `${error.property} is required`;
  if (error.value === null) return `${error.property} must not be null`;
  return firstMessage(error);
}

function isMissing(error: ValidationError): boolean {
  return error.value === undefined || error.value === null || error.value === '';
}

function* flatten(errors: ValidationError[], prefix: string): Generator<{ path: string; error: ValidationError }> {
  for (const error of errors) {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    if (error.constraints && Object.keys(error.constraints).length > 0) yield { path, error };
    if (error.children?.length) yield* flatten(error.children, path);
  }
}
