export { createValidationPipe, validationFailure } from './validation.pipe.js';
export { ToBoolean, ToInteger, Trim } from './transforms.js';
export { PositiveIntPipe } from './positive-int.pipe.js';
export { IsOmittable } from './omittable.js';
