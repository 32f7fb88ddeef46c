import { isPayerLocale } from '../../common/i18n/index.js';
import { type PayerTranslator, payerTranslator } from '../../common/payer-language/index.js';
import { CORE_FIELDS, type FormTexts, formTextsIn, type Frequency, methodLabel, type PaymentForm } from '../forms/index.js';
import { CHECKOUT_GATEWAYS, gatewayMethods } from '../../common/gateway-catalog/index.js';
import { escapeHtml } from '../../common/html/index.js';

/** What a confirmation email says about a payment; the payments module maps its record to this. */
export interface PaymentEmailFacts {
  payment_id: number | string;
  /** Minor units of `currency` */
  amount: number;
  currency: string;
  frequency: Frequency;
  /** The plan's title as written (the merchant's notification) */
  plan_title?: string | null;
  /** The plan's position in the form's plans: the payer's email shows its title in the payer's language */
  plan_index?: number | null;
  gateway: string;
  payment_method: string;
  mode: 'test' | 'live';
  email_address: string;
  first_name?: string | null;
  last_name?: string | null;
  custom_fields?: Record<string, string>;
  /** ISO 8601 UTC */
  completed_at: string;
}

export interface EmailAddress {
  name: string;
  address: string;
}

export interface EmailMessage {
  kind: 'admin' | 'payer';
  from: EmailAddress;
  to: string;
  replyTo?: string;
  subject: string;
  text: string;
  html: string;
  /** `<…@…>`: a stable Message-ID, so a resend of the same message is recognisable; nodemailer makes one up when absent. */
  messageId?: string;
}

export interface EmailBuildOptions {
  /** Sender address; the display name comes from the form's `from_name` */
  fromAddress: string;
  /** Put before each subject, e.g. "[Test] " for the builder's sample emails */
  subjectPrefix?: string;
  /** The payer's self-service link (`{PUBLIC_BASE_URL}/pay/manage/{token}`), shown in the payer's email */
  manageUrl?: string;
  /**
   * The payer's language for the payer's emails (the locale the payment's page used, else the
   * site's default); absent or not a payer language: English. The merchant's emails stay English.
   */
  locale?: string | null;
}

/** The translator of a payer email. */
export function payerEmailTranslator(options: EmailBuildOptions): PayerTranslator {
  return payerTranslator(isPayerLocale(options.locale) ? options.locale : 'en');
}

/** A moment in a payer's email: English keeps the ISO 8601 text it always had; the other languages write it their way. */
export function emailMoment(t: PayerTranslator, iso: string): string {
  return t.locale === 'en' ? iso : t.dateTime(iso);
}

/** An amount with its interval in the payer's language ("$9.99 / month", "9,99 € / Monat"). */
export function emailAmount(t: PayerTranslator, amount: number, currency: string, frequency: Frequency): string {
  const money = t.money(amount, currency);
  return frequency === 'one-time' ? money : t.t('price.recurring', { amount: money, interval: t.t(`freq.${frequency}`) });
}


type EmailForm = Pick<PaymentForm, 'id' | 'title' | 'settings'>;

/** The form's own texts in the language of a payer's email (the rule of the hosted page: forms' `formTextsIn`). */
export function payerFormTexts(form: Pick<PaymentForm, 'settings'>, t: PayerTranslator): FormTexts {
  return formTextsIn(form.settings.translations, t.locale);
}

/** The texts of a form a payment email shows: the title, the paid plan's title, the fields' labels and the chosen choices. */
interface EmailTexts {
  title: string;
  planTitle: string | null | undefined;
  fieldLabel: (field: PaymentForm['settings']['fields'][number]) => string;
  /** What a field's stored value reads as (a select field's chosen choice in the email's language) */
  fieldValue: (field: PaymentForm['settings']['fields'][number], value: string) => string;
}

/**
 * Builds the emails a completed payment of a form sends: always the site owner's notification
 * (to `email.email_to`), and the payer's confirmation when the form's submit actions include
 * `email`. Pure: the same input gives the same messages; sending is MailService's job.
 */
export function buildPaymentEmails(form: EmailForm, payment: PaymentEmailFacts, options: EmailBuildOptions): EmailMessage[] {
  const { settings } = form;
  const en = payerTranslator('en');
  const amount = emailAmount(en, payment.amount, payment.currency, payment.frequency);
  const payerName = [payment.first_name, payment.last_name].filter(Boolean).join(' ') || payment.email_address;
  const placeholders: Record<string, string> = {
    form_title: form.title,
    amount,
    payer_name: payerName,
    payer_email: payment.email_address,
    payment_id: String(payment.payment_id),
  };
  const from = { name: settings.email.from_name, address: options.fromAddress };
  const prefix = options.subjectPrefix ?? '';
  const details = detailRows(form, payment, { title: form.title, planTitle: payment.plan_title, fieldLabel: (field) => field.label, fieldValue: (_field, value) => value }, amount, payerName, en, false);

  const messages: EmailMessage[] = [
    {
      kind: 'admin',
      from,
      to: settings.email.email_to,
      replyTo: payment.email_address,
      subject: prefix + fillSubject(settings.email.admin_subject, placeholders),
      ...body(`New payment on "${form.title}"`, [`${payerName} paid ${amount}.`], details, en),
    },
  ];
  if (settings.submit_actions.includes('email')) {
    // The payer's confirmation in the payer's language, with the form's own texts of that language where it has them.
    const t = payerEmailTranslator(options);
    const texts = payerFormTexts(form, t);
    const planIndex = payment.plan_index ?? null;
    const plan = planIndex === null ? undefined : settings.plans[planIndex];
    const payerTexts: EmailTexts = {
      title: texts.title(form.title),
      planTitle: plan && planIndex !== null ? texts.planTitle(plan, planIndex) : payment.plan_title,
      fieldLabel: (field) => texts.fieldLabel(field),
      fieldValue: (field, value) => (field.type === 'select' ? texts.optionLabel(field, value) : value),
    };
    const payerAmount = emailAmount(t, payment.amount, payment.currency, payment.frequency);
    const lines = [greeting(t, payment.first_name), t.t('mail.confirmation.thanks', { amount: payerAmount, form: payerTexts.title })];
    const successMessage = texts.successMessage(settings.success_message ?? null);
    if (successMessage) lines.push(successMessage);
    messages.push({
      kind: 'payer',
      from,
      to: payment.email_address,
      replyTo: settings.email.email_to,
      subject: prefix + fillSubject(texts.payerSubject(settings.email.payer_subject), { ...placeholders, form_title: payerTexts.title, amount: payerAmount }),
      ...body(t.t('mail.confirmation.heading'), lines, detailRows(form, payment, payerTexts, payerAmount, payerName, t, true), t, options.manageUrl),
    });
  }
  return messages;
}

/** What the payer's refund email says: the refund and the payment it gives money back from. */
export interface RefundEmailFacts {
  payment_id: number;
  /** Minor units of `currency` */
  refund_amount: number;
  currency: string;
  email_address: string;
  first_name?: string | null;
  /** Whether the payment is now refunded in full */
  full: boolean;
  /** ISO 8601 UTC */
  refunded_at: string;
}

/**
 * The payer's email about a refund (made here or at the provider): the amount and the payment. It
 * never carries the refund's internal note or reason.
 */
export function buildRefundEmail(form: Pick<PaymentForm, 'title' | 'settings'>, refund: RefundEmailFacts, options: EmailBuildOptions): EmailMessage {
  const t = payerEmailTranslator(options);
  const title = payerFormTexts(form, t).title(form.title);
  const amount = t.money(refund.refund_amount, refund.currency);
  const lines = [greeting(t, refund.first_name), t.t('mail.refund.line', { amount, form: title, full: refund.full ? 'yes' : 'no' }), t.t('mail.refund.delay')];
  return {
    kind: 'payer',
    from: { name: form.settings.email.from_name, address: options.fromAddress },
    to: refund.email_address,
    replyTo: form.settings.email.email_to,
    subject: (options.subjectPrefix ?? '') + fillSubject(t.t('mail.refund.subject', { amount, form: title }), {}),
    ...body(
      t.t('mail.refund.heading'),
      lines,
      [
        [t.t('mail.row.form'), title],
        [t.t('mail.row.paymentId'), String(refund.payment_id)],
        [t.t('mail.row.refunded'), amount],
        [t.t('mail.row.date'), emailMoment(t, refund.refunded_at)],
      ],
      t,
      options.manageUrl,
    ),
  };
}

/** Replaces `{placeholder}`s; unknown ones stay as written. A subject is one line, at most 250 characters. */
export function fillSubject(template: string, values: Record<string, string>): string {
  const filled = template.replace(/\{([a-z_]+)\}/g, (whole, key: string) => (Object.prototype.hasOwnProperty.call(values, key) ? values[key] : whole));
  return filled.replace(/[\r\n]+/g, ' ').slice(0, 250);
}

/** "Hi Ana," or "Hello," in the payer's language. */
function greeting(t: PayerTranslator, firstName: string | null | undefined): string {
  return firstName ? t.t('mail.hi', { name: firstName }) : t.t('mail.hello');
}

/** The rows of a completed payment; the payer's (`forPayer`) leave out the mode and the payer's own email. */
function detailRows(form: EmailForm, payment: PaymentEmailFacts, texts: EmailTexts, amount: string, payerName: string, t: PayerTranslator, forPayer: boolean): Array<[string, string]> {
  const rows: Array<[string, string]> = [
    [t.t('mail.row.form'), texts.title],
    [t.t('mail.row.paymentId'), String(payment.payment_id)],
  ];
  if (texts.planTitle) rows.push([t.t('mail.row.plan'), texts.planTitle]);
  rows.push([t.t('mail.row.amount'), amount], [t.t('mail.row.payer'), payerName]);
  if (!forPayer) rows.push(['Payer email', payment.email_address]);
  rows.push([t.t('mail.row.paymentMethod'), t.methodLabel(payment.payment_method, methodLabel(payment.payment_method))]);
  const core: readonly string[] = CORE_FIELDS;
  for (const field of form.settings.fields) {
    const value = payment.custom_fields?.[field.name];
    if (!core.includes(field.name) && value !== undefined && value !== '') rows.push([texts.fieldLabel(field), texts.fieldValue(field, value)]);
  }
  if (!forPayer) rows.push(['Mode', payment.mode]);
  rows.push([t.t('mail.row.date'), emailMoment(t, payment.completed_at)]);
  return rows;
}

/**
 * A row of the text part: a multi-line value (a payer's textarea) has its later lines indented, so
 * no line of it can pass for a row of its own ("Payer email: …") in the merchant's notification.
 */
function textRow(label: string, value: string): string {
  return `${label}: ${value.replace(/\n/g, '\n    ')}`;
}

function body(heading: string, lines: string[], rows: Array<[string, string]>, t: PayerTranslator, manageUrl?: string): { text: string; html: string } {
  const manageLabel = t.t('mail.manageLink');
  const link = manageUrl ? [`${manageLabel}: ${manageUrl}`, ''] : [];
  const text = [...lines, '', ...rows.map(([label, value]) => textRow(label, value)), '', ...link].join('\n');
  const html = [
    `<!doctype html><html lang="${t.lang}"><body style="font-family:system-ui,sans-serif;color:#0f172a">`,
    `<h1 style="font-size:18px">${escapeHtml(heading)}</h1>`,
    ...lines.map((line) => `<p>${escapeHtml(line)}</p>`),
    '<table cellpadding="4" style="border-collapse:collapse">',
    ...rows.map(([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(value).replace(/\n/g, '<br>')}</td></tr>`),
    '</table>',
    ...(manageUrl ? [`<p><a href="${escapeHtml(manageUrl)}">${escapeHtml(manageLabel)}</a></p>`] : []),
    '</body></html>',
  ].join('\n');
  return { text, html };
}

/**
 * The payment a test email pretends was completed: the form's first plan and price, a payer at
 * `payerEmail`, and a sample value for every custom field.
 */
export function samplePaymentFacts(form: EmailForm, payerEmail: string, now: Date): PaymentEmailFacts {
  const plan = form.settings.plans[0];
  const price = plan.prices[0];
  const core: readonly string[] = CORE_FIELDS;
  const custom_fields: Record<string, string> = {};
  for (const field of form.settings.fields) {
    if (core.includes(field.name)) continue;
    custom_fields[field.name] =
      field.type === 'select' ? (field.options?.[0] ?? '') : field.type === 'checkbox' ? 'Yes' : field.type === 'number' ? '1' : `Sample ${field.label.toLowerCase()}`;
  }
  // The form's first gateway with methods; a form without any shows the catalog's first gateway and method.
  const [gateway, methods] = Object.entries(form.settings.payment_methods).find(([, list]) => list && list.length > 0) ?? [CHECKOUT_GATEWAYS[0], gatewayMethods(CHECKOUT_GATEWAYS[0])];
  return {
    payment_id: 'TEST',
    amount: price.amount,
    currency: price.currency,
    frequency: price.frequency,
    plan_title: plan.title,
    plan_index: 0,
    gateway,
    payment_method: methods![0],
    mode: 'test',
    email_address: payerEmail,
    first_name: 'Sample',
    last_name: 'Payer',
    custom_fields,
    completed_at: now.toISOString(),
  };
}
