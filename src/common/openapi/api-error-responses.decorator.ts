import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { WpErrorDto } from './wp-error.dto.js';

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request (`rest_invalid_param`, `rest_missing_callback_param`, `rest_invalid_json`, or a route-specific code)',
  401: 'No valid credentials (`rest_not_logged_in`)',
  403: 'Not allowed (`rest_forbidden`, `rest_cross_site_request`, `checkout_invalid_payment_reference`)',
  404: 'Not found (`checkout_not_found`, `rest_no_route`)',
  409: 'Conflict with the current state (`checkout_invalid_state`, `checkout_paused`, `checkout_contract_mismatch`, ...)',
  413: 'Body too large (`checkout_payload_too_large`)',
  429: 'Rate limited (`checkout_rate_limited`); see the Retry-After header',
  502: 'The payment provider failed (`checkout_gateway_error`)',
  503: 'Temporarily unavailable (`checkout_unavailable`)',
};

/** Documents WP_Error responses for the given status codes. */
export function ApiErrorResponses(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiExtraModels(WpErrorDto),
    ...statuses.map((status) =>
      ApiResponse({ status, description: DESCRIPTIONS[status] ?? 'Error', schema: { $ref: getSchemaPath(WpErrorDto) } }),
    ),
  );
}
