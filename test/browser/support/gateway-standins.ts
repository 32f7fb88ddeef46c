import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakeGatewayA } from '../../fakes/gateway-a/index.js';
import type { FakeGatewayB } from '../../fakes/gateway-b/index.js';

/**
 * Stand-ins for the providers' browser libraries (Stripe.js with the Payment Element, PayPal's JS
 * SDK), served from their own origin, that drive the local gateway fakes as the real libraries
 * drive the providers. Shared by the hosted page's and the console's browser specs.
 */
export const SECRET_KEY = 'sk_test_hostedPageBrowser1234567890';
export const PUBLISHABLE_KEY = 'pk_test_hostedPageBrowser1234567890';
export const GOOD_CARD = '4242424242424242';
export const DECLINED_CARD = '4000000000000002';

/** A card whose issuer asks for authentication on its own page: the stand-in sends the payer there and back (return_url). */
export const REDIRECT_CARD = '4000002760003184';

/**
 * Stand-in for Stripe.js with the Payment Element in deferred-intent mode (window.Stripe →
 * elements({mode, amount, currency, …}).create('payment'), elements.submit(), confirmPayment /
 * confirmSetup): its "element" is a card number input; confirming posts the client secret, the
 * card number and the options the element was created (and updated) with to the stand-in's
 * origin, which, as Stripe's servers do, refuses an intent whose parameters differ from the
 * element's and otherwise confirms it at fake gateway A. A card that needs authentication on its
 * issuer's page leaves the page for the return_url, as a real redirect does.
 */
const STRIPE_STANDIN = `(function () {
  var origin = new URL(document.currentScript.src).origin;
  var groups = (window.__standinElements = []);
  window.Stripe = function (publishableKey) {
    if (!/^pk_(test|live)_/.test(publishableKey)) throw new Error('stand-in Stripe.js: not a publishable key');
    function elements(options) {
      if (!options || ['payment', 'setup', 'subscription'].indexOf(options.mode) < 0) throw new Error('stand-in Stripe.js: deferred-intent mode needs a mode');
      if (!/^[a-z]{3}$/.test(options.currency || '')) throw new Error('stand-in Stripe.js: currency must be a lower-case code');
      if (options.mode === 'payment' && !(Number.isInteger(options.amount) && options.amount > 0)) throw new Error('stand-in Stripe.js: payment mode needs an amount');
      var state = { options: Object.assign({}, options), elementOptions: null, input: null, submitted: false };
      var group = {
        create: function (type, elementOptions) {
          if (type !== 'payment') throw new Error('stand-in Stripe.js: the payment element only');
          state.elementOptions = elementOptions || {};
          var container = null;
          return {
            mount: function (selector) {
              container = document.querySelector(selector);
              var label = document.createElement('label');
              label.htmlFor = 'standin-card-number';
              label.textContent = 'Card number';
              state.input = document.createElement('input');
              state.input.id = 'standin-card-number';
              state.input.autocomplete = 'cc-number';
              state.input.inputMode = 'numeric';
              container.appendChild(label);
              container.appendChild(state.input);
            },
            destroy: function () { if (container) container.textContent = ''; state.destroyed = true; },
            on: function () {},
          };
        },
        update: function (changes) { Object.assign(state.options, changes); },
        submit: function () {
          var number = state.input ? state.input.value.replace(/\\s/g, '') : '';
          if (!/^\\d{16}$/.test(number)) return Promise.resolve({ error: { type: 'validation_error', message: 'Your card number is incomplete.' } });
          state.submitted = true;
          return Promise.resolve({});
        },
      };
      state.group = group;
      groups.push(state);
      return group;
    }
    function confirm(kind) {
      return function (params) {
        var state = groups.filter(function (candidate) { return candidate.group === params.elements; })[0];
        if (!state || !state.submitted) return Promise.resolve({ error: { type: 'invalid_request_error', message: 'stand-in Stripe.js: call elements.submit() first' } });
        if (params.redirect !== 'if_required' || !params.confirmParams || !params.confirmParams.return_url) {
          return Promise.resolve({ error: { type: 'invalid_request_error', message: 'stand-in Stripe.js: return_url and redirect if_required expected' } });
        }
        return fetch(origin + '/gateway-a/confirm', {
          method: 'POST',
          headers: { 'Content-Type': 'text/plain' },
          body: JSON.stringify({ kind: kind, client_secret: params.clientSecret, publishable_key: publishableKey, card_number: state.input.value, options: state.options,
            return_url: params.confirmParams.return_url, billing_details: params.confirmParams.payment_method_data && params.confirmParams.payment_method_data.billing_details }),
        })
          .then(function (response) { return response.json(); })
          .then(function (answer) {
            if (!answer.redirect_to) return answer;
            window.location.assign(answer.redirect_to);
            return new Promise(function () {});
          });
      };
    }
    return { elements: elements, confirmPayment: confirm('payment'), confirmSetup: confirm('setup') };
  };
})();`;

/** What the gateway compares when an intent is confirmed with an element: the differences, by the element's option names. */
function elementMismatches(intent: Record<string, unknown>, options: Record<string, unknown>): string[] {
  const differences: string[] = [];
  const differ = (name: string, element: unknown, intentValue: unknown) => {
    if (JSON.stringify(element) !== JSON.stringify(intentValue)) differences.push(`${name}: element ${JSON.stringify(element)}, intent ${JSON.stringify(intentValue)}`);
  };
  const payment = intent.object === 'payment_intent';
  differ('mode', options.mode, payment ? 'payment' : 'setup');
  if (payment) {
    differ('amount', options.amount, intent.amount);
    differ('currency', options.currency, intent.currency);
    differ('captureMethod', options.captureMethod ?? 'automatic_async', intent.capture_method);
    differ('setupFutureUsage', options.setupFutureUsage ?? null, intent.setup_future_usage);
  } else {
    differ('setupFutureUsage', options.setupFutureUsage ?? 'off_session', intent.usage);
  }
  const automatic = (intent.automatic_payment_methods as { enabled?: boolean } | null)?.enabled === true;
  if (options.paymentMethodTypes) differ('paymentMethodTypes', [...(options.paymentMethodTypes as string[])].sort(), [...((intent.allowed_payment_method_types as string[] | null) ?? [])].sort());
  else {
    differ('automatic payment methods', true, automatic);
    differ('excludedPaymentMethodTypes', options.excludedPaymentMethodTypes ?? null, intent.excluded_payment_method_types ?? null);
  }
  return differences;
}

/**
 * Stand-in for PayPal's JS SDK (window.paypal.Buttons({...}).render()): one button; a click runs
 * onClick, createOrder, has fake gateway B's approval page approve the order, then onApprove.
 */
const PAYPAL_STANDIN = `(function () {
  var src = new URL(document.currentScript.src);
  window.paypal = {
    Buttons: function (options) {
      return {
        render: function (selector) {
          var button = document.createElement('button');
          button.type = 'button';
          button.id = 'standin-wallet-button';
          button.textContent = 'Wallet (' + src.searchParams.get('currency') + ')';
          button.addEventListener('click', async function () {
            var go = true;
            if (options.onClick) await options.onClick({}, { resolve: function () { return true; }, reject: function () { go = false; return false; } });
            if (!go) return;
            try {
              var orderId = await options.createOrder({}, {});
              var answer = await fetch(src.origin + '/gateway-b/approve', {
                method: 'POST',
                headers: { 'Content-Type': 'text/plain' },
                body: JSON.stringify({ order_id: orderId, client_id: src.searchParams.get('client-id') }),
              }).then(function (response) { return response.json(); });
              if (!answer.approved) return options.onCancel && options.onCancel({ orderID: orderId });
              await options.onApprove({ orderID: orderId }, {});
            } catch (error) {
              if (options.onError) options.onError(error);
            }
          });
          document.querySelector(selector).appendChild(button);
          return Promise.resolve();
        },
      };
    },
  };
})();`;

/** The stand-ins' origin: their scripts, and the provider-side confirm/approve the scripts call. */
export async function startStandIns(fakeA: FakeGatewayA, fakeB: FakeGatewayB): Promise<{ url: string; server: Server; confirms: Array<Record<string, unknown>> }> {
  const confirms: Array<Record<string, unknown>> = [];
  const answer = (res: ServerResponse, status: number, body: unknown, type = 'application/json') => {
    res.writeHead(status, { 'Content-Type': type, 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'no-store' });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  const readJson = async (req: IncomingMessage): Promise<Record<string, string>> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, string>;
  };
  const server = createServer((req, res) => {
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://standin').pathname;
      if (req.method === 'GET' && path === '/v3/') return answer(res, 200, STRIPE_STANDIN, 'text/javascript');
      if (req.method === 'GET' && path === '/sdk/js') return answer(res, 200, PAYPAL_STANDIN, 'text/javascript');
      if (req.method === 'POST' && path === '/gateway-a/confirm') {
        const body = (await readJson(req)) as Record<string, unknown>;
        confirms.push(body);
        const secret = String(body.client_secret);
        const intentId = secret.split('_secret_')[0];
        const intent = fakeA.resources.get(intentId);
        if (!intent || intent.client_secret !== secret || body.publishable_key !== PUBLISHABLE_KEY) return answer(res, 200, { error: { type: 'invalid_request_error', message: 'No such intent.' } });
        const mismatches = elementMismatches(intent, body.options as Record<string, unknown>);
        if (mismatches.length > 0) return answer(res, 200, { error: { type: 'invalid_request_error', message: `The intent does not match the element: ${mismatches.join('; ')}` } });
        const cards: Record<string, string> = { [GOOD_CARD]: 'pm_card_visa', [DECLINED_CARD]: 'pm_card_chargeDeclined', [REDIRECT_CARD]: 'pm_card_authenticationRequired' };
        const paymentMethod = cards[String(body.card_number)];
        if (!paymentMethod) return answer(res, 200, { error: { type: 'validation_error', message: 'Your card number is invalid.' } });
        const setup = intentId.startsWith('seti_');
        const confirmed = await fetch(`${fakeA.url}/v1/${setup ? 'setup_intents' : 'payment_intents'}/${intentId}/confirm`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${SECRET_KEY}`, 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ payment_method: paymentMethod, return_url: String(body.return_url) }).toString(),
        });
        const result = (await confirmed.json()) as { id?: string; status?: string; error?: { message: string; type: string; code?: string } };
        if (!confirmed.ok) return answer(res, 200, { error: { type: result.error?.type, code: result.error?.code, message: result.error?.message } });
        if (result.status === 'requires_action') {
          // The issuer's page: the payer authenticates there, and the provider sends the browser back to return_url.
          fakeA.resources.setIntentStatus(intentId, 'succeeded');
          const back = new URL(String(body.return_url));
          back.searchParams.set(setup ? 'setup_intent' : 'payment_intent', intentId);
          back.searchParams.set(setup ? 'setup_intent_client_secret' : 'payment_intent_client_secret', secret);
          back.searchParams.set('redirect_status', 'succeeded');
          return answer(res, 200, { redirect_to: back.toString() });
        }
        return answer(res, 200, setup ? { setupIntent: { id: result.id, status: result.status } } : { paymentIntent: { id: result.id, status: result.status } });
      }
      if (req.method === 'POST' && path === '/gateway-b/approve') {
        const body = await readJson(req);
        if (body.client_id !== fakeB.clientId) return answer(res, 200, { approved: false });
        const page = await fetch(`${fakeB.url}/checkoutnow?token=${encodeURIComponent(body.order_id)}`, { redirect: 'manual' });
        return answer(res, 200, { approved: page.status === 200 || page.status === 302 });
      }
      answer(res, 404, { error: 'not found' });
    })().catch((error: unknown) => answer(res, 500, { error: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, confirms };
}

