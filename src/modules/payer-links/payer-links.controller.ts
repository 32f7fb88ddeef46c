import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminRoute, Capability } from '../../common/auth/index.js';
import { ApiErrorResponses } from '../../common/openapi/index.js';
import { PayerLinksRevokedDto } from './payer-links.dto.js';
import { PayerLinks } from './payer-links.service.js';

@ApiTags('Settings')
@Controller('administration/payer-links')
export class PayerLinksController {
  constructor(private readonly links: PayerLinks) {}

  @Post('revoke')
  @HttpCode(200)
  @AdminRoute(Capability.manageSettings)
  @ApiOperation({
    operationId: 'payerLinksRevoke',
    summary: "Revoke every payer's manage link",
    description:
      "Voids every self-service link sent to payers so far (confirmation, refund and renewal emails): the stored link version moves, so each earlier link opens the manage page's not-found answer. Payers ask for a fresh link by email on that page. Nothing else changes.",
  })
  @ApiErrorResponses(503)
  @ApiOkResponse({ type: PayerLinksRevokedDto })
  async revoke(): Promise<PayerLinksRevokedDto> {
    const version = await this.links.revokeAll();
    return { success: true, message: 'Every payer link sent so far no longer works.', version };
  }
}
