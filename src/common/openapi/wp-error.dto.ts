import { ApiProperty } from '@nestjs/swagger';

export class WpErrorDataDto {
  @ApiProperty({ example: 400 })
  status: number;

  @ApiProperty({ required: false, type: Object, additionalProperties: { type: 'string' }, description: 'Each invalid field and why' })
  params?: Record<string, string>;

  @ApiProperty({ required: false, description: 'Reference to quote to support (500 only)' })
  error_id?: string;
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
