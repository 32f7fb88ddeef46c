import { Module } from '@nestjs/common';
import { FormsModule } from '../forms/index.js';
import { GatewaysModule } from '../gateways/index.js';
import { IdentityModule } from '../identity/index.js';
import { MailModule } from '../mail/index.js';
import { PluginModule } from '../plugin/index.js';
import { TemplatesModule } from '../templates/index.js';
import { AdministrationTemplatesController } from './administration-templates.controller.js';
import { FormBuilderController } from './form-builder.controller.js';
import { FormBuilderService } from './form-builder.service.js';
import { TemplateCatalogService } from './template-catalog.service.js';

/** Admin UI areas: template catalog and import, the form builder's data, live preview and test email. */
@Module({
  imports: [FormsModule, TemplatesModule, PluginModule, GatewaysModule, MailModule, IdentityModule],
  controllers: [AdministrationTemplatesController, FormBuilderController],
  providers: [TemplateCatalogService, FormBuilderService],
})
export class AdministrationModule {}
