export { createValidationPipe, MAX_REPORTED_PARAMS, validationFailure } from './validation.pipe.js';
export { declaredFields, pickDeclaredFields } from './declared-fields.js';
export { ToBoolean, ToInteger, Trim } from './transforms.js';
export { IdParam, PositiveIntPipe, positiveIdOf } from './positive-int.pipe.js';
export { IsOmittable } from './omittable.js';
export { acceptValid, FastAccept } from './fast-accept.js';
export { instantMessage, IsIsoInstant, ISO_INSTANT_SCHEMA } from './instant.js';
export { IsPlainText, isPlainText, PLAIN_TEXT_MESSAGE } from './plain-text.js';
export { ArrayMaxSizeOf } from './array-max-size-of.js';
