import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { IsString, Matches, MaxLength } from 'class-validator';
import { Trim } from '../../common/validation/index.js';
import { CHECKOUT_GATEWAYS, type CheckoutGateway } from '../gateways/index.js';

export const QUICK_SETUP_STEP_IDS = ['connect_payment_gateway', 'connect_gateway_a_test_gateway', 'connect_gateway_a_live_gateway', 'select_template'] as const;
export type QuickSetupStepId = (typeof QUICK_SETUP_STEP_IDS)[number];
/** The console's quick setup, in order: it ends in a completed test payment (going live is a later, separate section). */
export const QUICK_SETUP_PROGRESS_STEP_IDS = ['connect_test_mode', 'create_form', 'publish_form', 'make_test_payment'] as const;
export type QuickSetupProgressStepId = (typeof QUICK_SETUP_PROGRESS_STEP_IDS)[number];
export const NOTIFICATION_SEVERITIES = ['info', 'warning', 'error'] as const;

export class QuickSetupStepDto {
  @ApiProperty({ enum: QUICK_SETUP_STEP_IDS })
  id: QuickSetupStepId;
  @ApiProperty({ enum: [0, 1] })
  is_complete: number;
}

/**
 * One step of the console's quick setup. `done` is computed from the site's state each time: a
 * step undone later (the form deleted, the gateway disconnected) is open again.
 */
export class QuickSetupProgressStepDto {
  @ApiProperty({ enum: QUICK_SETUP_PROGRESS_STEP_IDS })
  id: QuickSetupProgressStepId;
  /**
   * `connect_test_mode`: a gateway is connected in test mode and its checkout is not paused there;
   * `create_form`: a payment form exists; `publish_form`: a published form exists;
   * `make_test_payment`: a payment made in test mode is completed
   */
  done: boolean;
  /**
   * `connect_test_mode`: the gateways that can take test payments (connected in test mode, checkout not paused);
   * `make_test_payment`: those of them whose site mode is test now, so the hosted page takes test payments through them;
   * other steps: empty
   */
  // The items' schema is written out: the catalog's live list is empty when the decorator runs, so the enum's type cannot be inferred from it.
  @ApiProperty({ type: 'array', items: { type: 'string', enum: CHECKOUT_GATEWAYS as CheckoutGateway[] } })
  gateways: CheckoutGateway[];
  /**
   * `create_form`: the newest form; `publish_form` and `make_test_payment`: the newest published
   * form (the one to pay on its hosted page `/pay/{form_id}`); null when there is none
   */
  @ApiProperty({ type: 'integer', nullable: true })
  form_id: number | null;
  /** `make_test_payment`: the newest completed test payment (to see in Payments); null otherwise */
  @ApiProperty({ type: 'integer', nullable: true })
  payment_id: number | null;
}

export class DashboardWebhookContractDto {
  /** `verified` (checked automatically), `manual` (an administrator completed the manual configuration) or `paused` (checkout refused in this mode) */
  @ApiProperty({ enum: ['verified', 'manual', 'paused'] })
  state: 'verified' | 'manual' | 'paused';
  /** The gateway's own status word (gateway A: `unconfigured`, `unverified`, `verified`, `failed`) */
  status: string;
  // OpenAPI 3.0: a nullable enum must list null itself, or null fails the enum.
  @ApiProperty({ enum: ['automatic', 'manual', null] as unknown as string[], nullable: true, type: String })
  management: 'automatic' | 'manual' | null;
  /** Why the contract is not verified (never provider text) */
  @ApiProperty({ type: String, nullable: true })
  last_error: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  verified_at: string | null;
}

export class DashboardGatewayModeDto {
  /** 1 when every credential of the mode is stored */
  @ApiProperty({ enum: [0, 1] })
  is_connected: number;
  /** True when a stored key is a test key, false for live keys; null when none (or an incomplete set) are stored or the gateway cannot tell (gateway B) */
  @ApiProperty({ type: Boolean, nullable: true })
  test_keys: boolean | null;
  /** The mode's webhook settings are stored (gateway A: signing secret; gateway B: Webhook ID) */
  webhook_configured: boolean;
  /** The webhook contract that gates checkout in this mode; null for a gateway without one (gateway B) */
  @ApiProperty({ type: DashboardWebhookContractDto, nullable: true })
  webhook_contract: DashboardWebhookContractDto | null;
}

export class DashboardGatewayModesDto {
  test: DashboardGatewayModeDto;
  live: DashboardGatewayModeDto;
}

export class DashboardGatewayDto {
  /** How messages name the gateway (`gateway A`) */
  label: string;
  /** The gateway's site mode */
  @ApiProperty({ enum: ['test', 'live'] })
  mode: 'test' | 'live';
  /** 1 when the current mode is connected */
  @ApiProperty({ enum: [0, 1] })
  is_connected: number;
  /** 1 in live mode (the spec requires it for gateway A; every gateway has a mode, so every entry carries it) */
  @ApiProperty({ enum: [0, 1] })
  is_live: number;
  active_payment_methods: string[];
  /** True while checkout is paused in the current mode (webhook contract not verified); null for a gateway without such a pause */
  @ApiProperty({ type: Boolean, nullable: true })
  checkout_paused: boolean | null;
  modes: DashboardGatewayModesDto;
}

export class DashboardUpgradeDto {
  @ApiProperty({ example: 'gateway_a' })
  gateway: string;
  @ApiProperty({ example: 'gateway_a_webhook_update_1_5_3' })
  task: string;
  @ApiProperty({ example: '1.5.3' })
  release: string;
  @ApiProperty({ enum: ['scheduled', 'running', 'retrying', 'completed', 'failed'] })
  status: string;
  attempts: number;
  max_attempts: number;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  next_attempt_at: string | null;
  @ApiProperty({ type: String, nullable: true })
  last_error: string | null;
  /** Outcome per mode: `updated`, `already_current`, `skipped_manual`, `skipped_unmanaged`, `not_configured`, `endpoint_missing`, `verification_failed`, `error` */
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: { test: 'updated', live: 'skipped_manual' } })
  modes: Record<string, string>;
  @ApiProperty({ format: 'date-time' })
  scheduled_at: string;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  finished_at: string | null;
}

export class NotificationDto {
  /** Stable id: `<source>.<condition>[.<mode>]` */
  @ApiProperty({ example: 'gateway_a.checkout_paused.live' })
  id: string;
  @ApiProperty({ enum: NOTIFICATION_SEVERITIES })
  severity: (typeof NOTIFICATION_SEVERITIES)[number];
  message: string;
  /** Who raised it: a gateway id, or a module of the service (`mail`, `outbox`) */
  @ApiProperty({ example: 'gateway_a' })
  source: string;
  /** The admin route that fixes it (relative to the namespace), if one does */
  @ApiProperty({ type: String, nullable: true, example: 'POST /payment-gateway/save-webhook-settings' })
  route: string | null;
  /** The setting that fixes it (an environment variable), if one does */
  @ApiProperty({ type: String, nullable: true, example: 'SMTP_URL' })
  setting: string | null;
  /** A page outside the service where it is dealt with (a dispute at the provider's dashboard), if there is one */
  @ApiProperty({ type: String, nullable: true, example: null })
  link: string | null;
  /** Hash of the condition's facts; a dismissal holds for this fingerprint only */
  @ApiProperty({ example: '3f0c9a7d2b1e4c5a8f6d0e1b2a3c4d5e' })
  fingerprint: string;
}

export class PageBuilderStateDto {
  installed: boolean;
  active: boolean;
}

export class TemplatesSummaryDto {
  /** Bundled payment-form setting templates */
  form_templates: number;
  /** Full-page layouts the site's plan may import */
  layouts: number;
  /** Existing forms imported from a template or a layout */
  imported_forms: number;
  imported_from_form_templates: number;
  imported_from_layouts: number;
  page_builder: PageBuilderStateDto;
}

@ApiExtraModels(DashboardGatewayDto)
export class DashboardDto {
  @ApiProperty({ enum: [0, 1] })
  skipped_quick_setup: number;
  /** The four steps of the spec, in order; `is_complete` is computed from the site's state */
  quick_setup_steps: QuickSetupStepDto[];
  /** The console's quick setup, in order, up to a completed test payment (an addition to the interface's payload) */
  @ApiProperty({ type: QuickSetupProgressStepDto, isArray: true })
  quick_setup_progress: QuickSetupProgressStepDto[];
  /** One entry per gateway, keyed by gateway id (`gateway_a`, `gateway_b`) */
  @ApiProperty({ type: 'object', additionalProperties: { $ref: getSchemaPath(DashboardGatewayDto) } })
  payment_gateways: Record<string, DashboardGatewayDto>;
  /** The site's plan (CHECKOUT_PLAN) */
  @ApiProperty({ enum: ['free', 'pro'] })
  plan: 'free' | 'pro';
  /** Background upgrade tasks of the gateways that were ever scheduled (gateway A: the 1.5.3 webhook update) */
  upgrades: DashboardUpgradeDto[];
  /** Notifications of the current state not dismissed by the caller, most severe first */
  notifications: NotificationDto[];
  templates: TemplatesSummaryDto;
}

export class DismissNotificationDto {
  /** Id of a notification the dashboard currently shows */
  @ApiProperty({ example: 'mail.outbox' })
  @Trim()
  @Matches(/^[a-z0-9_.-]+$/, { message: 'id must be a notification id such as mail.outbox' })
  @MaxLength(100)
  @IsString()
  id: string;
}

export class DismissNotificationResultDto {
  @ApiProperty({ example: true })
  success: boolean;
  @ApiProperty({ example: 'Notification dismissed.' })
  message: string;
  @ApiProperty({ example: 'mail.outbox' })
  id: string;
  /** The fingerprint the dismissal holds for; a changed condition shows the notification again */
  fingerprint: string;
}

/** No fields: the route marks quick setup as skipped (any field is refused). */
export class SetQuickSetupSkipDto {}

export class QuickSetupSkipResultDto {
  @ApiProperty({ example: true })
  success: boolean;
  @ApiProperty({ example: 'Quick setup skipped.' })
  message: string;
  @ApiProperty({ enum: [1] })
  skipped_quick_setup: number;
}

export const DASHBOARD_EXAMPLE: DashboardDto = {
  skipped_quick_setup: 0,
  quick_setup_steps: [
    { id: 'connect_payment_gateway', is_complete: 1 },
    { id: 'connect_gateway_a_test_gateway', is_complete: 1 },
    { id: 'connect_gateway_a_live_gateway', is_complete: 0 },
    { id: 'select_template', is_complete: 1 },
  ],
  quick_setup_progress: [
    { id: 'connect_test_mode', done: true, gateways: ['gateway_a', 'gateway_b'], form_id: null, payment_id: null },
    { id: 'create_form', done: true, gateways: [], form_id: 12, payment_id: null },
    { id: 'publish_form', done: true, gateways: [], form_id: 12, payment_id: null },
    { id: 'make_test_payment', done: false, gateways: ['gateway_a', 'gateway_b'], form_id: 12, payment_id: null },
  ],
  payment_gateways: {
    gateway_a: {
      label: 'gateway A',
      mode: 'test',
      is_connected: 1,
      is_live: 0,
      active_payment_methods: ['ccard'],
      checkout_paused: false,
      modes: {
        test: {
          is_connected: 1,
          test_keys: true,
          webhook_configured: true,
          webhook_contract: { state: 'verified', status: 'verified', management: 'automatic', last_error: null, verified_at: '2026-11-25T10:00:00.000Z' },
        },
        live: {
          is_connected: 0,
          test_keys: null,
          webhook_configured: false,
          webhook_contract: { state: 'paused', status: 'unconfigured', management: null, last_error: null, verified_at: null },
        },
      },
    },
    gateway_b: {
      label: 'gateway B',
      mode: 'test',
      is_connected: 1,
      is_live: 0,
      active_payment_methods: ['standard_checkout'],
      checkout_paused: null,
      modes: {
        test: { is_connected: 1, test_keys: null, webhook_configured: false, webhook_contract: null },
        live: { is_connected: 0, test_keys: null, webhook_configured: false, webhook_contract: null },
      },
    },
  },
  plan: 'free',
  upgrades: [
    {
      gateway: 'gateway_a',
      task: 'gateway_a_webhook_update_1_5_3',
      release: '1.5.3',
      status: 'completed',
      attempts: 1,
      max_attempts: 5,
      next_attempt_at: null,
      last_error: null,
      modes: { test: 'updated', live: 'not_configured' },
      scheduled_at: '2026-11-25T09:00:00.000Z',
      finished_at: '2026-11-25T09:00:02.000Z',
    },
  ],
  notifications: [
    {
      id: 'gateway_b.webhook_id_missing.test',
      severity: 'warning',
      message: 'PayPal is connected in test mode without its Webhook ID: its payment updates cannot be checked and are refused. Enter the Webhook ID PayPal shows for your webhook.',
      source: 'gateway_b',
      route: 'POST /payment-gateway/save-webhook-settings',
      setting: null,
      link: null,
      fingerprint: '9b1f0c2d3e4a5b6c7d8e9f0a1b2c3d4e',
    },
    {
      id: 'mail.outbox',
      severity: 'warning',
      message: 'Emails are not sent: no mail server is set up, so receipts and notifications to you and your payers are kept on the server instead.',
      source: 'mail',
      route: null,
      setting: 'SMTP_URL',
      link: null,
      fingerprint: '0d4c2b1a9f8e7d6c5b4a3f2e1d0c9b8a',
    },
  ],
  templates: {
    form_templates: 10,
    layouts: 8,
    imported_forms: 1,
    imported_from_form_templates: 1,
    imported_from_layouts: 0,
    page_builder: { installed: false, active: false },
  },
};
