import { Inject, Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/index.js';
import { APP_CONFIG, type AppConfig, REST_NAMESPACE } from '../../config/index.js';
import { type RenderMethod, renderFormPage, toPayerForm } from '../form-view/index.js';
import { FormsService, methodLabel, parseFormSettings, type PaymentFormSettings } from '../forms/index.js';
import { gatewayMethods, GatewayRegistry, GatewayStateService } from '../gateways/index.js';
import { IdentityService } from '../identity/index.js';
import { MailService, samplePaymentFacts } from '../mail/index.js';
import { TemplatesService } from '../templates/index.js';
import { buildFormBuilderData } from './form-builder-schema.js';
import type { BuilderDataDto, LivePreviewDto, PreviewSettingsOverridesDto, TestEmailDto, TestEmailResultDto } from './form-builder.dto.js';

/** A new form starts as this bundled template. */
const NEW_FORM_TEMPLATE = 'simple-payment';
const TEST_SUBJECT_PREFIX = '[Test] ';

/** The form builder's server side: its field map, the live preview and the test email. */
@Injectable()
export class FormBuilderService {
  constructor(
    private readonly forms: FormsService,
    private readonly templates: TemplatesService,
    private readonly gateways: GatewayStateService,
    private readonly registry: GatewayRegistry,
    private readonly mail: MailService,
    private readonly identity: IdentityService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async builderData(id: number): Promise<BuilderDataDto> {
    const form = await this.forms.getById(id);
    const template = this.templates.getFormTemplate(NEW_FORM_TEMPLATE);
    return buildFormBuilderData(form, {
      defaults: { title: 'Payment form', status: 'draft', settings: template.settings },
      livePreviewUrl: `${this.config.publicBaseUrl}/${this.config.restRoot}/${REST_NAMESPACE}/administration/payment-forms/${form.id}/live-preview`,
    });
  }

  /**
   * HTML of the form with unsaved overrides applied: each top-level settings key given replaces
   * the saved one, and the result must be valid settings as a whole. Nothing is stored. Drawn by
   * the hosted page's renderer, as a preview (marked, payment disabled, no script).
   */
  async livePreview(id: number, overrides: LivePreviewDto): Promise<string> {
    const form = await this.forms.getById(id);
    const settings = overrides.settings ? mergeOverrides(form.settings, overrides.settings) : form.settings;
    return renderFormPage(toPayerForm(form.id, overrides.title ?? form.title, settings), { purpose: 'preview', methods: await this.previewMethods(settings) });
  }

  /** The emails a completed payment of the saved form would send, for a sample payment. Needs edit access. */
  async sendTestEmail(user: AuthenticatedUser, id: number, body: TestEmailDto): Promise<TestEmailResultDto> {
    const form = await this.forms.getEditable(user, id);
    const payerEmail = body.payer_email ?? (await this.identity.findUserByLogin(user.login)).email;
    const emails = await this.mail.sendPaymentEmails(form, samplePaymentFacts(form, payerEmail, new Date()), TEST_SUBJECT_PREFIX);
    const where = this.mail.transportKind === 'smtp' ? 'through the SMTP server' : `to the outbox (${this.mail.outboxDir})`;
    return { success: true, message: `Sent ${emails.length} test email(s) ${where}.`, transport: this.mail.transportKind, emails };
  }

  /** Every method the form enables, in catalog order; those the site has not activated are shown disabled. */
  private async previewMethods(settings: PaymentFormSettings): Promise<RenderMethod[]> {
    const methods: RenderMethod[] = [];
    for (const adapter of this.registry.all()) {
      const enabled = settings.payment_methods[adapter.id] ?? [];
      if (enabled.length === 0) continue;
      const active = await this.gateways.getActiveMethods(adapter.id);
      for (const method of gatewayMethods(adapter.id).filter((candidate) => enabled.includes(candidate))) {
        const available = active.includes(method);
        methods.push({
          gateway: adapter.id,
          method,
          label: methodLabel(method),
          available,
          ...(available ? {} : { note: 'not active on this site' }),
          oneTimeOnly: !adapter.supportsRecurring,
        });
      }
    }
    return methods;
  }
}

function mergeOverrides(saved: PaymentFormSettings, overrides: PreviewSettingsOverridesDto): PaymentFormSettings {
  const merged: Record<string, unknown> = { ...saved };
  for (const [key, value] of Object.entries(overrides)) if (value !== undefined) merged[key] = value;
  return parseFormSettings(merged, 'settings.');
}
