export { ApiErrorResponses } from './api-error-responses.decorator.js';
export { AcknowledgementDto, WpErrorDto } from './wp-error.dto.js';
