import { escapeHtml } from '../../common/html/index.js';
import { formatMoney } from '../../common/money/index.js';
import { FORM_STYLESHEET_PATH } from '../form-view/index.js';
import { PAYER_MANAGE_PATH } from '../payer-links/index.js';
import type { PayerPaymentView, PayerSession } from './payer-manage.service.js';

/** The page's chrome: the form stylesheet (no inline style, the hosted page's CSP), a main landmark, one h1. */
function page(title: string, content: string, head: string[] = []): string {
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
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
function requestLinkForm(): string {
  return [
    `<form method="post" action="${PAYER_MANAGE_PATH}/link" class="request-link">`,
    '<div class="field"><label for="email_address">Your email address</label>',
    '<input type="email" id="email_address" name="email_address" autocomplete="email" required maxlength="254"></div>',
    '<button type="submit">Email me a new link</button></form>',
  ].join('');
}

/** `/pay/manage`: ask for a link. */
export function requestLinkPage(): string {
  return page('Manage your payments', `<p>Enter the address you paid with: we email you a link to your receipts and subscriptions.</p>${requestLinkForm()}`);
}

/** The answer to a link request: the same whether or not the address has paid here. */
export function linkRequestedPage(): string {
  return page(
    'Check your email',
    '<p class="success" role="status">If this address paid on this site, a link to manage its payments is on its way. It works for 30 days; cancelling or changing a card needs a link at most 24 hours old.</p>',
  );
}

/** A bad, tampered, revoked or expired link (and a payment not the link's): one page for all. */
export function linkNotFoundPage(): string {
  return page('This link does not work', `<p>The link is wrong, too old, or was revoked. We can email you a new one.</p>${requestLinkForm()}`);
}

/** The form asking, from a link too old to act, for a fresh link to the same address. */
function freshLinkForm(session: PayerSession, label = 'Email me a fresh link'): string {
  return [
    `<form method="post" action="${linkBase(session)}/link" class="fresh-link">`,
    `<input type="hidden" name="csrf_token" value="${escapeHtml(session.csrf)}">`,
    `<button type="submit">${escapeHtml(label)}</button></form>`,
  ].join('');
}

function date(iso: string): string {
  return iso.slice(0, 10);
}

const STATUS_LABELS: Record<string, string> = { completed: 'Paid', processing: 'Processing', failed: 'Failed', canceled: 'Canceled', pending: 'Pending' };

function subscriptionNote(view: PayerPaymentView): string {
  const { payment } = view;
  if (payment.parent_payment_id !== null || payment.frequency === 'one-time' || !payment.provider_subscription_ref) return '';
  if (payment.subscription_cancel_at_period_end) return `Subscription ends${payment.subscription_cancels_at ? ` on ${date(payment.subscription_cancels_at)}` : ' at the end of the period'}.`;
  if (payment.subscription_status) return `Subscription: ${payment.subscription_status.replace(/_/g, ' ')}.`;
  return '';
}

/** The list of a payer's payments with their receipts and, for a young enough link, the subscription actions. */
export function paymentsPage(session: PayerSession, views: PayerPaymentView[], notice?: string): string {
  const base = linkBase(session);
  const rows = views.map((view) => {
    const { payment } = view;
    const actions = [`<a href="${base}/receipts/${payment.id}">Receipt<span class="visually-hidden"> of payment ${payment.id}</span></a>`];
    if (session.canAct && view.cancelable) actions.push(`<a href="${base}/subscriptions/${payment.id}/cancel">Cancel subscription<span class="visually-hidden"> of payment ${payment.id}</span></a>`);
    if (session.canAct && view.cardUpdatable) actions.push(`<a href="${base}/subscriptions/${payment.id}/card">Change card<span class="visually-hidden"> of payment ${payment.id}</span></a>`);
    const note = subscriptionNote(view);
    return [
      `<tr id="payment-${payment.id}">`,
      `<td>${escapeHtml(date(payment.created_at))}</td>`,
      `<td>${escapeHtml(view.formTitle)}${note ? `<br><small>${escapeHtml(note)}</small>` : ''}</td>`,
      `<td>${escapeHtml(formatMoney(payment.amount, payment.currency))}</td>`,
      `<td>${escapeHtml(STATUS_LABELS[payment.status] ?? payment.status)}</td>`,
      `<td>${payment.amount_refunded > 0 ? escapeHtml(formatMoney(payment.amount_refunded, payment.currency)) : '—'}</td>`,
      `<td>${actions.join(' · ')}</td>`,
      '</tr>',
    ].join('');
  });
  const act = views.some((view) => view.cancelable || view.cardUpdatable) && !session.canAct;
  const content = [
    notice ? `<p class="success" role="status">${escapeHtml(notice)}</p>` : '',
    `<p>Payments made with ${escapeHtml(session.email)} on this site.</p>`,
    act ? `<div class="notice"><p>To cancel a subscription or change its card, use a link at most 24 hours old.</p>${freshLinkForm(session)}</div>` : '',
    views.length === 0
      ? '<p>There are no payments for this address.</p>'
      : [
          '<table class="payer-payments"><caption class="visually-hidden">Your payments</caption>',
          '<thead><tr><th scope="col">Date</th><th scope="col">For</th><th scope="col">Amount</th><th scope="col">Status</th><th scope="col">Refunded</th><th scope="col">Actions</th></tr></thead>',
          `<tbody>${rows.join('')}</tbody></table>`,
        ].join(''),
  ];
  return page('Your payments', content.join(''));
}

/** The provider's reference a payer (or their bank) can quote: the capture of an order, else the provider payment. */
function providerReference(view: PayerPaymentView): string {
  return view.payment.provider_capture_ref ?? view.payment.provider_payment_ref ?? '—';
}

/** A printable receipt: merchant, form, amount, our reference and the provider's. Never a card number beyond its last four digits. */
export function receiptPage(session: PayerSession, view: PayerPaymentView): string {
  const { payment } = view;
  const rows: Array<[string, string]> = [
    ['Merchant', view.merchantName],
    ['Form', view.formTitle],
    ['Amount', formatMoney(payment.amount, payment.currency)],
    ['Status', STATUS_LABELS[payment.status] ?? payment.status],
    ['Date', payment.created_at.replace('T', ' ').slice(0, 16) + ' UTC'],
    ['Payment reference', String(payment.id)],
    ["Provider's reference", providerReference(view)],
  ];
  if (payment.card_brand && payment.card_last4) rows.push(['Card', `${payment.card_brand} ending ${payment.card_last4}`]);
  if (payment.amount_refunded > 0) rows.push(['Refunded', formatMoney(payment.amount_refunded, payment.currency)]);
  if (payment.mode === 'test') rows.push(['Mode', 'Test (no money moved)']);
  const table = `<table class="receipt">${rows.map(([label, value]) => `<tr><th scope="row">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`).join('')}</table>`;
  return page('Receipt', `${table}<p><a href="${linkBase(session)}">Back to your payments</a></p>`);
}

/** The confirmation step of a cancellation: what happens, and the button that does it. */
export function cancelConfirmPage(session: PayerSession, view: PayerPaymentView): string {
  const base = linkBase(session);
  const { payment } = view;
  return page(
    'Cancel this subscription?',
    [
      `<p>${escapeHtml(view.formTitle)}: ${escapeHtml(formatMoney(payment.amount, payment.currency))}. It stays active until the end of the period already paid, then ends; no further payment is taken.</p>`,
      `<form method="post" action="${base}/subscriptions/${payment.id}/cancel">`,
      `<input type="hidden" name="csrf_token" value="${escapeHtml(session.csrf)}">`,
      '<button type="submit">Cancel at the end of the period</button></form>',
      `<p><a href="${base}">Keep it and go back</a></p>`,
    ].join(''),
  );
}

/** A link older than 24 hours asked to act: offer a fresh one. */
export function tooOldToActPage(session: PayerSession): string {
  return page('This link is too old for that', `<p>Cancelling a subscription or changing its card needs a link at most 24 hours old.</p>${freshLinkForm(session)}`);
}

/** A refusal of an action (the subscription cannot be changed now, the provider failed), in words. */
export function actionFailedPage(session: PayerSession, message: string): string {
  return page('That did not work', `<p class="failure" role="alert">${escapeHtml(message)}</p><p><a href="${linkBase(session)}">Back to your payments</a></p>`);
}

/** The card page: the gateway's element in its container (the slice's driver mounts it), the routes its script calls. */
export function cardPage(session: PayerSession, view: PayerPaymentView, scripts: { pageScript: string; nonce: string; container: string }): string {
  const base = linkBase(session);
  return page(
    'Change the card',
    [
      `<p>${escapeHtml(view.formTitle)}: the new card pays this subscription's next payments${view.payment.subscription_status === 'past_due' ? ', and the payment that is due now' : ''}.</p>`,
      `<form id="card-form" class="form-page" data-setup-url="${base}/subscriptions/${view.payment.id}/card/setup" data-card-url="${base}/subscriptions/${view.payment.id}/card" data-done-url="${base}" data-csrf-token="${escapeHtml(session.csrf)}">`,
      scripts.container,
      '<button type="submit" id="card-submit" disabled>Save this card</button>',
      '<p id="status" role="status" aria-live="polite"></p></form>',
      `<p><a href="${base}">Back to your payments</a></p>`,
    ].join(''),
    [`<script src="${escapeHtml(scripts.pageScript)}" nonce="${escapeHtml(scripts.nonce)}" defer></script>`],
  );
}
