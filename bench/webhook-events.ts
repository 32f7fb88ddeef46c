/**
 * New, signed gateway-A webhook events for the ingest scenario, one per request.
 *
 * Each event is a `payment_intent.processing` for one of a pool of payment records that the
 * bench created through `POST /payment/sync-details` (named by `metadata.checkout_payment_id`,
 * with a stable intent id per record). The event id is new every time, so every request is
 * verified, stored once, applied (the first event of a record moves it pending -> processing,
 * later ones find it there already) and its outcome recorded: the whole ingest path, spread
 * over the pool so that requests do not queue on one row lock.
 *
 * The same body and `Gateway-A-Signature` (`t=<unix>,v1=<hex HMAC-SHA256(secret, "t.body")>`)
 * are produced in JavaScript for autocannon and in Lua (wrk's LuaJIT) for wrk.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface WebhookPool {
  /** the manual endpoint's signing secret (whsec_...) saved through the admin route */
  secret: string;
  paymentIds: number[];
  /** prefix of the intent ids, one per pool record (`pi_<prefix>_<index>`) */
  intentPrefix: string;
  amount: number;
  /** lower case, as the gateway sends it */
  currency: string;
  /** the service's installation id, which it puts in the metadata of every intent it creates */
  installationId: string;
}

export interface WebhookEventSource {
  pool: WebhookPool;
  /** unique per load run: event ids are `evt_<eventPrefix>_<n>` */
  eventPrefix: string;
  next(): { body: string; headers: Record<string, string> };
}

export function webhookEvents(pool: WebhookPool): WebhookEventSource {
  const eventPrefix = randomBytes(6).toString('hex');
  let n = 0;
  return {
    pool,
    eventPrefix,
    next() {
      n += 1;
      const created = Math.floor(Date.now() / 1000);
      const body = eventBody(pool, eventPrefix, n, created);
      const v1 = createHmac('sha256', pool.secret).update(`${created}.${body}`).digest('hex');
      return { body, headers: { 'content-type': 'application/json', 'gateway-a-signature': `t=${created},v1=${v1}` } };
    },
  };
}

export function eventBody(pool: WebhookPool, eventPrefix: string, n: number, created: number): string {
  const index = n % pool.paymentIds.length;
  // Key order and spacing match the Lua generator byte for byte.
  return (
    `{"id":"evt_${eventPrefix}_${n}","object":"event","type":"payment_intent.processing","created":${created},"livemode":false,` +
    `"data":{"object":{"id":"pi_${pool.intentPrefix}_${index}","object":"payment_intent","amount":${pool.amount},"currency":"${pool.currency}",` +
    `"status":"processing","metadata":{"checkout_payment_id":"${pool.paymentIds[index]}","checkout_installation_id":"${pool.installationId}"}}}}`
  );
}

/** The wrk Lua code that builds the same events (needs bench/wrk/sha256.lua beside the sources). */
export function gatewayAWebhookLua(source: WebhookEventSource, request: { method: string; path: string }): string {
  const root = join(__dirname, '..', '..', 'bench', 'wrk');
  const sha256 = readFileSync(join(root, 'sha256.lua'), 'utf8');
  const { pool } = source;
  return `
${sha256}
local secret = ${JSON.stringify(pool.secret)}
local event_prefix = ${JSON.stringify(source.eventPrefix)}
local intent_prefix = ${JSON.stringify(pool.intentPrefix)}
local installation_id = ${JSON.stringify(pool.installationId)}
local payment_ids = { ${pool.paymentIds.map((id) => `"${id}"`).join(', ')} }
local pool_size = #payment_ids
local counter = 0
request = function()
  counter = counter + 1
  local index = counter % pool_size
  local created = os.time()
  local body = '{"id":"evt_' .. event_prefix .. '_' .. counter .. '","object":"event","type":"payment_intent.processing","created":' .. created ..
    ',"livemode":false,"data":{"object":{"id":"pi_' .. intent_prefix .. '_' .. index .. '","object":"payment_intent","amount":${pool.amount},"currency":"${pool.currency}",' ..
    '"status":"processing","metadata":{"checkout_payment_id":"' .. payment_ids[index + 1] .. '","checkout_installation_id":"' .. installation_id .. '"}}}}'
  local signature = 't=' .. created .. ',v1=' .. hmac_sha256_hex(secret, created .. '.' .. body)
  local headers = {}
  for name, value in pairs(wrk.headers) do headers[name] = value end
  headers["Content-Type"] = "application/json"
  headers["Gateway-A-Signature"] = signature
  return wrk.format(${JSON.stringify(request.method)}, ${JSON.stringify(request.path)}, headers, body)
end
`;
}
