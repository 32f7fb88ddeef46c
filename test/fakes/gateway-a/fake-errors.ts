import type { FormObject, FormValue } from './form-body.js';

/** The gateway's error body: `{ error: { type, code?, message, param?, ... } }` with an HTTP status. */
export interface StripeErrorBody {
  type: 'invalid_request_error' | 'card_error' | 'api_error' | 'idempotency_error' | 'authentication_error' | 'rate_limit_error';
  message: string;
  code?: string;
  param?: string;
  decline_code?: string;
  payment_intent?: unknown;
  setup_intent?: unknown;
}

export class FakeStripeError extends Error {
  constructor(
    readonly status: number,
    readonly body: StripeErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(body.message);
  }
}

export function missingParam(param: string): FakeStripeError {
  return new FakeStripeError(400, { type: 'invalid_request_error', code: 'parameter_missing', param, message: `Missing required param: ${param}.` });
}

export function invalidParam(param: string, message: string): FakeStripeError {
  return new FakeStripeError(400, { type: 'invalid_request_error', code: 'parameter_invalid', param, message });
}

export function noSuch(kind: string, id: string, param = 'id'): FakeStripeError {
  return new FakeStripeError(404, { type: 'invalid_request_error', code: 'resource_missing', param, message: `No such ${kind}: '${id}'` });
}

export function unexpectedState(kind: 'payment_intent' | 'setup_intent', status: string, action: string): FakeStripeError {
  return new FakeStripeError(400, {
    type: 'invalid_request_error',
    code: `${kind}_unexpected_state`,
    message: `You cannot ${action} this ${kind.replace('_', ' ')} because it has a status of ${status}.`,
  });
}

/** Refuses parameters the real API does not take for this operation (`expand` is always allowed). */
export function onlyParams(body: FormObject, allowed: readonly string[]): void {
  for (const key of Object.keys(body)) {
    if (key !== 'expand' && !allowed.includes(key)) {
      throw new FakeStripeError(400, { type: 'invalid_request_error', code: 'parameter_unknown', param: key, message: `Received unknown parameter: ${key}` });
    }
  }
}

/** `onlyParams` for a nested hash: the unknown key is named with its full path, as the API does. */
export function nestedParams(body: FormObject, path: string, allowed: readonly string[]): void {
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) {
      throw new FakeStripeError(400, { type: 'invalid_request_error', code: 'parameter_unknown', param: `${path}[${key}]`, message: `Received unknown parameter: ${path}[${key}]` });
    }
  }
}

// --- typed readers of form values -------------------------------------------------------------

export function str(body: FormObject, name: string, required: true): string;
export function str(body: FormObject, name: string, required?: false): string | undefined;
export function str(body: FormObject, name: string, required = false): string | undefined {
  const value = body[name];
  if (value === undefined || value === '') {
    if (required) throw missingParam(name);
    return undefined;
  }
  if (typeof value !== 'string') throw invalidParam(name, `Invalid string: ${name}`);
  return value;
}

export function int(body: FormObject, name: string, required: true, min?: number): number;
export function int(body: FormObject, name: string, required?: false, min?: number): number | undefined;
export function int(body: FormObject, name: string, required = false, min = 0): number | undefined {
  const raw = str(body, name, required as false);
  if (raw === undefined) return undefined;
  if (!/^-?\d+$/.test(raw) || Number(raw) < min || !Number.isSafeInteger(Number(raw))) {
    throw invalidParam(name, `Invalid integer: ${raw}`);
  }
  return Number(raw);
}

export function decimal(body: FormObject, name: string): number | undefined {
  const raw = str(body, name);
  if (raw === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(raw)) throw invalidParam(name, `Invalid decimal: ${raw}`);
  return Number(raw);
}

export function bool(body: FormObject, name: string): boolean | undefined {
  const raw = str(body, name);
  if (raw === undefined) return undefined;
  if (raw !== 'true' && raw !== 'false') throw invalidParam(name, `Invalid boolean: ${raw}`);
  return raw === 'true';
}

export function strList(body: FormObject, name: string): string[] | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) throw invalidParam(name, `Invalid array: ${name}`);
  return value as string[];
}

export function obj(body: FormObject, name: string): FormObject | undefined {
  const value = body[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidParam(name, `Invalid hash: ${name}`);
  return value;
}

/** Metadata: string values only; an empty value removes the key (the API's own rule). */
export function mergeMetadata(current: Record<string, string>, update: FormValue | undefined): Record<string, string> {
  if (update === undefined) return current;
  if (update === '') return {};
  if (typeof update !== 'object' || Array.isArray(update)) throw invalidParam('metadata', 'Invalid hash: metadata');
  const next = { ...current };
  for (const [key, value] of Object.entries(update)) {
    if (typeof value !== 'string') throw invalidParam(`metadata[${key}]`, 'Metadata values must be strings');
    if (value === '') delete next[key];
    else next[key] = value;
  }
  return next;
}
