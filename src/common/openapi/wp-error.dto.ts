import { ApiProperty } from '@nestjs/swagger';

export class WpErrorDataDto {
  @ApiProperty({ example: 400 })
  status: number;

  @ApiProperty({ required: false, type: Object, additionalProperties: { type: 'string' }, description: 'Each invalid field and why' })
  params?: Record<string, string>;

  @ApiProperty({ required: false, description: 'Reference to quote to support (500 only)' })
  error_id?: string;

  @ApiProperty({ required: false, description: 'Fields beyond the ten named in `params`' })
  more_params?: number;

  @ApiProperty({ required: false, description: 'Seconds to wait before retrying (429, some 503)' })
  retry_after?: number;

  @ApiProperty({ required: false, description: 'Which cross-site signal refused an admin request (403 `rest_cross_site_request`)', enum: ['origin_not_allowed', 'cross_site_fetch'] })
  reason?: string;

  @ApiProperty({ required: false, type: [String], description: 'Dependencies that do not answer (503 from /readyz)' })
  unavailable?: string[];
}

/** The WP_Error body every error response uses. */
export class WpErrorDto {
  @ApiProperty({ example: 'rest_invalid_param' })
  code: string;

  @ApiProperty({ example: 'Invalid parameter(s): amount' })
  message: string;

  @ApiProperty({ type: WpErrorDataDto })
  data: WpErrorDataDto;
}

/** Section B's acknowledgement body. */
export class AcknowledgementDto {
  @ApiProperty({ example: true })
  success: boolean;

  @ApiProperty({ example: 'Settings updated.' })
  message: string;
}
