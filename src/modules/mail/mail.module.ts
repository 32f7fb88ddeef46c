import { Module } from '@nestjs/common';
import { MailService } from './mail.service.js';

/** Email delivery (SMTP or the `.eml` outbox) for payment confirmations and the builder's test emails. */
@Module({
  providers: [MailService],
  exports: [MailService],
})
export class MailModule {}
