import { escapeHtml } from '../../common/html/index.js';
import { type PayerTranslator, payerTranslator } from '../../common/payer-language/index.js';
import { formTextsIn } from '../forms/index.js';
import { FORM_STYLESHEET_PATH, pageMessagesElement } from '../form-view/index.js';
import { PAYER_MANAGE_PATH } from '../payer-links/index.js';
import type { PayerPaymentView, PayerSession } from './payer-manage.service.js';

/** What the payment was for, in the page's language: the form's version of its title, as written, or the page's word for a payment. */
function formTitle(view: PayerPaymentView, t: PayerTranslator): string {
  return view.formTitle === null ? t.t('manage.untitledPayment') : formTextsIn(view.formTranslations, t.locale).title(view.formTitle);
}

/** Who was paid: the form's sender name, else its title (in the page's language), else the page's word for the merchant. */
function merchantName(view: PayerPaymentView, t: PayerTranslator): string {
  return view.fromName ?? (view.formTitle === null ? t.t('manage.unnamedMerchant') : formTitle(view, t));
}

/** The page's chrome: the form stylesheet (no inline style, the hosted page's CSP), a main landmark, one h1. */
function page(t: PayerTranslator, title: string, content: string, head: string[] = []): string {
  return [
    `<!doctype html><html lang="${escapeHtml(t.lang)}"><head>`,
    '<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title><link rel="icon" href="data:,"><link rel="stylesheet" href="${FORM_STYLESHEET_PATH}">`,
    ...head,
    '</head>',
    `<body><main class="payer-manage"><h1>${escapeHtml(title)}</h1>${content}</main></body></html>`,
  ].join('');
}

function linkBase(session: PayerSession): string {
  return `${PAYER_MANAGE_PATH}/${session.token}`;
}

/** The form that asks for a fresh link by email (the not-found page, `/pay/manage`). */
function requestLinkForm(t: PayerTranslator): string {
  return [
    `<form method="post" action="${PAYER_MANAGE_PATH}/link" class="request-link">`,
    `<div class="field"><label for="email_address">${escapeHtml(t.t('manage.request.label'))}</label>`,
    '<input type="email" id="email_address" name="email_address" autocomplete="email" required maxlength="254"></div>',
    `<button type="submit">${escapeHtml(t.t('manage.request.button'))}</button></form>`,
  ].join('');
}

/** `/pay/manage`: ask for a link. */
export function requestLinkPage(t: PayerTranslator = payerTranslator('en'), refused = false): string {
  const alert = refused ? `<p class="failure" role="alert">${escapeHtml(t.t('manage.request.invalid'))}</p>` : '';
  return page(t, t.t('manage.request.title'), `<p>${escapeHtml(t.t('manage.request.text'))}</p>${alert}${requestLinkForm(t)}`);
}

/** The answer to a link request: the same whether or not the address has paid here. */
export function linkRequestedPage(t: PayerTranslator = payerTranslator('en')): string {
  return page(t, t.t('manage.requested.title'), `<p class="success" role="status">${escapeHtml(t.t('manage.requested.text'))}</p>`);
}

/** A bad, tampered, revoked or expired link (and a payment not the link's): one page for all. */
export function linkNotFoundPage(t: PayerTranslator = payerTranslator('en')): string {
  return page(t, t.t('manage.notFound.title'), `<p>${escapeHtml(t.t('manage.notFound.text'))}</p>${requestLinkForm(t)}`);
}

/** The form asking, from a link too old to act, for a fresh link to the same address. */
function freshLinkForm(session: PayerSession, t: PayerTranslator): string {
  const label = t.t('manage.fresh.button');
  return [
    `<form method="post" action="${linkBase(session)}/link" class="fresh-link">`,
    `<input type="hidden" name="csrf_token" value="${escapeHtml(session.csrf)}">`,
    `<button type="submit">${escapeHtml(label)}</button></form>`,
  ].join('');
}

/** A date: English keeps its ISO 8601 day (2026-11-29); the other languages write it their way. */
function date(t: PayerTranslator, iso: string): string {
  return t.locale === 'en' ? iso.slice(0, 10) : t.date(iso);
}

const STATUSES = ['completed', 'processing', 'failed', 'canceled', 'pending'];

function statusLabel(t: PayerTranslator, status: string): string {
  return STATUSES.includes(status) ? t.t(`manage.status.${status}`) : status;
}

function subscriptionNote(view: PayerPaymentView, t: PayerTranslator): string {
  const { payment } = view;
  if (payment.parent_payment_id !== null || payment.frequency === 'one-time' || !payment.provider_subscription_ref) return '';
  if (payment.subscription_cancel_at_period_end) {
    return payment.subscription_cancels_at ? t.t('manage.sub.endsOn', { date: date(t, payment.subscription_cancels_at) }) : t.t('manage.sub.endsAtPeriod');
  }
  if (payment.subscription_status) return t.t('manage.sub.status', { status: payment.subscription_status.replace(/_/g, ' ') });
  return '';
}

/** The list of a payer's payments with their receipts and, for a young enough link, the subscription actions. */
export function paymentsPage(session: PayerSession, views: PayerPaymentView[], notice?: string, t: PayerTranslator = payerTranslator('en')): string {
  const base = linkBase(session);
  const rows = views.map((view) => {
    const { payment } = view;
    const of = `<span class="visually-hidden">${escapeHtml(t.t('manage.ofPayment', { id: payment.id }))}</span>`;
    const actions = [`<a href="${base}/receipts/${payment.id}">${escapeHtml(t.t('manage.receiptLink'))}${of}</a>`];
    if (session.canAct && view.cancelable) actions.push(`<a href="${base}/subscriptions/${payment.id}/cancel">${escapeHtml(t.t('manage.cancelLink'))}${of}</a>`);
    if (session.canAct && view.cardUpdatable) actions.push(`<a href="${base}/subscriptions/${payment.id}/card">${escapeHtml(t.t('manage.cardLink'))}${of}</a>`);
    const note = subscriptionNote(view, t);
    return [
      `<tr id="payment-${payment.id}">`,
      `<td>${escapeHtml(date(t, payment.created_at))}</td>`,
      `<td>${escapeHtml(formTitle(view, t))}${note ? `<br><small>${escapeHtml(note)}</small>` : ''}</td>`,
      `<td>${escapeHtml(t.money(payment.amount, payment.currency))}</td>`,
      `<td>${escapeHtml(statusLabel(t, payment.status))}</td>`,
      `<td>${payment.amount_refunded > 0 ? escapeHtml(t.money(payment.amount_refunded, payment.currency)) : '—'}</td>`,
      `<td>${actions.join(' · ')}</td>`,
      '</tr>',
    ].join('');
  });
  const act = views.some((view) => view.cancelable || view.cardUpdatable) && !session.canAct;
  const content = [
    notice ? `<p class="success" role="status">${escapeHtml(notice)}</p>` : '',
    `<p>${escapeHtml(t.t('manage.list.intro', { email: session.email }))}</p>`,
    act ? `<div class="notice"><p>${escapeHtml(t.t('manage.list.act'))}</p>${freshLinkForm(session, t)}</div>` : '',
    views.length === 0
      ? `<p>${escapeHtml(t.t('manage.list.empty'))}</p>`
      : [
          `<table class="payer-payments"><caption class="visually-hidden">${escapeHtml(t.t('manage.list.title'))}</caption>`,
          `<thead><tr>${['date', 'for', 'amount', 'status', 'refunded', 'actions'].map((column) => `<th scope="col">${escapeHtml(t.t(`manage.col.${column}`))}</th>`).join('')}</tr></thead>`,
          `<tbody>${rows.join('')}</tbody></table>`,
        ].join(''),
  ];
  return page(t, t.t('manage.list.title'), content.join(''));
}

/** The provider's reference a payer (or their bank) can quote: the capture of an order, else the provider payment. */
function providerReference(view: PayerPaymentView): string {
  return view.payment.provider_capture_ref ?? view.payment.provider_payment_ref ?? '—';
}

/** A printable receipt: merchant, form, amount, our reference and the provider's. Never a card number beyond its last four digits. */
export function receiptPage(session: PayerSession, view: PayerPaymentView, t: PayerTranslator = payerTranslator('en')): string {
  const { payment } = view;
  const rows: Array<[string, string]> = [
    [t.t('mail.row.merchant'), merchantName(view, t)],
    [t.t('mail.row.form'), formTitle(view, t)],
    [t.t('mail.row.amount'), t.money(payment.amount, payment.currency)],
    [t.t('mail.row.status'), statusLabel(t, payment.status)],
    [t.t('mail.row.date'), t.locale === 'en' ? payment.created_at.replace('T', ' ').slice(0, 16) + ' UTC' : t.dateTime(payment.created_at)],
    [t.t('mail.row.paymentReference'), String(payment.id)],
    [t.t('manage.row.providerReference'), providerReference(view)],
  ];
  if (payment.card_brand && payment.card_last4) rows.push([t.t('manage.row.card'), t.t('manage.row.cardValue', { brand: payment.card_brand, last4: payment.card_last4 })]);
  if (payment.amount_refunded > 0) rows.push([t.t('mail.row.refunded'), t.money(payment.amount_refunded, payment.currency)]);
  if (payment.mode === 'test') rows.push([t.t('manage.row.mode'), t.t('manage.row.testMode')]);
  const table = `<table class="receipt">${rows.map(([label, value]) => `<tr><th scope="row">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`).join('')}</table>`;
  return page(t, t.t('manage.receipt.title'), `${table}<p><a href="${linkBase(session)}">${escapeHtml(t.t('manage.back'))}</a></p>`);
}

/** The confirmation step of a cancellation: what happens, and the button that does it. */
export function cancelConfirmPage(session: PayerSession, view: PayerPaymentView, t: PayerTranslator = payerTranslator('en')): string {
  const base = linkBase(session);
  const { payment } = view;
  return page(
    t,
    t.t('manage.cancel.title'),
    [
      `<p>${escapeHtml(t.t('manage.cancel.text', { form: formTitle(view, t), amount: t.money(payment.amount, payment.currency) }))}</p>`,
      `<form method="post" action="${base}/subscriptions/${payment.id}/cancel">`,
      `<input type="hidden" name="csrf_token" value="${escapeHtml(session.csrf)}">`,
      `<button type="submit">${escapeHtml(t.t('manage.cancel.button'))}</button></form>`,
      `<p><a href="${base}">${escapeHtml(t.t('manage.cancel.keep'))}</a></p>`,
    ].join(''),
  );
}

/** A link older than 24 hours asked to act: offer a fresh one. */
export function tooOldToActPage(session: PayerSession, t: PayerTranslator = payerTranslator('en')): string {
  return page(t, t.t('manage.tooOld.title'), `<p>${escapeHtml(t.t('manage.tooOld.text'))}</p>${freshLinkForm(session, t)}`);
}

/** A refusal of an action (the subscription cannot be changed now, the provider failed), in words. */
export function actionFailedPage(session: PayerSession, message: string, t: PayerTranslator = payerTranslator('en')): string {
  return page(t, t.t('manage.failed.title'), `<p class="failure" role="alert">${escapeHtml(message)}</p><p><a href="${linkBase(session)}">${escapeHtml(t.t('manage.back'))}</a></p>`);
}

/** The card page: the gateway's element in its container (the slice's driver mounts it), the routes its script calls. */
export function cardPage(
  session: PayerSession,
  view: PayerPaymentView,
  scripts: { pageScript: string; nonce: string; container: string },
  t: PayerTranslator = payerTranslator('en'),
): string {
  const base = linkBase(session);
  return page(
    t,
    t.t('manage.card.title'),
    [
      `<p>${escapeHtml(t.t('manage.card.text', { form: formTitle(view, t), due: view.payment.subscription_status === 'past_due' ? 'yes' : 'no' }))}</p>`,
      `<form id="card-form" class="form-page" data-setup-url="${base}/subscriptions/${view.payment.id}/card/setup" data-card-url="${base}/subscriptions/${view.payment.id}/card" data-done-url="${base}" data-csrf-token="${escapeHtml(session.csrf)}">`,
      scripts.container,
      `<button type="submit" id="card-submit" disabled>${escapeHtml(t.t('manage.card.save'))}</button>`,
      '<p id="status" role="status" aria-live="polite"></p></form>',
      // The card script's and the driver's texts in the payer's language.
      pageMessagesElement(t),
      `<p><a href="${base}">${escapeHtml(t.t('manage.back'))}</a></p>`,
    ].join(''),
    [`<script src="${escapeHtml(scripts.pageScript)}" nonce="${escapeHtml(scripts.nonce)}" defer></script>`],
  );
}
