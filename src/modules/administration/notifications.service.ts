import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { NotFoundError } from '../../common/errors/index.js';
import type { GatewayNotice, NoticeSeverity } from '../gateways/index.js';
import { MailService } from '../mail/index.js';
import { Outbox } from '../outbox/index.js';
import { PaymentAftermathService, RenewalNotices, type UnpaidRenewal } from '../payments/index.js';
import { formatMoney } from '../../common/money/index.js';
import type { DismissNotificationResultDto, NotificationDto } from './dashboard.dto.js';
import { NotificationDismissalEntity } from './notification-dismissal.entity.js';
import { notificationFingerprint } from './notification-fingerprint.js';

/** A notice and who raised it: a gateway id, or a module of the service (`mail`, `outbox`). */
export interface SourcedNotice extends GatewayNotice {
  source: string;
}

const SEVERITY_ORDER: Record<NoticeSeverity, number> = { error: 0, warning: 1, info: 2 };
/** Open disputes the dashboard lists one by one (the newest); the payments list filters the rest. */
const MAX_DISPUTE_NOTICES = 20;
/** Unpaid renewals the dashboard lists one by one (the newest). */
const MAX_RENEWAL_NOTICES = 20;

/** In the merchant's words: which subscription, how much, and what happens next. */
function renewalMessage(renewal: UnpaidRenewal): string {
  const what = `The renewal payment of ${formatMoney(renewal.amount, renewal.currency)} for subscription payment ${renewal.payment_id} failed on ${renewal.failed_at.slice(0, 10)}`;
  switch (renewal.subscription_status) {
    case 'canceled':
      return `${what}; the provider gave up and canceled the subscription. The payer was told (unless the form turns these emails off).`;
    case 'unpaid':
      return `${what}; the provider gave up and the subscription is unpaid. The payer was told (unless the form turns these emails off).`;
    default:
      return `${what}; the provider tries again, and the payer was emailed a link to update their card (unless the form turns these emails off).`;
  }
}

/**
 * The dashboard's notifications: the gateways' notices (through their adapters) plus the service's
 * own, each with the fingerprint of its condition, and per-user dismissals of a fingerprint.
 */
@Injectable()
export class NotificationsService {
  constructor(
    @InjectRepository(NotificationDismissalEntity) private readonly dismissals: Repository<NotificationDismissalEntity>,
    private readonly mail: MailService,
    private readonly outbox: Outbox,
    private readonly aftermath: PaymentAftermathService,
    private readonly renewals: RenewalNotices,
  ) {}

  /**
   * Notices of modules other than the gateways. `mail.outbox`: no SMTP_URL, so mail goes to the
   * outbox directory. `outbox.failed`: work after a commit (payment emails, the tagging forward)
   * that gave up after its last attempt; a newly failed item brings a dismissed one back.
   */
  async serviceNotices(): Promise<SourcedNotice[]> {
    const notices: SourcedNotice[] = [];
    if (this.mail.transportKind === 'outbox') {
      notices.push({
        source: 'mail',
        id: 'mail.outbox',
        severity: 'warning',
        // In the merchant's words: what to ask the operator (SMTP_URL) is the console's disclosure, from `setting`.
        message: 'Emails are not sent: no mail server is set up, so receipts and notifications to you and your payers are kept on the server instead.',
        setting: 'SMTP_URL',
        facts: { transport: 'outbox' },
      });
    }
    const failed = await this.outbox.failedByTopic();
    if (failed.length > 0) {
      const total = failed.reduce((sum, topic) => sum + topic.count, 0);
      const byTopic = failed.map((topic) => `${topic.topic}: ${topic.count}`).join(', ');
      notices.push({
        source: 'outbox',
        id: 'outbox.failed',
        severity: 'error',
        message: `${total} outbox item${total === 1 ? '' : 's'} failed after the last attempt (${byTopic}); the service log says why, and the payment log for payment emails.`,
        facts: { failed: total, last_failed_id: Math.max(...failed.map((topic) => topic.lastFailedId)) },
      });
    }
    notices.push(...(await this.disputeNotices()));
    notices.push(...(await this.renewalNotices()));
    return notices;
  }

  /**
   * `payments.renewal_failed.<renewal id>`: a subscription renewal whose payment failed and is still
   * unpaid (the newest 20 of the last 30 days), with what the provider does now; it shows again when
   * the subscription's status changes (the provider gave up), and goes once the invoice is paid.
   */
  private async renewalNotices(): Promise<SourcedNotice[]> {
    const unpaid = await this.renewals.unpaidRenewals(MAX_RENEWAL_NOTICES, new Date());
    return unpaid.map((renewal) => ({
      source: 'payments',
      id: `payments.renewal_failed.${renewal.renewal_id}`,
      severity: 'warning',
      message: renewalMessage(renewal),
      route: `GET /administration/payments/${renewal.payment_id}`,
      facts: { renewal: renewal.renewal_id, subscription_status: renewal.subscription_status },
    }));
  }

  /**
   * `payments.dispute.<payment id>`: a payment with an open dispute (the newest 20), with its
   * evidence due date and a link to the provider's page for it; it shows again when the dispute's
   * status changes, and goes once the dispute is settled.
   */
  private async disputeNotices(): Promise<SourcedNotice[]> {
    const open = await this.aftermath.openDisputes(MAX_DISPUTE_NOTICES);
    return open.map((dispute) => ({
      source: 'payments',
      id: `payments.dispute.${dispute.payment_id}`,
      severity: dispute.status.endsWith('needs_response') ? 'error' : 'warning',
      message:
        `Payment ${dispute.payment_id} is disputed by the payer's bank (${dispute.status.replaceAll('_', ' ')}, ${dispute.amount} ${dispute.currency} in minor units` +
        `${dispute.reason ? `, reason ${dispute.reason}` : ''}). ` +
        (dispute.evidence_due_by ? `Evidence is due by ${dispute.evidence_due_by}; respond at the provider.` : 'Follow it at the provider.'),
      route: `GET /administration/payments/${dispute.payment_id}`,
      link: dispute.dashboard_url,
      facts: { dispute: dispute.provider_dispute_id, status: dispute.status, evidence_due_by: dispute.evidence_due_by },
    }));
  }

  /** Payload entries, most severe first (stable within a severity). */
  toNotifications(notices: SourcedNotice[]): NotificationDto[] {
    return notices
      .map((notice) => ({
        id: notice.id,
        severity: notice.severity,
        message: notice.message,
        source: notice.source,
        route: notice.route ?? null,
        setting: notice.setting ?? null,
        link: notice.link ?? null,
        fingerprint: notificationFingerprint(notice.id, notice.facts),
      }))
      .sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
  }

  /** The notifications `userId` has not dismissed for their current fingerprint. */
  async visibleTo(userId: number, notifications: NotificationDto[]): Promise<NotificationDto[]> {
    const rows = await this.dismissals.find({ where: { userId } });
    const dismissed = new Set(rows.map((row) => `${row.notificationId}\n${row.fingerprint}`));
    return notifications.filter((notification) => !dismissed.has(`${notification.id}\n${notification.fingerprint}`));
  }

  /**
   * Dismisses a notification currently raised (404 otherwise) for `userId` and its current
   * fingerprint; dismissing again replaces the stored fingerprint (idempotent for the same one).
   */
  async dismiss(userId: number, id: string, notifications: NotificationDto[]): Promise<DismissNotificationResultDto> {
    const notification = notifications.find((candidate) => candidate.id === id);
    if (!notification) throw new NotFoundError('Notification');
    await this.dismissals
      .createQueryBuilder()
      .insert()
      .into(NotificationDismissalEntity)
      .values({ userId, notificationId: id, fingerprint: notification.fingerprint, dismissedAt: new Date() })
      .orUpdate(['fingerprint', 'dismissed_at'], ['user_id', 'notification_id'])
      .execute();
    return { success: true, message: 'Notification dismissed.', id, fingerprint: notification.fingerprint };
  }
}
