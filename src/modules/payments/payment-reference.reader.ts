import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { acceptValid, pickDeclaredFields, validationFailure } from '../../common/validation/index.js';
import { PaymentReferenceDto } from './payment-reference.dto.js';

/**
 * The payment reference fields of a request body, transformed and validated (the
 * PaymentReferenceGuard's first step); a validation failure is thrown as the pipe's WP_Error.
 * `fast: false` skips acceptValid's fast path (the differential test compares both).
 */
export async function readPaymentReference(body: unknown, { fast = true }: { fast?: boolean } = {}): Promise<PaymentReferenceDto> {
  const plain = typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {};
  // Only the reference fields are copied: the route's other (or junk) fields cost nothing here.
  const picked = pickDeclaredFields(PaymentReferenceDto, plain);
  const accepted = fast ? acceptValid(PaymentReferenceDto, picked) : undefined;
  if (accepted) return accepted;
  const reference = plainToInstance(PaymentReferenceDto, picked);
  // Only the reference fields here; the route's own DTO (with unknown-field refusal) follows in the pipe.
  const errors = await validate(reference, { stopAtFirstError: true, forbidUnknownValues: false, validationError: { target: false, value: true } });
  if (errors.length > 0) throw validationFailure(errors);
  return reference;
}
