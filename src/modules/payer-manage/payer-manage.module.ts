import { Module } from '@nestjs/common';
import { FormsModule } from '../forms/index.js';
import { GatewaysModule } from '../gateways/index.js';
import { HostedPageModule } from '../hosted-page/index.js';
import { MailModule } from '../mail/index.js';
import { OutboxModule } from '../outbox/index.js';
import { PayerLinksModule } from '../payer-links/index.js';
import { PaymentsModule } from '../payments/index.js';
import { PayerLinkEmails } from './payer-link-emails.js';
import { SettingsModule } from '../settings/index.js';
import { PayerManageController } from './payer-manage.controller.js';
import { PayerManageService } from './payer-manage.service.js';

/**
 * The payer's manage page (`/pay/manage`, `/pay/manage/{token}`): receipts, and for gateway
 * subscriptions cancelling at the period's end and changing the card, through the gateways'
 * capabilities (no gateway named here). The link itself is payer-links/.
 */
@Module({
  imports: [PayerLinksModule, PaymentsModule, FormsModule, GatewaysModule, HostedPageModule, MailModule, OutboxModule, SettingsModule],
  controllers: [PayerManageController],
  providers: [PayerManageService, PayerLinkEmails],
})
export class PayerManageModule {}
