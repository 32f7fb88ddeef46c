import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header gateway X signs its deliveries in: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. */
export const GATEWAY_X_SIGNATURE_HEADER = 'x-gateway-x-signature';

/** Whether `header` signs `rawBody` with `secret` within `toleranceSeconds` of `nowMs` (constant-time compare). */
export function isSignedByGatewayX(header: string | undefined, rawBody: Buffer, secret: string, nowMs: number, toleranceSeconds: number): boolean {
  const match = /^t=(\d{1,12}),v1=([a-f0-9]{64})$/.exec(header ?? '');
  if (!match) return false;
  if (Math.abs(nowMs / 1000 - Number(match[1])) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${match[1]}.`).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(match[2], 'hex'));
}
