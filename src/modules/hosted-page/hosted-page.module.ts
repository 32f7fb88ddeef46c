import { Module } from '@nestjs/common';
import { FormsModule } from '../forms/index.js';
import { GatewaysModule } from '../gateways/index.js';
import { HostedPageController } from './hosted-page.controller.js';
import { HostedPageScript } from './hosted-page.script.js';
import { HostedPageService } from './hosted-page.service.js';

/**
 * The hosted payment page (`/pay/{form_id}`): a published form rendered on the server, whose
 * script pays through the public REST routes like any client. It reads forms and, through the
 * gateway registry, which gateways can take payments; it imports no gateway slice.
 */
@Module({
  imports: [FormsModule, GatewaysModule],
  controllers: [HostedPageController],
  providers: [HostedPageService, HostedPageScript],
})
export class HostedPageModule {}
