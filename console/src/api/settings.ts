import { queryOptions } from '@tanstack/react-query';
import { unwrap } from './api-error';
import { api } from './client';

/** Section B's general settings (`GET /settings`). */
export const settingsKeys = { all: ['settings'] as const };

export const settingsQuery = queryOptions({ queryKey: settingsKeys.all, queryFn: async () => unwrap(await api.GET('/settings')) });
