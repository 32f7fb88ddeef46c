import { Module } from '@nestjs/common';
import { FormsModule } from '../forms/index.js';
import { GatewaysModule } from '../gateways/index.js';
import { SettingsModule } from '../settings/index.js';
import { FormViewService } from './form-view.service.js';
import { PublicFormController } from './public-form.controller.js';

/**
 * The payer's view of a form: one read model of a published form (FormViewService), its JSON at
 * `GET /payment/form/{form_id}`, and the one renderer that draws a form as HTML (the hosted page
 * and the builder's live preview) with its stylesheet. It reads forms and, through the gateway
 * registry, which gateways can take payments; it imports no gateway slice, and nothing it imports
 * imports it (hosted-page/ and administration/ sit above it).
 */
@Module({
  imports: [FormsModule, GatewaysModule, SettingsModule],
  controllers: [PublicFormController],
  providers: [FormViewService],
  exports: [FormViewService],
})
export class FormViewModule {}
