import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { WpErrorDto } from '../../../common/openapi/index.js';

/** Documents the 503 of a route that calls gateway B: `checkout_gateway_unavailable` (provider unreachable), with Retry-After. */
export function ApiGatewayUnavailableResponse(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiExtraModels(WpErrorDto),
    ApiResponse({
      status: 503,
      description: 'The payment provider did not answer in time (`checkout_gateway_unavailable`): nothing was changed, try again after Retry-After seconds',
      headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } },
      schema: { $ref: getSchemaPath(WpErrorDto) },
    }),
  );
}
