import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { DomainError } from '../errors/index.js';

/**
 * The global pipe: whitelist + refuse unknown fields + transform. Failures become WP_Error
 * `rest_invalid_param` (or `rest_missing_callback_param` when every problem is a missing field),
 * with `data.params` naming each bad field by its dotted path.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
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

export function validationFailure(errors: ValidationError[]): DomainError {
  const params: Record<string, string> = {};
  let allMissing = true;
  for (const { path, error } of flatten(errors, '')) {
    const messages = Object.values(error.constraints ?? {});
    params[path] = messages[0] ?? 'is invalid';
    const unknownField = Object.keys(error.constraints ?? {}).includes('whitelistValidation');
    if (unknownField || !isMissing(error)) allMissing = false;
  }
  const names = Object.keys(params).join(', ');
  if (allMissing) {
    return new DomainError('rest_missing_callback_param', 400, `Missing parameter(s): ${names}`, { params });
  }
  return new DomainError('rest_invalid_param', 400, `Invalid parameter(s): ${names}`, { params });
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
