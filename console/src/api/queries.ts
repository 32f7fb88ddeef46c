import { unwrap } from './api-error';
import { api } from './client';

/** Queries more than one screen reads (one cache entry each). */
export const dashboardQuery = { queryKey: ['dashboard'], queryFn: async () => unwrap(await api.GET('/administration/dashboard')) };
export const catalogQuery = { queryKey: ['gateway-catalog'], queryFn: async () => unwrap(await api.GET('/payment-gateway/catalog')) };
