import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { GatewayMode } from '../../gateways/index.js';

/** docs/decisions.md §7: the connect `state` expires ten minutes after it was issued. */
export const CONNECT_STATE_TTL_MS = 10 * 60 * 1000;
const MAX_STATE_LENGTH = 512;

/** What a connect `state` asserts: which admin started the flow, for which mode, until when. */
export interface ConnectStateClaims {
  userId: number;
  mode: GatewayMode;
  /** Random, single-use: the callback records it and refuses it a second time. */
  nonce: string;
  /** Unix milliseconds */
  expiresAt: number;
}

export type ConnectStateCheck = { valid: true; claims: ConnectStateClaims } | { valid: false; reason: 'missing_state' | 'invalid_state' | 'expired_state' };

/** HMAC over the encoded claims (CryptoService.hmac('connect-state', ...) in the service). */
export type StateSigner = (data: string) => Buffer;

export function newConnectClaims(userId: number, mode: GatewayMode, nowMs: number): ConnectStateClaims {
  return { userId, mode, nonce: randomBytes(16).toString('base64url'), expiresAt: nowMs + CONNECT_STATE_TTL_MS };
}

/** `base64url(JSON claims).base64url(HMAC)`: opaque to the proxy, verifiable only by this site. */
export function encodeConnectState(claims: ConnectStateClaims, sign: StateSigner): string {
  const payload = Buffer.from(JSON.stringify({ u: claims.userId, m: claims.mode, n: claims.nonce, e: claims.expiresAt })).toString('base64url');
  return `${payload}.${sign(payload).toString('base64url')}`;
}

/** Checks the signature first, then the claims' shape, then expiry. Single use is the caller's job. */
export function decodeConnectState(state: string | undefined, sign: StateSigner, nowMs: number): ConnectStateCheck {
  if (state === undefined || state === '') return { valid: false, reason: 'missing_state' };
  if (state.length > MAX_STATE_LENGTH) return { valid: false, reason: 'invalid_state' };
  const match = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(state);
  if (!match) return { valid: false, reason: 'invalid_state' };
  const [, payload, mac] = match;
  const expected = sign(payload);
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { valid: false, reason: 'invalid_state' };

  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { valid: false, reason: 'invalid_state' };
  }
  const { u, m, n, e } = (raw ?? {}) as Record<string, unknown>;
  if (!Number.isSafeInteger(u) || (u as number) < 1 || (m !== 'test' && m !== 'live') || typeof n !== 'string' || !/^[A-Za-z0-9_-]{16,64}$/.test(n) || !Number.isSafeInteger(e)) {
    return { valid: false, reason: 'invalid_state' };
  }
  if (nowMs > (e as number)) return { valid: false, reason: 'expired_state' };
  return { valid: true, claims: { userId: u as number, mode: m, nonce: n, expiresAt: e as number } };
}
