import { queryOptions } from '@tanstack/react-query';
import { unwrap } from './api-error';
import { api } from './client';

/** The signed-in user's own account: password, two-factor sign-in and application passwords (`/auth/...`). */
export const accountKeys = { twoFactor: ['account', 'two-factor'] as const, applicationPasswords: ['account', 'application-passwords'] as const };

export const twoFactorQuery = queryOptions({ queryKey: accountKeys.twoFactor, queryFn: async () => unwrap(await api.GET('/auth/two-factor')) });

/** Your own application passwords (any role: the team screen manages a teammate's). */
export const ownApplicationPasswordsQuery = queryOptions({
  queryKey: accountKeys.applicationPasswords,
  queryFn: async () => unwrap(await api.GET('/auth/application-passwords')),
});

export async function revokeOwnApplicationPassword(uuid: string) {
  return unwrap(await api.DELETE('/auth/application-passwords/{uuid}', { params: { path: { uuid } } }));
}

export async function changePassword(body: { current_password?: string; new_password: string }) {
  return unwrap(await api.PUT('/auth/password', { body }));
}

export async function requestPasswordReset(login: string) {
  return unwrap(await api.POST('/auth/password-reset', { body: { login } }));
}

export async function checkSetPasswordLink(token: string) {
  return unwrap(await api.POST('/auth/set-password/check', { body: { token } }));
}

export async function setPasswordWithLink(body: { token: string; password: string; display_name?: string; email?: string }) {
  return unwrap(await api.POST('/auth/set-password', { body }));
}

export async function startTwoFactor(password: string) {
  return unwrap(await api.POST('/auth/two-factor/enrolment', { body: { password } }));
}

export async function confirmTwoFactor(code: string) {
  return unwrap(await api.POST('/auth/two-factor/enrolment/confirm', { body: { code } }));
}

/** New recovery codes (the old ones stop working), confirmed with the password or a current code of the app. */
export async function renewRecoveryCodes(body: { password: string } | { code: string }) {
  return unwrap(await api.POST('/auth/two-factor/recovery-codes', { body }));
}

export async function disableTwoFactor(body: { password: string; code: string }) {
  return unwrap(await api.POST('/auth/two-factor/disable', { body }));
}

/** The token of a set-password link: in the address's fragment (`#token=…`), which no server or log sees. */
export function linkToken(hash: string = window.location.hash): string | null {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token');
  return token && /^[A-Za-z0-9_-]{43}$/.test(token) ? token : null;
}
