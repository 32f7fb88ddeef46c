import { escapeHtml } from '../../common/html/index.js';
import type { PayerTranslator } from '../../common/payer-language/index.js';
import type { Frequency, PaymentForm } from '../forms/index.js';
import { emailAmount, emailMoment, type EmailBuildOptions, type EmailMessage, fillSubject, payerEmailTranslator, payerFormTexts } from './payment-email.builder.js';

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
  const t = payerEmailTranslator(options);
  const merchant = form.settings.email.from_name;
  const title = payerFormTexts(form, t).title(form.title);
  const amount = emailAmount(t, receipt.amount, receipt.currency, receipt.frequency);
  const rows: Array<[string, string]> = [
    [t.t('mail.row.merchant'), merchant],
    [t.t('mail.row.form'), title],
    [t.t('mail.row.amount'), amount],
  ];
  if (receipt.amount_refunded > 0) rows.push([t.t('mail.row.refunded'), t.money(receipt.amount_refunded, receipt.currency)]);
  rows.push(
    [t.t('mail.row.paymentReference'), String(receipt.payment_id)],
    [t.t('mail.row.providerReference'), receipt.provider_reference ?? '—'],
    [t.t('mail.row.date'), emailMoment(t, receipt.paid_at)],
  );
  return message(form, receipt.email_address, options, t, {
    subject: t.t('mail.receipt.subject', { merchant, form: title }),
    heading: t.t('mail.receipt.heading'),
    lines: [greeting(t, receipt.first_name), t.t('mail.receipt.line', { amount, merchant })],
    rows,
    link: { text: t.t('mail.receipt.link'), url: receipt.manage_url },
  });
}

/** The payer's email about one failed attempt to pay a renewal, with the provider's next attempt and the card-update link. */
export function buildRenewalFailedEmail(form: NoticeForm, failure: RenewalFailedEmailFacts, options: EmailBuildOptions): EmailMessage {
  const t = payerEmailTranslator(options);
  const merchant = form.settings.email.from_name;
  const title = payerFormTexts(form, t).title(form.title);
  const amount = t.money(failure.amount, failure.currency);
  // English keeps its ISO dates; the other languages write the date their way.
  const nextDate = failure.next_attempt_at ? (t.locale === 'en' ? failure.next_attempt_at.slice(0, 10) : t.date(failure.next_attempt_at)) : null;
  const next = nextDate ? t.t('mail.failed.next', { date: nextDate }) : t.t('mail.failed.noNext');
  return message(form, failure.email_address, options, t, {
    subject: t.t('mail.failed.subject', { amount, form: title }),
    heading: t.t('mail.failed.heading'),
    lines: [greeting(t, failure.first_name), t.t('mail.failed.line', { amount, form: title, merchant }), next],
    rows: [
      [t.t('mail.row.merchant'), merchant],
      [t.t('mail.row.form'), title],
      [t.t('mail.row.amount'), amount],
      [t.t('mail.row.subscription'), emailAmount(t, failure.amount, failure.currency, failure.frequency)],
      [t.t('mail.row.paymentReference'), String(failure.payment_id)],
      [t.t('mail.row.providerReference'), failure.invoice_reference],
      [t.t('mail.row.attempt'), String(failure.attempt)],
      [t.t('mail.row.nextAttempt'), failure.next_attempt_at ? emailMoment(t, failure.next_attempt_at) : t.t('mail.none')],
    ],
    link: { text: t.t('mail.failed.link'), url: failure.manage_url },
  });
}

/** The payer's one email when the provider gives up on the unpaid renewal. */
export function buildRenewalEndedEmail(form: NoticeForm, ended: RenewalEndedEmailFacts, options: EmailBuildOptions): EmailMessage {
  const t = payerEmailTranslator(options);
  const merchant = form.settings.email.from_name;
  const title = payerFormTexts(form, t).title(form.title);
  const status = ended.status === 'unpaid' ? 'unpaid' : 'canceled';
  return message(form, ended.email_address, options, t, {
    subject: t.t('mail.ended.subject', { status, form: title }),
    heading: t.t('mail.ended.heading'),
    lines: [greeting(t, ended.first_name), t.t('mail.ended.line', { status, form: title, merchant }), t.t('mail.ended.remains')],
    rows: [
      [t.t('mail.row.merchant'), merchant],
      [t.t('mail.row.form'), title],
      [t.t('mail.row.subscription'), emailAmount(t, ended.amount, ended.currency, ended.frequency)],
      [t.t('mail.row.paymentReference'), String(ended.payment_id)],
      [t.t('mail.row.status'), ended.status],
    ],
    link: { text: t.t('mail.ended.link'), url: ended.manage_url },
  });
}

function greeting(t: PayerTranslator, firstName: string | null | undefined): string {
  return firstName ? t.t('mail.hi', { name: firstName }) : t.t('mail.hello');
}

interface NoticeContent {
  subject: string;
  heading: string;
  lines: string[];
  rows: Array<[string, string]>;
  link: { text: string; url: string };
}

function message(form: NoticeForm, to: string, options: EmailBuildOptions, t: PayerTranslator, content: NoticeContent): EmailMessage {
  // A value never starts a line of its own in the text part (a name cannot pass for a row).
  const text = [...content.lines, '', `${content.link.text}: ${content.link.url}`, '', ...content.rows.map(([label, value]) => `${label}: ${value.replace(/\n/g, '\n    ')}`), ''].join(
    '\n',
  );
  const html = [
    `<!doctype html><html lang="${t.lang}"><body style="font-family:system-ui,sans-serif;color:#0f172a">`,
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
