import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AuthenticatedUser } from '../../common/auth/index.js';
import { ConflictError, ForbiddenError } from '../../common/errors/index.js';
import { APP_CONFIG, type AppConfig, REST_NAMESPACE } from '../../config/index.js';
import { FormsService, type PaymentFormSettings } from '../forms/index.js';
import { IdentityService } from '../identity/index.js';
import { HostPluginsService, PAGE_BUILDER_PLUGIN } from '../plugin/index.js';
import { isLayoutAllowed, type PageBlock, PagesService, TemplatesService } from '../templates/index.js';
import type { ImportTemplateDto, ImportTemplateResultDto, TemplateListDto } from './template-catalog.dto.js';

/** The template catalog of the admin UI: listing for the site's plan, and imports. */
@Injectable()
export class TemplateCatalogService {
  constructor(
    private readonly templates: TemplatesService,
    private readonly forms: FormsService,
    private readonly pages: PagesService,
    private readonly hostPlugins: HostPluginsService,
    private readonly identity: IdentityService,
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(user: AuthenticatedUser): Promise<TemplateListDto> {
    const pageBuilder = await this.hostPlugins.state(PAGE_BUILDER_PLUGIN.slug);
    return {
      plan: this.config.plan,
      layouts: this.templates.layoutsFor(this.config.plan).map((layout) => ({
        id: layout.id,
        name: layout.name,
        description: layout.description,
        category: layout.category,
        required_plan: layout.required_plan,
        dependencies: [...layout.dependencies],
        cover: this.templates.layoutCover(layout),
        form_template: layout.form_template,
        preview_url: this.previewUrl(layout.form_template),
      })),
      dependencies: { page_builder: { slug: pageBuilder.slug, name: pageBuilder.name, installed: pageBuilder.installed, active: pageBuilder.active } },
      user_can_install: this.hostPlugins.canInstall(user),
      user_can_activate: this.hostPlugins.canActivate(user),
      form_templates: this.templates.formTemplates().map((template) => ({
        slug: template.slug,
        name: template.name,
        description: template.description,
        category: template.category,
        preview_url: this.previewUrl(template.slug),
      })),
    };
  }

  import(user: AuthenticatedUser, body: ImportTemplateDto): Promise<ImportTemplateResultDto> {
    return body.type === 'layout' ? this.importLayout(user, body.id!) : this.importFormTemplate(user, body.slug!);
  }

  /** A draft form with the template's settings; the notification goes to the importing user. */
  private async importFormTemplate(user: AuthenticatedUser, slug: string): Promise<ImportTemplateResultDto> {
    const template = this.templates.getFormTemplate(slug);
    const settings = await this.ownedSettings(user, template.settings);
    const form = await this.forms.createAs(user, { title: template.name, status: 'draft', settings, source: { type: 'form_template', slug: template.slug } });
    return { form_id: form.id };
  }

  /**
   * A draft page from the layout plus the draft form it embeds, in one transaction. Refused (409)
   * when the site's plan does not include the layout or the page-builder plugin is not active.
   */
  private async importLayout(user: AuthenticatedUser, id: string): Promise<ImportTemplateResultDto> {
    const layout = this.templates.getLayout(id);
    if (!isLayoutAllowed(layout, this.config.plan)) {
      throw new ConflictError('checkout_plan_required', `The "${layout.name}" layout needs the Pro plan; this site is on the ${this.config.plan} plan.`);
    }
    const pageBuilder = await this.hostPlugins.state(PAGE_BUILDER_PLUGIN.slug);
    if (!pageBuilder.installed) {
      throw new ConflictError('checkout_plugin_not_installed', `Layouts need the ${PAGE_BUILDER_PLUGIN.name} plugin: install and activate it first.`);
    }
    if (!pageBuilder.active) {
      throw new ConflictError('checkout_plugin_inactive', `Layouts need the ${PAGE_BUILDER_PLUGIN.name} plugin: activate it first.`);
    }
    if (!this.forms.canCreate(user)) throw new ForbiddenError('You are not allowed to create payment forms.');

    const template = this.templates.getFormTemplate(layout.form_template);
    const settings = await this.ownedSettings(user, template.settings);
    return this.dataSource.transaction(async (manager) => {
      const form = await this.forms.create(
        { title: `${layout.name}: ${template.name}`, status: 'draft', authorId: user.id, settings, source: { type: 'layout', id: layout.id } },
        manager,
      );
      const blocks: PageBlock[] = layout.blocks.map((block) => (block.type === 'payment_form' ? { type: 'payment_form', form_id: form.id } : { ...block }));
      const page = await this.pages.createDraft({ title: layout.name, authorId: user.id, layoutId: layout.id, blocks }, manager);
      return { form_id: form.id, page_id: page.id };
    });
  }

  private async ownedSettings(user: AuthenticatedUser, settings: PaymentFormSettings): Promise<PaymentFormSettings> {
    const account = await this.identity.findUserByLogin(user.login);
    return { ...settings, email: { ...settings.email, email_to: account.email } };
  }

  private previewUrl(slug: string): string {
    return `${this.config.publicBaseUrl}/${this.config.restRoot}/${REST_NAMESPACE}/bundled-templates/${encodeURIComponent(slug)}/preview.svg`;
  }
}
