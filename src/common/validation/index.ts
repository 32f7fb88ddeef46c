export { createValidationPipe, MAX_REPORTED_PARAMS, validationFailure } from './validation.pipe.js';
export { declaredFields, pickDeclaredFields } from './declared-fields.js';
export { ToBoolean, ToInteger, Trim } from './transforms.js';
export { PositiveIntPipe } from './positive-int.pipe.js';
export { IsOmittable } from './omittable.js';
export { acceptValid, FastAccept } from './fast-accept.js';
export { instantMessage, IsIsoInstant } from './instant.js';
export { ArrayMaxSizeOf } from './array-max-size-of.js';
