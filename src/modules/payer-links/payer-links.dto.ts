import { ApiProperty } from '@nestjs/swagger';

/** POST /administration/payer-links/revoke */
export class PayerLinksRevokedDto {
  @ApiProperty({ example: true })
  success: boolean;

  @ApiProperty({ example: 'Every payer link sent so far no longer works.' })
  message: string;

  /** The link version now in force (links carry it in their key; a link of an earlier version opens nothing) */
  @ApiProperty({ example: 2, minimum: 2 })
  version: number;
}
