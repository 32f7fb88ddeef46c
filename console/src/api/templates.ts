import { queryOptions } from '@tanstack/react-query';
import { unwrap } from './api-error';
import { api } from './client';

/** The bundled form templates (they change only with a release: kept five minutes). */
export const templateKeys = { all: ['template-list'] as const };

export const templateListQuery = queryOptions({ queryKey: templateKeys.all, queryFn: async () => unwrap(await api.GET('/administration/template-list')), staleTime: 5 * 60_000 });
