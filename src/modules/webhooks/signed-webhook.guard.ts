import { type CanActivate, type ExecutionContext, Injectable, NotFoundException, type OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { listRoutes, ROUTE_AUTH, type RouteAuth } from '../../common/auth/index.js';
import type { RawBodyRequest } from '../../common/http/index.js';
import { clientKey } from '../../common/rate-limit/index.js';
import { isGatewayMode } from '../gateways/index.js';
import { type WebhookVerdict, WebhookVerifiers } from './webhook-verifiers.js';

/**
 * Enforces `@SignedWebhookRoute(scheme)` (global guard, after authorisation): an unknown `{mode}`
 * is 404 before anything else, then the scheme's verifier must accept the raw bytes, or the
 * handler never runs. The application refuses to start with a signed route whose scheme has no
 * verifier, so a signature route cannot be left unchecked by mistake.
 */
@Injectable()
export class SignedWebhookGuard implements CanActivate, OnApplicationBootstrap {
  constructor(
    private readonly reflector: Reflector,
    private readonly verifiers: WebhookVerifiers,
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
  ) {}

  onApplicationBootstrap(): void {
    const unverified = listRoutes(this.discovery, this.scanner, this.reflector).filter(
      (route) => route.declaration?.kind === 'signature' && !this.verifiers.find(route.declaration.scheme),
    );
    if (unverified.length > 0) {
      throw new Error(`Signed webhook routes without a verifier: ${unverified.map((route) => `${route.method} ${route.path}`).join(', ')}`);
    }
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const auth = this.reflector.getAllAndOverride<RouteAuth | undefined>(ROUTE_AUTH, [context.getHandler(), context.getClass()]);
    if (auth?.kind !== 'signature') return true;
    const request = context.switchToHttp().getRequest<RawBodyRequest>();
    const mode = request.params?.mode;
    if (mode !== undefined && !isGatewayMode(mode)) throw new NotFoundException();
    const verifier = this.verifiers.find(auth.scheme);
    if (!verifier) throw new Error(`No webhook verifier for ${auth.scheme}`);
    const verdict = await verifier.verify({ mode: mode ?? null, rawBody: request.rawBody ?? Buffer.alloc(0), header: (name) => request.get(name), client: clientKey(request.ip) });
    (request as VerdictCarrier)[VERDICT] = verdict ?? 'authentic';
    return true;
  }
}

const VERDICT = Symbol('checkout:webhook-verdict');
type VerdictCarrier = RawBodyRequest & { [VERDICT]?: WebhookVerdict };

/** What the verifier found for this request (SignedWebhookGuard), for the handler to pass to the intake. */
export function webhookVerdictOf(request: RawBodyRequest): WebhookVerdict {
  const verdict = (request as VerdictCarrier)[VERDICT];
  if (!verdict) throw new Error('The request was not verified by SignedWebhookGuard');
  return verdict;
}
