import { Inject, Injectable } from '@nestjs/common';
import { GatewayError, GatewayUnavailableError } from '../../src/common/errors/index.js';
import type { GatewayMode } from '../../src/modules/gateways/index.js';
import { OptionsService } from '../../src/modules/settings/index.js';
import { GATEWAY_X_PROVIDER, type GatewayXProvider, gatewayXOption } from './gateway-x-options.js';

/** A charge as gateway X answers it, read once into this shape (anything else is a malformed answer). */
export interface GatewayXCharge {
  id: string;
  status: 'pending' | 'succeeded' | 'failed';
  amount: number;
  /** Upper case, as the service keeps currencies */
  currency: string;
  metadata: Record<string, string>;
  failure: { code: string; message: string | null } | null;
}

/** The provider refused the call (its HTTP status and error code). */
export class GatewayXRefusedError extends GatewayError {
  constructor(
    readonly httpStatus: number,
    readonly providerCode: string | null,
  ) {
    super(`The payment provider refused the request (${httpStatus}${providerCode ? ` ${providerCode}` : ''}).`);
  }
}

const CHARGE_ID = /^xch_[a-f0-9]{1,64}$/;

export function isGatewayXChargeId(value: string): boolean {
  return CHARGE_ID.test(value);
}

/** Reads a charge object; null when it is none (a webhook's or an answer's). */
export function readCharge(value: unknown): GatewayXCharge | null {
  if (typeof value !== 'object' || value === null) return null;
  const object = value as Record<string, unknown>;
  const { id, status, amount, currency, metadata, failure } = object;
  if (typeof id !== 'string' || !CHARGE_ID.test(id)) return null;
  if (status !== 'pending' && status !== 'succeeded' && status !== 'failed') return null;
  if (!Number.isSafeInteger(amount) || typeof currency !== 'string' || !/^[a-z]{3}$/.test(currency)) return null;
  if (typeof metadata !== 'object' || metadata === null || Object.values(metadata).some((entry) => typeof entry !== 'string')) return null;
  const reason = typeof failure === 'object' && failure !== null ? (failure as Record<string, unknown>) : null;
  return {
    id,
    status,
    amount: amount as number,
    currency: currency.toUpperCase(),
    metadata: metadata as Record<string, string>,
    failure: reason && typeof reason.code === 'string' ? { code: reason.code.slice(0, 64), message: typeof reason.message === 'string' ? reason.message.slice(0, 255) : null } : null,
  };
}

/** Gateway X's REST API for a mode, with the mode's stored API key; 5 s per call. */
@Injectable()
export class GatewayXClient {
  constructor(
    @Inject(GATEWAY_X_PROVIDER) private readonly provider: GatewayXProvider,
    private readonly options: OptionsService,
  ) {}

  createCharge(mode: GatewayMode, input: { amount: number; currency: string; token: string; metadata: Record<string, string> }, idempotencyKey: string): Promise<GatewayXCharge> {
    return this.call(mode, 'POST', '/v1/charges', { ...input, currency: input.currency.toLowerCase() }, idempotencyKey);
  }

  /** Null when the provider does not know the charge. */
  async getCharge(mode: GatewayMode, id: string): Promise<GatewayXCharge | null> {
    if (!isGatewayXChargeId(id)) return null;
    try {
      return await this.call(mode, 'GET', `/v1/charges/${id}`);
    } catch (error) {
      if (error instanceof GatewayXRefusedError && error.httpStatus === 404) return null;
      throw error;
    }
  }

  private async call(mode: GatewayMode, method: string, path: string, body?: unknown, idempotencyKey?: string): Promise<GatewayXCharge> {
    const apiKey = await this.options.getSecret(gatewayXOption.apiKey(mode));
    if (!apiKey) throw new GatewayError('Gateway X is not connected in this mode.');
    let response: Response;
    try {
      response = await fetch(new URL(path, this.provider.url), {
        method,
        headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json', ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(5000),
      });
    } catch {
      throw new GatewayUnavailableError();
    }
    const answer: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const code = (answer as { error?: { code?: unknown } } | null)?.error?.code;
      throw new GatewayXRefusedError(response.status, typeof code === 'string' ? code.slice(0, 64) : null);
    }
    const charge = readCharge(answer);
    if (!charge) throw new GatewayError('The payment provider answered with something that is not a charge.');
    return charge;
  }
}
