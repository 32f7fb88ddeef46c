import { Injectable } from '@nestjs/common';
import type { GatewayMode } from '../gateways/index.js';

/** One delivery as a verifier sees it: the exact bytes received and the request headers. */
export interface WebhookDelivery {
  /** `{mode}` of the route, null on a route without one. */
  mode: GatewayMode | null;
  /** The raw body (empty when the body was not JSON or form encoded: it then cannot verify). */
  rawBody: Buffer;
  /** A request header, case-insensitive (undefined when absent). */
  header(name: string): string | undefined;
  /** The sender as the per-client limits key it (`clientKey(req.ip)`). */
  client: string;
}

/**
 * What a verifier found, when it did not refuse the delivery:
 * - `authentic`: the delivery is proven authentic; the handler reads the event from its bytes;
 * - `stored_event`: not proven, but it names an event already stored and finished, which was
 *   proven when it was stored. The handler answers `duplicate` and reads nothing else from the
 *   unproven bytes (WebhookIntakeService.receive), exactly as it answers a genuine redelivery.
 */
export type WebhookVerdict = 'authentic' | 'stored_event';

/**
 * Proves a delivery authentic for one signature scheme, the one a route declares with
 * `@SignedWebhookRoute(scheme)`. It resolves when the delivery is authentic (or, for a verifier
 * that must pay for a proof, with `stored_event`), throws InvalidSignatureError (400) when it is
 * not, a 429 RateLimitedError when the sender has failed too often, and a 503 when it cannot tell
 * right now (so the provider retries). It must not throw anything else for an unauthenticated caller.
 */
export interface WebhookVerifier {
  readonly scheme: string;
  verify(delivery: WebhookDelivery): Promise<WebhookVerdict | void>;
}

/** The verifiers by scheme; gateway slices register theirs when their module starts. */
@Injectable()
export class WebhookVerifiers {
  private readonly verifiers = new Map<string, WebhookVerifier>();

  register(verifier: WebhookVerifier): void {
    if (this.verifiers.has(verifier.scheme)) throw new Error(`A second webhook verifier for ${verifier.scheme}`);
    this.verifiers.set(verifier.scheme, verifier);
  }

  find(scheme: string): WebhookVerifier | undefined {
    return this.verifiers.get(scheme);
  }
}
