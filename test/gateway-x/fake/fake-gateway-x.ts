import { createHmac, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoopbackServer } from '../../fakes/loopback-server.js';
import { GATEWAY_X_SIGNATURE_HEADER } from '../webhook/gateway-x-signature.js';

/** A charge as the fake provider X keeps and answers it (its whole wire format: docs in ../README.md). */
export interface FakeXCharge {
  id: string;
  object: 'charge';
  status: 'pending' | 'succeeded' | 'failed';
  /** Minor units */
  amount: number;
  /** Lower case ISO 4217 */
  currency: string;
  metadata: Record<string, string>;
  created: number;
}

export interface FakeXExchange {
  method: string;
  path: string;
  idempotencyKey: string | null;
  body: unknown;
  status: number;
}

/** The browser library the fake serves at /x.js: mounts a card-number input, turns it into a one-use token. */
const LIBRARY = `(function () {
  var input = null;
  window.GatewayX = {
    mount: function (selector, publicId) {
      if (!/^xpk_/.test(publicId)) throw new Error('gateway X: unknown public id');
      var mount = document.querySelector(selector);
      input = document.createElement('input');
      input.name = 'x-card-number';
      input.setAttribute('aria-label', 'Card number');
      input.autocomplete = 'cc-number';
      mount.appendChild(input);
    },
    tokenize: function () {
      var number = input ? input.value.replace(/\\s+/g, '') : '';
      if (!/^\\d{12,19}$/.test(number)) return Promise.resolve({ error: { message: 'Enter your card number.' } });
      var random = '';
      for (var i = 0; i < 12; i++) random += Math.floor(Math.random() * 16).toString(16);
      return Promise.resolve({ token: 'xtok_' + (/0002$/.test(number) ? 'decline' : 'ok') + random });
    }
  };
})();
`;

/**
 * The fake provider of the test-only gateway X, on loopback: `POST /v1/charges` (Bearer API key,
 * `Idempotency-Key` required: the same key answers the same charge), `GET /v1/charges/{id}`, its
 * browser library at `/x.js`, and events signed as its webhooks are (`signedEvent`). Every charge
 * starts `pending`, as a provider that settles asynchronously: only its webhook completes it.
 * A token `xtok_decline…` is declined (402).
 */
export class FakeGatewayX extends LoopbackServer {
  readonly apiKeys = new Set<string>();
  readonly charges = new Map<string, FakeXCharge>();
  readonly exchanges: FakeXExchange[] = [];
  private readonly byIdempotencyKey = new Map<string, string>();

  constructor() {
    super('fake gateway X');
  }

  static async start(): Promise<FakeGatewayX> {
    return new FakeGatewayX().start();
  }

  /** A provider event about a charge, signed with `secret` the way the provider signs (`t=<unix>,v1=<hex HMAC-SHA256 of "t.body">`). */
  signedEvent(type: 'charge.succeeded' | 'charge.failed', chargeId: string, secret: string, options: { at?: Date; amount?: number } = {}): { rawBody: Buffer; headers: Record<string, string> } {
    const charge = this.charges.get(chargeId);
    if (!charge) throw new Error(`No charge ${chargeId}`);
    charge.status = type === 'charge.succeeded' ? 'succeeded' : 'failed';
    const object = {
      ...charge,
      ...(options.amount !== undefined ? { amount: options.amount } : {}),
      ...(type === 'charge.failed' ? { failure: { code: 'card_declined', message: 'The card was declined.' } } : {}),
    };
    const rawBody = Buffer.from(JSON.stringify({ id: `xevt_${randomBytes(8).toString('hex')}`, type, created: Math.floor(Date.now() / 1000), data: { object } }));
    const timestamp = Math.floor((options.at ?? new Date()).getTime() / 1000);
    const signature = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
    return { rawBody, headers: { [GATEWAY_X_SIGNATURE_HEADER]: `t=${timestamp},v1=${signature}` } };
  }

  protected async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    const idempotencyKey = (req.headers['idempotency-key'] as string | undefined) ?? null;
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = text;
    }
    const send = (status: number, answer: unknown, type = 'application/json') => {
      this.exchanges.push({ method: req.method ?? '', path: url.pathname, idempotencyKey, body, status });
      res.writeHead(status, { 'Content-Type': type });
      res.end(typeof answer === 'string' ? answer : JSON.stringify(answer));
    };

    if (req.method === 'GET' && url.pathname === '/x.js') return send(200, LIBRARY, 'application/javascript; charset=utf-8');
    const key = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!key || !this.apiKeys.has(key)) return send(401, { error: { type: 'authentication_error', message: 'Invalid API key.' } });

    const read = /^\/v1\/charges\/(xch_[a-f0-9]+)$/.exec(url.pathname);
    if (req.method === 'GET' && read) {
      const charge = this.charges.get(read[1]);
      return charge ? send(200, charge) : send(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such charge.' } });
    }
    if (req.method === 'POST' && url.pathname === '/v1/charges') {
      if (!idempotencyKey) return send(400, { error: { type: 'invalid_request_error', message: 'Idempotency-Key is required.' } });
      const known = this.byIdempotencyKey.get(idempotencyKey);
      if (known) return send(200, this.charges.get(known));
      const input = body as { amount?: unknown; currency?: unknown; token?: unknown; metadata?: unknown };
      if (!Number.isSafeInteger(input?.amount) || (input.amount as number) <= 0 || typeof input.currency !== 'string' || !/^[a-z]{3}$/.test(input.currency) || typeof input.token !== 'string') {
        return send(400, { error: { type: 'invalid_request_error', message: 'amount, currency and token are required.' } });
      }
      if (input.token.startsWith('xtok_decline')) return send(402, { error: { type: 'card_error', code: 'card_declined', message: 'The card was declined.' } });
      const charge: FakeXCharge = {
        id: `xch_${randomBytes(8).toString('hex')}`,
        object: 'charge',
        status: 'pending',
        amount: input.amount as number,
        currency: input.currency,
        metadata: { ...((input.metadata as Record<string, string>) ?? {}) },
        created: Math.floor(Date.now() / 1000),
      };
      this.charges.set(charge.id, charge);
      this.byIdempotencyKey.set(idempotencyKey, charge.id);
      return send(200, charge);
    }
    return send(404, { error: { type: 'invalid_request_error', message: 'Unknown route.' } });
  }
}
