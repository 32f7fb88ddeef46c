/**
 * Every error status the service answers, with the `code`s that can come with it (docs/decisions.md §2 and
 * the codes the services throw) and an example body. The OpenAPI document gets one schema per
 * status (`WpError404`: the WP_Error shape with `code` limited to these) and that example, so a
 * client can switch on `code` and Swagger UI shows a 404 as a 404.
 */
export interface ErrorStatus {
  description: string;
  codes: readonly string[];
  example: { code: string; message: string; data: Record<string, unknown> };
}

export const ERROR_CATALOG: Readonly<Record<number, ErrorStatus>> = {
  400: {
    description: 'The request is invalid: `data.params` names each bad field and the rule it broke',
    codes: [
      'rest_invalid_param',
      'rest_missing_callback_param',
      'rest_invalid_json',
      'rest_invalid_request',
      'checkout_invalid_signature',
      'checkout_invalid_event',
      'checkout_livemode_mismatch',
      'checkout_plugin_not_allowed',
      'checkout_token_invalid',
    ],
    example: {
      code: 'rest_missing_callback_param',
      message: 'Missing parameter(s): payment_method',
      data: { status: 400, params: { payment_method: 'payment_method is required' } },
    },
  },
  401: {
    description:
      'No valid credentials: send HTTP Basic `login:application-password`, or the admin console session cookie with its nonce in `X-WP-Nonce` (a cookie without its nonce is no credential). The console sign-in also answers `checkout_two_factor_required` (send a code with `data.challenge` to POST /auth/session/two-factor), `checkout_two_factor_invalid` (a wrong code) and `checkout_two_factor_expired` (sign in again)',
    codes: ['rest_not_logged_in', 'checkout_two_factor_required', 'checkout_two_factor_invalid', 'checkout_two_factor_expired'],
    example: { code: 'rest_not_logged_in', message: 'You are not currently logged in.', data: { status: 401 } },
  },
  403: {
    description:
      'Not allowed: a capability or edit access is missing, the request came from a foreign site, a console session cookie came with a nonce that is not its own, or the payment reference does not match',
    codes: ['rest_forbidden', 'rest_cross_site_request', 'rest_cookie_invalid_nonce', 'checkout_invalid_payment_reference'],
    example: { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 403 } },
  },
  404: {
    description: 'Not found: no such form, payment, tag, template, gateway, user or application password (or no such route)',
    codes: ['checkout_not_found', 'rest_no_route'],
    example: { code: 'checkout_not_found', message: 'Payment form not found.', data: { status: 404 } },
  },
  409: {
    description: 'Conflicts with the current state (a finished payment, a paused gateway, a provider answer that does not match, a duplicate)',
    codes: [
      'checkout_invalid_state',
      'checkout_paused',
      'checkout_contract_mismatch',
      'checkout_tag_exists',
      'checkout_user_exists',
      'checkout_last_administrator',
      'checkout_plan_required',
      'checkout_plugin_inactive',
      'checkout_plugin_not_installed',
      'checkout_idempotency_in_progress',
    ],
    example: { code: 'checkout_invalid_state', message: 'The payment is already completed.', data: { status: 409 } },
  },
  413: {
    description: 'The body is over the size limit (64 KiB; webhooks 512 KiB) or has too many parameters',
    codes: ['checkout_payload_too_large'],
    example: { code: 'checkout_payload_too_large', message: 'The request body is too large.', data: { status: 413 } },
  },
  422: {
    description: 'The `Idempotency-Key` was already used with another request body (within 24 hours): send a new key for a new request',
    codes: ['checkout_idempotency_mismatch'],
    example: {
      code: 'checkout_idempotency_mismatch',
      message: 'This Idempotency-Key was already used with another request body; send a new key for a new request.',
      data: { status: 422, params: { 'Idempotency-Key': 'Idempotency-Key was used with another request body within 24 hours' } },
    },
  },
  429: {
    description: 'Too many requests from this client: wait the seconds of the `Retry-After` header',
    codes: ['checkout_rate_limited'],
    example: { code: 'checkout_rate_limited', message: 'Too many requests. Please try again later.', data: { status: 429, retry_after: 60 } },
  },
  500: {
    description: 'Something failed inside the service; quote `data.error_id` to support (the log has the details)',
    codes: ['checkout_internal_error'],
    example: {
      code: 'checkout_internal_error',
      message: 'An internal error occurred.',
      data: { status: 500, error_id: '1f0c2a9e-5b7d-4c3e-9a61-2d8f4b6e7c10' },
    },
  },
  502: {
    description: 'The payment provider (or the mail server) failed or answered nonsense; its text is not echoed',
    codes: ['checkout_gateway_error', 'checkout_mail_failed'],
    example: { code: 'checkout_gateway_error', message: 'The payment provider could not complete the request.', data: { status: 502 } },
  },
  503: {
    description: 'Temporarily unavailable (the database or the payment provider does not answer); try again later',
    codes: ['checkout_unavailable', 'checkout_gateway_unavailable'],
    example: { code: 'checkout_unavailable', message: 'The service is temporarily unavailable.', data: { status: 503 } },
  },
};

/** The component name of a status's error schema. */
export function errorSchemaName(status: number): string {
  return `WpError${status}`;
}
