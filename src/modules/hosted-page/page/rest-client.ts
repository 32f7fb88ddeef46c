import type { CheckoutForm } from './checkout-form.js';
import { hasText, text } from '../../../common/browser-driver/index.js';
import { PayerError } from './payer-error.js';

interface ApiAnswer {
  code?: string;
  data?: { params?: Record<string, unknown> };
}

/** A random Idempotency-Key. */
export function newKey(): string {
  if (window.crypto && typeof window.crypto.randomUUID === 'function') return window.crypto.randomUUID();
  const bytes = window.crypto.getRandomValues(new Uint8Array(16));
  return Array.prototype.map.call(bytes, (b: number) => (b < 16 ? '0' : '') + b.toString(16)).join('');
}

function wait(ms: number): Promise<void> {
  return new Promise((resolve) => window.setTimeout(resolve, ms));
}

/**
 * The public REST routes as the page calls them. Every refusal becomes a payer error: field
 * errors from `data.params`, the rest by code (the catalog's `js.code.<code>`); never the API's own text.
 */
export class RestClient {
  constructor(
    private readonly restBase: string,
    private readonly form: CheckoutForm,
  ) {}

  /**
   * POST to the REST base. `key`: the Idempotency-Key of a creating route, the same for every try
   * of one payment attempt, so a request repeated after a lost answer creates nothing twice: it
   * is sent again once after a network failure, and while the first is still running (409) after
   * the server's Retry-After.
   */
  async post<T>(path: string, body: unknown, key?: string): Promise<T> {
    const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
    if (key) headers['Idempotency-Key'] = key;
    for (let attemptNo = 0; ; attemptNo++) {
      let response: Response;
      try {
        response = await fetch(this.restBase + path, { method: 'POST', headers, credentials: 'omit', body: JSON.stringify(body) });
      } catch {
        if (key && attemptNo === 0) continue;
        throw new PayerError(text('offline'));
      }
      const answer = (await response.json().catch(() => null)) as unknown;
      if (response.ok) return answer as T;
      const refusal = answer as ApiAnswer | null;
      if (key && response.status === 409 && refusal?.code === 'checkout_idempotency_in_progress' && attemptNo < 3) {
        await wait(1000 * Math.min(3, Number(response.headers.get('Retry-After')) || 1));
        continue;
      }
      throw this.refusal(refusal, response.status);
    }
  }

  /** The payer's error for an API answer. */
  private refusal(answer: ApiAnswer | null, status: number): PayerError {
    const code = answer?.code;
    if (code === 'rest_invalid_param' || code === 'rest_missing_callback_param') {
      const { fields, methodRefused } = this.form.fieldErrors(answer?.data?.params ?? {});
      if (fields.length > 0) return new PayerError(text('checkDetails'), fields);
      if (methodRefused) return new PayerError(text('methodRefused'));
    }
    if (code && /^\w+$/.test(code) && hasText(`code.${code}`)) return new PayerError(text(`code.${code}`));
    return new PayerError(text(status >= 500 ? 'serverError' : 'general'));
  }
}
