import type { CheckoutError } from '../../../clients/typescript/index';

/**
 * A failed API call: the API's own WP_Error body (code, message, status, the invalid fields),
 * or a network failure. Screens show `message` as the API wrote it.
 */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly params: Record<string, string> = {},
    /** The error's `data` (e.g. the `challenge` of `checkout_two_factor_required`). */
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get isForbidden(): boolean {
    return this.status === 403;
  }

  get isSignedOut(): boolean {
    return this.status === 401;
  }
}

/** The error of an openapi-fetch result as an ApiError (the body is the WP_Error shape, or anything else a proxy sent). */
export function toApiError(error: unknown, response: Response | undefined): ApiError {
  const status = response?.status ?? 0;
  if (isWpError(error)) {
    const params = error.data && typeof error.data === 'object' && 'params' in error.data ? (error.data as { params?: Record<string, string> }).params : undefined;
    const data = error.data && typeof error.data === 'object' ? (error.data as Record<string, unknown>) : {};
    return new ApiError(error.message, status, error.code, params ?? {}, data);
  }
  if (status === 0) return new ApiError('The service could not be reached. Check your connection and try again.', 0, 'network_error');
  return new ApiError(`The service answered ${status} ${response?.statusText ?? ''}`.trim() + '.', status, 'unexpected_answer');
}

function isWpError(value: unknown): value is CheckoutError {
  return typeof value === 'object' && value !== null && typeof (value as CheckoutError).code === 'string' && typeof (value as CheckoutError).message === 'string';
}

/**
 * The data of an openapi-fetch result, or throws its ApiError: what query and mutation functions
 * return, so TanStack Query sees failures as errors.
 */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.error !== undefined || !result.response.ok) throw toApiError(result.error, result.response);
  return result.data as T;
}
