import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { Clock } from '../../src/common/clock/index.js';
import type { PaymentForm } from '../../src/modules/forms/index.js';
import { GatewayStateService } from '../../src/modules/gateways/index.js';
import { OutboxWorker } from '../../src/modules/outbox/index.js';
import { PayerLinks } from '../../src/modules/payer-links/index.js';
import { paymentRow } from '../support/app-state.js';
import { connectThroughProxy, type GatewayATestBed, startGatewayATestBed } from '../support/gateway-a.js';
import { createIntent, createRecord, finishCheckout, gatewayClient } from '../support/gateway-a-checkout.js';
import { signedEvent } from '../fakes/gateway-a/index.js';
import { GatewayAContractService } from '../../src/modules/gateway-a/index.js';
import { type GatewayBTestBed, paidGatewayBRecord, startConnectedGatewayB } from '../support/gateway-b.js';
import { createPaymentForm } from '../support/payment-fixtures.js';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/**
 * An .eml as sent, as UTF-8 text: base64 parts (nodemailer's choice for mostly non-ASCII text,
 * a Japanese email) decoded, then quoted-printable soft breaks joined and escapes decoded.
 */
function decodeEml(raw: string): string {
  const unbased = raw.replace(/(Content-Transfer-Encoding: base64\r?\n\r?\n)([A-Za-z0-9+/=\r\n]+)/g, (_whole, head: string, body: string) =>
    head + Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('latin1') + '\n',
  );
  const bytes = unbased.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_whole, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/**
 * The payer's manage page (/pay/manage/{token}): the link in the payer's emails, the list and the
 * receipts, cancelling a gateway-A subscription at the period's end through the provider, the
 * CSRF and same-origin rules of its POSTs, the link's age, revocation, and asking for a new link.
 */
describe("the payer's manage page", () => {
  let bed: GatewayATestBed;
  let form: PaymentForm;
  let origin: string;
  const t = () => bed.t;
  const outboxDir = () => join(t().config.dataDir, 'outbox');
  const emails = (): string[] => {
    try {
      return readdirSync(outboxDir())
        .sort()
        .map((file) => decodeEml(readFileSync(join(outboxDir(), file), 'utf8')));
    } catch {
      return [];
    }
  };
  const clearEmails = () => rmSync(outboxDir(), { recursive: true, force: true });
  /** The link emails sent to `address` (not its payment confirmations). */
  const linkEmailsTo = (address: string) => emails().filter((eml) => eml.includes(`To: ${address}`) && eml.includes('Subject: Your link to manage your payments'));
  const links = () => t().app.get(PayerLinks);
  const get = (path: string) => request(t().http).get(path);
  const post = (path: string, body: Record<string, string>, headers: Record<string, string> = { Origin: origin, 'Sec-Fetch-Site': 'same-origin' }) =>
    request(t().http).post(path).set(headers).type('form').send(body);
  const csrfOf = (html: string) => /name="csrf_token" value="([^"]+)"/.exec(html)?.[1] ?? '';

  beforeAll(async () => {
    bed = await startGatewayATestBed({ RATE_LIMIT_NEW_PAYMENT: '10000', RATE_LIMIT_PUBLIC_PAYMENT: '10000', RATE_LIMIT_ACCOUNT_RECOVERY: '10000' });
    const landing = await connectThroughProxy(bed, 'test');
    expect(landing.searchParams.get('gateway_a_webhook')).toBe('verified');
    await bed.t.app.get(GatewayStateService).setActiveMethods('gateway_a', ['ccard']);
    form = await createPaymentForm(bed.t, {
      submit_actions: ['email', 'message'],
      plans: [{ title: 'Monthly', prices: [{ amount: 999, currency: 'EUR', frequency: 'm_1' }] }, { title: 'Once', prices: [{ amount: 500, currency: 'EUR', frequency: 'one-time' }] }],
    });
    origin = new URL(bed.t.config.publicBaseUrl).origin;
  });
  afterAll(() => bed.close());
  afterEach(() => {
    const clock = t().app.get(Clock);
    clock.now = () => new Date();
  });

  /** A completed gateway-A payment of `email` (a subscription for plan 0, one-time for plan 1). */
  async function paid(email: string, planIndex = 0, locale?: string, on: PaymentForm = form): Promise<{ id: number; subscription: string | null }> {
    const record = await createRecord(t(), on, { plan_index: planIndex, price_index: 0, email_address: email, ...(locale ? { locale } : {}) });
    const intent = await createIntent(t(), record);
    const client = await gatewayClient(t());
    if (planIndex === 0) await client.setupIntents.confirm(intent.body.intent_id, { payment_method: 'pm_card_visa' });
    else await client.paymentIntents.confirm(intent.body.intent_id, { payment_method: 'pm_card_visa' });
    const done = await finishCheckout(t(), record, { intent_id: intent.body.intent_id });
    expect(done.body.status).toBe('completed');
    const row = await paymentRow(t(), record.sync.payment_id);
    return { id: record.sync.payment_id, subscription: (row.provider_subscription_ref as string | null) ?? null };
  }

  const moveClock = (ms: number) => {
    const clock = t().app.get(Clock);
    const at = Date.now() + ms;
    clock.now = () => new Date(at);
  };

  it("stores the page's language with the payment; the payer's confirmation comes in it (issue 32)", async () => {
    clearEmails();
    const german = await paid('hanna.i18n@example.test', 1, 'de');
    const japanese = await paid('yuki.i18n@example.test', 1, 'ja');
    await t().app.get(OutboxWorker).drain();
    expect((await paymentRow(t(), german.id)).locale).toBe('de');
    expect((await paymentRow(t(), japanese.id)).locale).toBe('ja');
    const to = (address: string) => emails().filter((eml) => eml.includes(`To: ${address}`));
    const de = to('hanna.i18n@example.test').join('\n');
    expect(de).toContain('Zahlungsbestätigung');
    expect(de).toContain('Vielen Dank für Ihre Zahlung von 5,00');
    expect(de).toContain('Belege ansehen oder Zahlungen verwalten');
    expect(de).toContain('<html lang="de">');
    const ja = to('yuki.i18n@example.test').join('\n');
    expect(ja).toContain('お支払いの確認');
    expect(ja).toContain('<html lang="ja">');
    // The merchant's notification stays English.
    expect(emails().some((eml) => eml.includes('New payment on') && eml.includes('hanna.i18n@example.test'))).toBe(true);
    // A payment made without a language: English, the site's default.
    const english = await paid('plain.i18n@example.test', 1);
    await t().app.get(OutboxWorker).drain();
    expect((await paymentRow(t(), english.id)).locale).toBeNull();
    expect(to('plain.i18n@example.test').join('\n')).toContain('Payment confirmation');

    // The manage page: Accept-Language first, else the payer's latest payment's language.
    const link = /\/pay\/manage\/([A-Za-z0-9_-]+)/.exec(de)![0];
    const germanPage = await get(link).set('Accept-Language', 'de-DE,de;q=0.9');
    expect(germanPage.status).toBe(200);
    expect(germanPage.headers.vary).toMatch(/Accept-Language/);
    expect(germanPage.text).toContain('<html lang="de">');
    expect(germanPage.text).toContain('<h1>Ihre Zahlungen</h1>');
    expect(germanPage.text).toContain('5,00\u00a0€');
    expect(germanPage.text).toContain('Bezahlt');
    const remembered = await get(link);
    expect(remembered.text).toContain('<html lang="de">');
    const japaneseLink = /\/pay\/manage\/([A-Za-z0-9_-]+)/.exec(ja)![0];
    const japanesePage = await get(japaneseLink).set('Accept-Language', 'ja');
    expect(japanesePage.text).toContain('<html lang="ja">');
    expect(japanesePage.text).toContain('お支払い一覧');
    const receipt = await get(`${japaneseLink}/receipts/${japanese.id}`).set('Accept-Language', 'ja');
    expect(receipt.text).toContain('<h1>領収書</h1>');
    const englishPage = await get(japaneseLink).set('Accept-Language', 'en-GB');
    expect(englishPage.text).toContain('<h1>Your payments</h1>');
  });

  it("shows the form's title in the page's language where the form has a version of it, as written otherwise (issue 32)", async () => {
    const translated = await createPaymentForm(bed.t, {
      submit_actions: ['email', 'message'],
      plans: [{ title: 'Monthly', prices: [{ amount: 999, currency: 'EUR', frequency: 'm_1' }] }, { title: 'Once', prices: [{ amount: 500, currency: 'EUR', frequency: 'one-time' }] }],
      translations: [{ locale: 'de', title: 'Prüfformular' }],
    });
    clearEmails();
    const payment = await paid('greta.i18n@example.test', 1, 'de', translated);
    await t().app.get(OutboxWorker).drain();
    const link = /\/pay\/manage\/([A-Za-z0-9_-]+)/.exec(emails().filter((eml) => eml.includes('To: greta.i18n@example.test')).join('\n'))![0];
    const german = await get(link).set('Accept-Language', 'de');
    expect(german.text).toContain('Prüfformular');
    expect(german.text).not.toContain('Checkout test form');
    const receipt = await get(`${link}/receipts/${payment.id}`).set('Accept-Language', 'de');
    expect(receipt.text).toContain('<td>Prüfformular</td>');
    const french = await get(link).set('Accept-Language', 'fr');
    expect(french.text).toContain('Checkout test form');
    expect(french.text).not.toContain('Prüfformular');
  });

  it("the payer's confirmation email carries the link; it lists the payer's payments with the page's headers and prints receipts", async () => {
    clearEmails();
    const sub = await paid('Ada.Manage@Example.test');
    await t().app.get(OutboxWorker).drain();
    const confirmation = emails().find((eml) => eml.includes('Payment confirmation') && eml.includes('ada.manage@example.test'.replace('ada.manage', 'Ada.Manage')));
    expect(confirmation).toBeDefined();
    const url = /(https?:\/\/[^\s"<>]+\/pay\/manage\/([A-Za-z0-9_-]+))/.exec(confirmation!);
    expect(url).not.toBeNull();
    const token = url![2];
    // Opaque: nothing of the address in it.
    expect(token.toLowerCase()).not.toContain('ada');
    // The merchant's notification has no link.
    expect(emails().filter((eml) => eml.includes('New payment on')).some((eml) => eml.includes('/pay/manage/'))).toBe(false);

    const page = await get(`/pay/manage/${token}`);
    expect(page.status).toBe(200);
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.headers['content-security-policy']).toContain("form-action 'self'");
    expect(page.text).toContain(`id="payment-${sub.id}"`);
    expect(page.text).toContain('€9.99');
    expect(page.text).toContain(`/pay/manage/${token}/subscriptions/${sub.id}/cancel`);

    const receipt = await get(`/pay/manage/${token}/receipts/${sub.id}`);
    expect(receipt.status).toBe(200);
    expect(receipt.headers['referrer-policy']).toBe('no-referrer');
    const row = await paymentRow(t(), sub.id);
    for (const text of [form.settings.email.from_name, form.title, '€9.99', `<td>${sub.id}</td>`, String(row.provider_payment_ref)]) expect(receipt.text).toContain(text);
    // Never a provider secret.
    expect(receipt.text).not.toMatch(/_secret_|sk_test|whsec_/);
  });

  it("a link shows only its payer's payments: another payer's ids answer the not-found page", async () => {
    const mine = await paid('mine@example.test', 1);
    const theirs = await paid('theirs@example.test');
    const token = await links().issue('mine@example.test');
    const list = await get(`/pay/manage/${token}`);
    expect(list.text).toContain(`id="payment-${mine.id}"`);
    expect(list.text).not.toContain(`id="payment-${theirs.id}"`);
    const receipt = await get(`/pay/manage/${token}/receipts/${theirs.id}`);
    expect(receipt.status).toBe(404);
    expect(receipt.text).toContain('Email me a new link');
    expect((await get(`/pay/manage/${token}/subscriptions/${theirs.id}/cancel`)).status).toBe(404);
    // The link's own CSRF token, from its own subscription's confirmation page, acts on none of another payer's payments.
    const own = await paid('mine@example.test');
    const csrf = csrfOf((await get(`/pay/manage/${token}/subscriptions/${own.id}/cancel`)).text);
    expect(csrf).not.toBe('');
    bed.fake.clearRequests();
    const cancel = await post(`/pay/manage/${token}/subscriptions/${theirs.id}/cancel`, { csrf_token: csrf });
    expect(cancel.status).toBe(404);
    expect(cancel.text).toContain('Email me a new link');
    expect(bed.fake.requests).toHaveLength(0);
    expect((await get(`/pay/manage/${token}/receipts/999999`)).status).toBe(404);
    expect((await get(`/pay/manage/${token}/receipts/abc`)).status).toBe(404);
  });

  it('a bad, tampered, revoked or expired link gets the same not-found page offering a new link', async () => {
    const token = await links().issue('mine@example.test');
    const tampered = token.slice(0, 30) + (token[30] === 'A' ? 'B' : 'A') + token.slice(31);
    const answers = [await get('/pay/manage/not-a-token'), await get(`/pay/manage/${tampered}`)];
    moveClock(31 * DAY);
    answers.push(await get(`/pay/manage/${token}`));
    t().app.get(Clock).now = () => new Date();
    expect((await get(`/pay/manage/${token}`)).status).toBe(200);

    // Revoking needs the settings capability (fail closed), then voids every earlier link.
    const viewer = await t().createUser('viewer');
    expect((await request(t().http).post(`${t().base}/administration/payer-links/revoke`).set('Authorization', viewer.auth)).status).toBe(403);
    const revoked = await request(t().http).post(`${t().base}/administration/payer-links/revoke`).set('Authorization', t().admin.auth);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ success: true, version: expect.any(Number) });
    answers.push(await get(`/pay/manage/${token}`));
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect(answer.text).toBe(answers[0].text);
      expect(answer.text).toContain('Email me a new link');
      expect(answer.headers['referrer-policy']).toBe('no-referrer');
    }
    expect((await get(`/pay/manage/${await links().issue('mine@example.test')}`)).status).toBe(200);
  });

  it('cancels a subscription at the period end through the provider after a confirmation step; CSRF and same-origin are required', async () => {
    const sub = await paid('canceler@example.test');
    const token = await links().issue('canceler@example.test');
    const confirm = await get(`/pay/manage/${token}/subscriptions/${sub.id}/cancel`);
    expect(confirm.status).toBe(200);
    const csrf = csrfOf(confirm.text);
    expect(csrf).not.toBe('');
    const path = `/pay/manage/${token}/subscriptions/${sub.id}/cancel`;
    bed.fake.clearRequests();
    // A cross-site form post (another site's page), a same-site one, a post naming no origin, and one without the CSRF token: 403, nothing sent.
    expect((await post(path, { csrf_token: csrf }, { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
    expect((await post(path, { csrf_token: csrf }, { Origin: origin, 'Sec-Fetch-Site': 'same-site' })).status).toBe(403);
    expect((await post(path, { csrf_token: csrf }, {})).status).toBe(403);
    expect((await post(path, { csrf_token: csrf }, { Origin: 'null' })).status).toBe(403);
    expect((await post(path, { csrf_token: csrf }, { Origin: 'null', 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
    expect((await post(path, {})).status).toBe(403);
    // The CSRF token of another link of the same payer is not this link's.
    const other = await links().issue('canceler@example.test');
    expect((await post(path, { csrf_token: csrfOf((await get(`/pay/manage/${other}/subscriptions/${sub.id}/cancel`)).text) })).status).toBe(403);
    expect(bed.fake.requests).toHaveLength(0);

    // A browser's form POST under the page's no-referrer policy: Origin null, Sec-Fetch-Site same-origin.
    const done = await post(path, { csrf_token: csrf }, { Origin: 'null', 'Sec-Fetch-Site': 'same-origin' });
    expect(done.status).toBe(200);
    expect(done.text).toContain('will end at the end of the period');
    const [update] = bed.fake.requestsTo('POST', `/v1/subscriptions/${sub.subscription}`);
    expect(update.body).toEqual({ cancel_at_period_end: 'true' });
    expect(await paymentRow(t(), sub.id)).toMatchObject({ subscription_status: 'active' });
    expect(Boolean((await paymentRow(t(), sub.id)).subscription_cancel_at_period_end)).toBe(true);
    // Nothing left to cancel: no link, no confirmation page, the POST is refused without a provider call.
    expect((await get(`/pay/manage/${token}`)).text).not.toContain(`${sub.id}/cancel`);
    expect((await get(path)).status).toBe(404);
    bed.fake.clearRequests();
    expect((await post(path, { csrf_token: csrf })).status).toBe(409);
    expect(bed.fake.requests).toHaveLength(0);
  });

  it('a link older than 24 hours shows receipts but cannot act: the page offers a fresh link by email', async () => {
    const sub = await paid('late@example.test');
    const token = await links().issue('late@example.test');
    const csrf = csrfOf((await get(`/pay/manage/${token}/subscriptions/${sub.id}/cancel`)).text);
    moveClock(DAY + HOUR);
    const list = await get(`/pay/manage/${token}`);
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(`${sub.id}/cancel`);
    expect(list.text).toContain('Email me a fresh link');
    expect((await get(`/pay/manage/${token}/receipts/${sub.id}`)).status).toBe(200);
    bed.fake.clearRequests();
    const refused = await post(`/pay/manage/${token}/subscriptions/${sub.id}/cancel`, { csrf_token: csrf });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('Email me a fresh link');
    expect(bed.fake.requests).toHaveLength(0);

    clearEmails();
    const fresh = await post(`/pay/manage/${token}/link`, { csrf_token: csrf });
    expect(fresh.status).toBe(200);
    await t().app.get(OutboxWorker).drain();
    const sent = linkEmailsTo('late@example.test');
    expect(sent).toHaveLength(1);
    const freshToken = /\/pay\/manage\/([A-Za-z0-9_-]+)/.exec(sent[0])![1];
    expect((await get(`/pay/manage/${freshToken}`)).text).toContain(`${sub.id}/cancel`);
  });

  it("changes a past-due subscription's card: a setup without checkout_payment_id (its event moves no payment), the new default method, the open invoice paid once", async () => {
    const sub = await paid('card@example.test');
    const subscription = bed.fake.resources.get(sub.subscription!)!;
    // The next renewal is declined: the subscription is past due with an open invoice.
    subscription.default_payment_method = 'pm_card_chargeDeclined';
    const invoice = bed.fake.resources.renewSubscription(sub.subscription!);
    expect(invoice.status).toBe('open');
    expect(subscription.status).toBe('past_due');
    const token = await links().issue('card@example.test');
    const list = await get(`/pay/manage/${token}`);
    expect(list.text).toContain(`/pay/manage/${token}/subscriptions/${sub.id}/card`);
    const page = await get(`/pay/manage/${token}/subscriptions/${sub.id}/card`);
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("form-action 'self'");
    expect(page.text).toContain('data-driver="card_setup"');
    expect(page.text).not.toMatch(/sk_test|_secret_/);
    // The card script's and its driver's texts come with the page in the payer's language (issue 32).
    expect(page.text).toContain('<div id="page-messages" hidden data-locale="en"');
    expect(page.text).toContain('Saving your card…');
    const germanCard = await get(`/pay/manage/${token}/subscriptions/${sub.id}/card`).set('Accept-Language', 'de-DE,de;q=0.9');
    expect(germanCard.text).toContain('<div id="page-messages" hidden data-locale="de"');
    expect(germanCard.text).toContain('Ihre Karte wird gespeichert…');
    expect(germanCard.text).not.toContain('Saving your card');
    const csrf = /data-csrf-token="([^"]+)"/.exec(page.text)![1];
    const setupPath = `/pay/manage/${token}/subscriptions/${sub.id}/card/setup`;
    // The setup route is a POST like the others: cross-site or without the link's CSRF token it is refused.
    expect((await request(t().http).post(setupPath).set({ Origin: 'https://evil.example', 'X-CSRF-Token': csrf }).send({})).status).toBe(403);
    expect((await request(t().http).post(setupPath).set({ Origin: origin }).send({})).status).toBe(403);
    const setup = await request(t().http).post(setupPath).set({ Origin: origin, 'Sec-Fetch-Site': 'same-origin', 'X-CSRF-Token': csrf }).send({});
    expect(setup.status).toBe(200);
    expect(setup.body.client_secret).toMatch(/^seti_.+_secret_/);
    const seti = bed.fake.resources.get(setup.body.setup_intent as string)!;
    expect(seti.customer).toBe(subscription.customer);
    expect(seti.metadata).not.toHaveProperty('checkout_payment_id');
    // The payer confirms it in the element; its setup_intent.succeeded moves no payment.
    await (await gatewayClient(t())).setupIntents.confirm(setup.body.setup_intent, { payment_method: 'pm_card_mastercard' });
    const before = await paymentRow(t(), sub.id);
    const secret = (await t().app.get(GatewayAContractService).getSigningSecret('test'))!;
    const event = signedEvent('setup_intent.succeeded', bed.fake.resources.get(setup.body.setup_intent as string)!, secret, { id: `evt_card_${Date.now()}` });
    const delivered = await request(t().http).post(`${t().base}/webhook/gateway-a-callback/test`).set('Content-Type', 'application/json').set('Gateway-A-Signature', event.signature).send(event.body);
    expect(delivered.status).toBe(200);
    expect(await paymentRow(t(), sub.id)).toEqual(before);

    bed.fake.clearRequests();
    const cardPath = `/pay/manage/${token}/subscriptions/${sub.id}/card`;
    expect((await post(cardPath, { csrf_token: csrf, setup_intent: setup.body.setup_intent }, { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
    expect(bed.fake.requests).toHaveLength(0);
    const changed = await post(cardPath, { csrf_token: csrf, setup_intent: setup.body.setup_intent });
    expect(changed.status).toBe(200);
    expect(changed.text).toContain('the payment that was due has been made');
    expect(subscription.default_payment_method).toBe('pm_card_mastercard');
    expect(bed.fake.requestsTo('POST', `/v1/invoices/${invoice.id as string}/pay`)).toHaveLength(1);
    expect(bed.fake.resources.get(invoice.id as string)).toMatchObject({ status: 'paid' });
    expect(subscription.status).toBe('active');
    // Again: the card is set again, the invoice is not paid twice.
    const again = await post(cardPath, { csrf_token: csrf, setup_intent: setup.body.setup_intent });
    expect(again.status).toBe(200);
    expect(bed.fake.requestsTo('POST', `/v1/invoices/${invoice.id as string}/pay`)).toHaveLength(1);
    // A setup not made for this subscription is refused without changing anything.
    const foreign = await (await gatewayClient(t())).setupIntents.create({ customer: subscription.customer as string, metadata: { checkout_installation_id: 'other' } });
    const refused = await post(cardPath, { csrf_token: csrf, setup_intent: foreign.id });
    expect(refused.status).toBe(409);
  });

  it('/pay/manage asks for a link: the same answer for a known and an unknown address, an email only for the known one, limited per address', async () => {
    await paid('asker@example.test', 1);
    const form = await get('/pay/manage');
    expect(form.status).toBe(200);
    expect(form.text).toContain('name="email_address"');
    clearEmails();
    const known = await post('/pay/manage/link', { email_address: 'Asker@Example.test' });
    const unknown = await post('/pay/manage/link', { email_address: 'nobody@example.test' });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(unknown.text).toBe(known.text);
    await t().app.get(OutboxWorker).drain();
    expect(linkEmailsTo('asker@example.test')).toHaveLength(1);
    expect(emails().some((eml) => eml.includes('nobody@example.test'))).toBe(false);
    // A cross-site request and a malformed address change nothing.
    expect((await post('/pay/manage/link', { email_address: 'asker@example.test' }, { Origin: 'https://evil.example' })).status).toBe(403);
    expect((await post('/pay/manage/link', { email_address: 'not an address' })).status).toBe(400);
    expect((await post('/pay/manage/link', { email_address: 'a\r\nb@example.test' })).status).toBe(400);
    // Three links an hour per address: the fourth request is answered alike and sends nothing.
    await post('/pay/manage/link', { email_address: 'asker@example.test' });
    await post('/pay/manage/link', { email_address: 'asker@example.test' });
    const limited = await post('/pay/manage/link', { email_address: 'asker@example.test' });
    expect(limited.text).toBe(known.text);
    await t().app.get(OutboxWorker).drain();
    expect(linkEmailsTo('asker@example.test')).toHaveLength(3);
  });
});

describe("the payer's manage page: gateway B", () => {
  let bed: GatewayBTestBed;
  let form: PaymentForm;
  beforeAll(async () => {
    ({ bed, form } = await startConnectedGatewayB());
  });
  afterAll(() => bed.close());

  it("lists a gateway-B payment and prints its receipt with the capture as the provider's reference; no cancel or card change", async () => {
    const { rec } = await paidGatewayBRecord(bed, form);
    const id = rec.sync.payment_id;
    const row = await paymentRow(bed.t, id);
    const token = await bed.t.app.get(PayerLinks).issue('payer@example.test');
    const list = await request(bed.t.http).get(`/pay/manage/${token}`);
    expect(list.status).toBe(200);
    expect(list.text).toContain(`id="payment-${id}"`);
    expect(list.text).not.toContain(`/subscriptions/${id}/`);
    const receipt = await request(bed.t.http).get(`/pay/manage/${token}/receipts/${id}`);
    expect(receipt.status).toBe(200);
    expect(receipt.text).toContain(String(row.provider_capture_ref ?? row.provider_payment_ref));
    expect(receipt.text).toContain(`<td>${id}</td>`);
    expect((await request(bed.t.http).get(`/pay/manage/${token}/subscriptions/${id}/cancel`)).status).toBe(404);
    expect((await request(bed.t.http).get(`/pay/manage/${token}/subscriptions/${id}/card`)).status).toBe(404);
  });
});
