import { Module } from '@nestjs/common';
import { ClockModule } from '../../common/clock/index.js';
import { SettingsModule } from '../settings/index.js';
import { PayerLinksController } from './payer-links.controller.js';
import { PayerLinks } from './payer-links.service.js';

/** The payer's self-service link (`/pay/manage/{token}`): issuing, verifying and revoking tokens. The page itself is payer-manage/. */
@Module({
  imports: [SettingsModule, ClockModule],
  controllers: [PayerLinksController],
  providers: [PayerLinks],
  exports: [PayerLinks],
})
export class PayerLinksModule {}
