import { queryOptions } from '@tanstack/react-query';
import type { components } from '../../../clients/typescript/index';
import { unwrap } from './api-error';
import { api } from './client';

export type TeamUser = components['schemas']['TeamUserDto'];
export type Role = components['schemas']['RoleDto'];
export type ApplicationPassword = components['schemas']['ApplicationPasswordDto'];
export type NewApplicationPassword = components['schemas']['NewApplicationPasswordDto'];
export type TeamRole = components['schemas']['CreateUserDto']['role'];

/** The team: its users, one user, a user's application passwords, the roles. */
export const teamKeys = {
  all: ['team'] as const,
  users: ['team', 'users'] as const,
  user: (id: number) => [...teamKeys.users, id] as const,
  passwords: (id: number) => [...teamKeys.user(id), 'application-passwords'] as const,
  roles: ['team', 'roles'] as const,
};

export const teamQuery = queryOptions({ queryKey: teamKeys.users, queryFn: async () => unwrap(await api.GET('/administration/users')) });

export function teamUserQuery(id: number) {
  return queryOptions({ queryKey: teamKeys.user(id), queryFn: async () => unwrap(await api.GET('/administration/users/{id}', { params: { path: { id } } })) });
}

export function applicationPasswordsQuery(id: number) {
  return queryOptions({
    queryKey: teamKeys.passwords(id),
    queryFn: async () => unwrap(await api.GET('/administration/users/{id}/application-passwords', { params: { path: { id } } })),
  });
}

/** The roles as stored; the team screens offer the assignable ones. */
export const rolesQuery = queryOptions({ queryKey: teamKeys.roles, queryFn: async () => unwrap(await api.GET('/administration/roles')), staleTime: 5 * 60_000 });
