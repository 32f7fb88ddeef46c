import request from 'supertest';
import type { PaymentForm } from '../../src/modules/forms/index.js';
import { GatewayAClientFactory, type StripeClient } from '../../src/modules/gateway-a/index.js';
import type { CheckoutGateway, GatewayMode } from '../../src/modules/gateways/index.js';
import { referenceOf, type SyncAnswer } from './payment-fixtures.js';
import type { TestApp } from './test-app.js';

/** Public gateway-A checkout helpers shared by the checkout e2e specs. */
export interface CheckoutRecord {
  sync: SyncAnswer;
  reference: ReturnType<typeof referenceOf>;
}

export async function createRecord(
  t: TestApp,
  form: PaymentForm,
  body: { plan_index?: number; price_index?: number; email_address?: string; payment_method?: string; amount?: number; payment_gateway?: CheckoutGateway; locale?: string } = {},
): Promise<CheckoutRecord> {
  const method = body.payment_method ?? 'ccard';
  const res = await request(t.http)
    .post(`${t.base}/payment/sync-details`)
    .send({ form_id: form.id, payment_gateway: 'gateway_a', payment_method: method, email_address: 'payer@example.test', ...body });
  if (res.status !== 201) throw new Error(`sync-details answered ${res.status}: ${JSON.stringify(res.body)}`);
  const sync = res.body as SyncAnswer;
  return { sync, reference: referenceOf(sync, form.id, 'gateway_a', method) };
}

export function createIntent(t: TestApp, record: CheckoutRecord, extra: object = {}) {
  return request(t.http).post(`${t.base}/gateway-a/payment-intent-or-setup`).send({ ...record.reference, ...extra });
}

export function finishCheckout(t: TestApp, record: CheckoutRecord, extra: object = {}) {
  return request(t.http).post(`${t.base}/gateway-a/checkout`).send({ ...record.reference, ...extra });
}

export async function tableRows(t: TestApp, table: 'customers' | 'products' | 'prices'): Promise<Array<Record<string, unknown>>> {
  return t.dataSource.query(`SELECT * FROM ${t.config.tablePrefix}checkout_gateway_a_${table} ORDER BY id`);
}

/** The service's own SDK client for a mode (the connected account's key), to act as the payer's browser would. */
export async function gatewayClient(t: TestApp, mode: GatewayMode = 'test'): Promise<StripeClient> {
  return (await t.app.get(GatewayAClientFactory).forMode(mode)).client;
}

/** The sync-details body that updates `record` (its id and secret, same form, gateway and method). */
export function syncBodyOf(record: CheckoutRecord): Record<string, unknown> {
  const { payment_id, payment_secret, form_id, payment_gateway, payment_method } = record.reference;
  return { payment_id, payment_secret, form_id, payment_gateway, payment_method };
}
