import request from 'supertest';
import { type GatewayMode } from '../../src/modules/gateways/index.js';
import { type FakeGatewayA, startFakeGatewayA } from '../fakes/gateway-a/index.js';
import { startTestApp, type TestApp } from './test-app.js';

export const TEST_ADMIN_URL = 'https://admin.example/wp-admin/admin.php?page=checkout';

export interface GatewayATestBed {
  t: TestApp;
  fake: FakeGatewayA;
  close(): Promise<void>;
}

/**
 * The app with gateway A pointed at a fresh fake: it stands for the free-plan proxy
 * (CHECKOUT_PROXY_URL: OAuth pages, token exchange, API) and for the direct API (GATEWAY_A_API_BASE).
 */
export async function startGatewayATestBed(env: Record<string, string | undefined> = {}): Promise<GatewayATestBed> {
  const fake = await startFakeGatewayA();
  const t = await startTestApp({ CHECKOUT_PROXY_URL: fake.url, GATEWAY_A_API_BASE: fake.url, ADMIN_URL: TEST_ADMIN_URL, ...env });
  return {
    t,
    fake,
    async close() {
      await t.close();
      await fake.stop();
    },
  };
}

/** GET /payment-gateway/connect as the admin; returns the proxy URL it redirects to. */
export async function startConnect(t: TestApp, mode: GatewayMode): Promise<URL> {
  const res = await request(t.http).get(`${t.base}/payment-gateway/connect`).query({ mode }).set('Authorization', t.admin.auth);
  if (res.status !== 302) throw new Error(`connect answered ${res.status}: ${JSON.stringify(res.body)}`);
  return new URL(res.headers.location);
}

/** The browser at the proxy's OAuth page: returns where the proxy sends it back (the callback URL). */
export async function visitProxy(authorizeUrl: URL): Promise<URL> {
  const res = await fetch(authorizeUrl, { redirect: 'manual' });
  const location = res.headers.get('location');
  if (res.status !== 302 || !location) throw new Error(`the proxy answered ${res.status}`);
  return new URL(location);
}

/** The browser back at the service's callback; returns the admin-UI redirect target. */
export async function followCallback(t: TestApp, callbackUrl: URL | string): Promise<URL> {
  const url = typeof callbackUrl === 'string' ? new URL(callbackUrl, 'http://checkout.test') : callbackUrl;
  const res = await request(t.http).get(`${url.pathname}${url.search}`);
  if (res.status !== 302) throw new Error(`callback answered ${res.status}: ${JSON.stringify(res.body)}`);
  return new URL(res.headers.location);
}

/** The whole OAuth connect flow for a mode, as an admin's browser would run it. */
export async function connectThroughProxy(bed: GatewayATestBed, mode: GatewayMode): Promise<URL> {
  return followCallback(bed.t, await visitProxy(await startConnect(bed.t, mode)));
}

/** The signed state the connect route put in the proxy URL. */
export async function issueState(t: TestApp, mode: GatewayMode): Promise<string> {
  return (await startConnect(t, mode)).searchParams.get('state')!;
}

/** Callback URL (path + query) with the given parameters. */
export function callbackPath(t: TestApp, params: Record<string, string>): string {
  return `${t.base}/payment-gateway/connect-callback?${new URLSearchParams(params).toString()}`;
}

export { startFakeGatewayA };
