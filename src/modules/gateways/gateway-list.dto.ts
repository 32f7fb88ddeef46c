import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsOptional, IsString, IsUrl, Matches, MaxLength } from 'class-validator';
import { Trim } from '../../common/validation/index.js';
import { SECTION_B_GATEWAY_IDS, type SectionBGatewayId } from '../../common/gateway-catalog/index.js';

/** Section B gateway list entry. */
export class GatewayListEntryDto {
  @ApiProperty({ enum: SECTION_B_GATEWAY_IDS })
  gateway: SectionBGatewayId;

  /** gateway_a / gateway_b: connected in their current mode; gateway_c (bank debit): Pro plan, gateway_a connected and its `sepa` method active */
  enabled: boolean;
}

/** Section B POST /gateway/configure. */
export class GatewayConfigureDto {
  @IsIn(SECTION_B_GATEWAY_IDS)
  gateway: SectionBGatewayId;

  /** The gateway's API credentials for its current mode, in its own form (gateway_b: `<client id>:<secret>`); checked with the provider, stored encrypted */
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(512)
  @Matches(/^[\x21-\x7e]+$/, { message: 'api_key must be visible ASCII characters' })
  api_key: string;

  /** Optional; when given it must be this service's callback URL of the gateway for its current mode (the service never stores a URL to call) */
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false }, { message: 'webhook_url must be an absolute http(s) URL' })
  webhook_url?: string;
}
