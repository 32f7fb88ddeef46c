import { Module } from '@nestjs/common';
import { FormViewModule } from '../form-view/index.js';
import { HostedPageController } from './hosted-page.controller.js';
import { EmbedScript, HostedPageScript } from './hosted-page.script.js';

/**
 * The hosted payment page (`/pay/{form_id}`): a published form rendered on the server from the
 * form-view read model and renderer, whose script pays through the public REST routes like any
 * client. It reaches gateways only through the read model (the port's facts); it imports no
 * gateway slice.
 */
@Module({
  imports: [FormViewModule],
  controllers: [HostedPageController],
  providers: [HostedPageScript, EmbedScript],
})
export class HostedPageModule {}
