import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;
const ids = new WeakMap<IncomingMessage, string>();

/**
 * The id of a request: the caller's `X-Request-Id` when it looks sane, a new UUID otherwise; the
 * same for the request's whole life, whoever asks first. The request log (and its echo in the
 * answer's `X-Request-Id`) and the tracing's spans (`checkout.request_id`, which asks before the
 * request log's middleware has run) read it here.
 */
export function requestIdOf(request: IncomingMessage): string {
  let id = ids.get(request);
  if (id === undefined) {
    const incoming = request.headers['x-request-id'];
    id = typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ids.set(request, id);
  }
  return id;
}
