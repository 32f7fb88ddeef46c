import { formatMoney } from '../../common/money/index.js';
import { escapeHtml } from '../../common/html/index.js';
import { FREQUENCY_LABELS, type Frequency, type PaymentForm } from '../forms/index.js';
import { type EmailBuildOptions, type EmailMessage, fillSubject } from './payment-email.builder.js';

type NoticeForm = Pick<PaymentForm, 'title' | 'settings'>;

/**
 * What a receipt says (issue 31): the merchant (the form's `email.from_name`, the name its emails
 * come from), the form, the amount, this service's payment reference and the provider's.
 */
export interface ReceiptEmailFacts {
  payment_id: number;
  /** Minor units of `currency` */
  amount: number;
  currency: string;
  frequency: Frequency;
  /** Minor units refunded so far */
  amount_refunded: number;
  email_address: string;
  first_name?: string | null;
  /** The provider's id of what took the money (a charge, an invoice, a capture) */
  provider_reference: string | null;
  /** ISO 8601 UTC: when it was paid */
  paid_at: string;
  /** `{PUBLIC_BASE_URL}/pay/manage/{token}` */
  manage_url: string;
}

/** A failed renewal attempt as the payer is told of it. */
export interface RenewalFailedEmailFacts {
  payment_id: number;
  /** Minor units of `currency`: what the invoice asks */
  amount: number;
  currency: string;
  frequency: Frequency;
  email_address: string;
  first_name?: string | null;
  /** The provider's invoice id */
  invoice_reference: string;
  /** The attempt that failed (the provider's `attempt_count`) */
  attempt: number;
  /** ISO 8601 UTC: the provider's next attempt; null when it makes none */
  next_attempt_at: string | null;
  manage_url: string;
}

/** The provider gave up on the subscription's unpaid invoice (`past_due` → `canceled` or `unpaid`). */
export interface RenewalEndedEmailFacts {
  payment_id: number;
  amount: number;
  currency: string;
  frequency: Frequency;
  email_address: string;
  first_name?: string | null;
  /** `canceled` or `unpaid` */
  status: string;
  manage_url: string;
}

/** The payer's receipt, sent again on the merchant's request (POST /administration/payments/{id}/receipt). */
export function buildReceiptEmail(form: NoticeForm, receipt: ReceiptEmailFacts, options: EmailBuildOptions): EmailMessage {
  const merchant = form.settings.email.from_name;
  const amount = money(receipt.amount, receipt.currency, receipt.frequency);
  const rows: Array<[string, string]> = [
    ['Merchant', merchant],
    ['Form', form.title],
    ['Amount', amount],
  ];
  if (receipt.amount_refunded > 0) rows.push(['Refunded', formatMoney(receipt.amount_refunded, receipt.currency)]);
  rows.push(['Payment reference', String(receipt.payment_id)], ['Provider reference', receipt.provider_reference ?? '—'], ['Date', receipt.paid_at]);
  return message(form, receipt.email_address, options, {
    subject: `Your receipt from ${merchant} for "${form.title}"`,
    heading: 'Receipt',
    lines: [greeting(receipt.first_name), `Here is the receipt of your payment of ${amount} to ${merchant}.`],
    rows,
    link: { text: 'See your payments and receipts', url: receipt.manage_url },
  });
}

/** The payer's email about one failed attempt to pay a renewal, with the provider's next attempt and the card-update link. */
export function buildRenewalFailedEmail(form: NoticeForm, failure: RenewalFailedEmailFacts, options: EmailBuildOptions): EmailMessage {
  const merchant = form.settings.email.from_name;
  const amount = formatMoney(failure.amount, failure.currency);
  const next = failure.next_attempt_at
    ? `We will try again on ${failure.next_attempt_at.slice(0, 10)}. To use another card before then, update it with the link below.`
    : 'No further attempt is planned: update your card with the link below to keep your subscription.';
  return message(form, failure.email_address, options, {
    subject: `Your payment of ${amount} for "${form.title}" did not go through`,
    heading: 'Payment failed',
    lines: [greeting(failure.first_name), `The renewal payment of ${amount} for your subscription to "${form.title}" (${merchant}) did not go through.`, next],
    rows: [
      ['Merchant', merchant],
      ['Form', form.title],
      ['Amount', amount],
      ['Subscription', money(failure.amount, failure.currency, failure.frequency)],
      ['Payment reference', String(failure.payment_id)],
      ['Provider reference', failure.invoice_reference],
      ['Attempt', String(failure.attempt)],
      ['Next attempt', failure.next_attempt_at ?? 'none'],
    ],
    link: { text: 'Update your card', url: failure.manage_url },
  });
}

/** The payer's one email when the provider gives up on the unpaid renewal. */
export function buildRenewalEndedEmail(form: NoticeForm, ended: RenewalEndedEmailFacts, options: EmailBuildOptions): EmailMessage {
  const merchant = form.settings.email.from_name;
  const what = ended.status === 'unpaid' ? 'is on hold' : 'has ended';
  return message(form, ended.email_address, options, {
    subject: `Your subscription to "${form.title}" ${what}`,
    heading: 'Subscription payment not made',
    lines: [
      greeting(ended.first_name),
      `We could not take the renewal payment for your subscription to "${form.title}" (${merchant}) after several attempts, so the subscription ${what}.`,
      'Your payments and receipts remain available with the link below.',
    ],
    rows: [
      ['Merchant', merchant],
      ['Form', form.title],
      ['Subscription', money(ended.amount, ended.currency, ended.frequency)],
      ['Payment reference', String(ended.payment_id)],
      ['Status', ended.status],
    ],
    link: { text: 'Manage your payments', url: ended.manage_url },
  });
}

function money(amount: number, currency: string, frequency: Frequency): string {
  const formatted = formatMoney(amount, currency);
  return frequency === 'one-time' ? formatted : `${formatted} / ${FREQUENCY_LABELS[frequency]}`;
}

function greeting(firstName: string | null | undefined): string {
  return firstName ? `Hi ${firstName},` : 'Hello,';
}

interface NoticeContent {
  subject: string;
  heading: string;
  lines: string[];
  rows: Array<[string, string]>;
  link: { text: string; url: string };
}

function message(form: NoticeForm, to: string, options: EmailBuildOptions, content: NoticeContent): EmailMessage {
  // A value never starts a line of its own in the text part (a name cannot pass for a row).
  const text = [...content.lines, '', `${content.link.text}: ${content.link.url}`, '', ...content.rows.map(([label, value]) => `${label}: ${value.replace(/\n/g, '\n    ')}`), ''].join(
    '\n',
  );
  const html = [
    '<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a">',
    `<h1 style="font-size:18px">${escapeHtml(content.heading)}</h1>`,
    ...content.lines.map((line) => `<p>${escapeHtml(line)}</p>`),
    `<p><a href="${escapeHtml(content.link.url)}">${escapeHtml(content.link.text)}</a></p>`,
    '<table cellpadding="4" style="border-collapse:collapse">',
    ...content.rows.map(([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(value).replace(/\n/g, '<br>')}</td></tr>`),
    '</table></body></html>',
  ].join('\n');
  return {
    kind: 'payer',
    from: { name: form.settings.email.from_name, address: options.fromAddress },
    to,
    replyTo: form.settings.email.email_to,
    subject: (options.subjectPrefix ?? '') + fillSubject(content.subject, {}),
    text,
    html,
  };
}
