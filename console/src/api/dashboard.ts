import { queryOptions } from '@tanstack/react-query';
import { unwrap } from './api-error';
import { api } from './client';

/** The dashboard (`GET /administration/dashboard`): gateways' state, quick setup, notifications. */
export const dashboardKeys = { all: ['dashboard'] as const };

export const dashboardQuery = queryOptions({ queryKey: dashboardKeys.all, queryFn: async () => unwrap(await api.GET('/administration/dashboard')) });
