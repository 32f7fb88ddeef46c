import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ERROR_CATALOG } from './error-catalog.js';
import { WpErrorDto } from './wp-error.dto.js';

/**
 * Documents WP_Error responses for the given status codes. The finished document
 * (finishOpenApiDocument) gives each status its own schema (`code` as an enum) and example.
 */
export function ApiErrorResponses(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiExtraModels(WpErrorDto),
    ...statuses.map((status) =>
      ApiResponse({ status, description: ERROR_CATALOG[status]?.description ?? 'Error', schema: { $ref: getSchemaPath(WpErrorDto) } }),
    ),
  );
}
