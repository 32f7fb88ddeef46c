import { unwrap } from './api-error';
import { api } from './client';

/** Queries of the forms screens (one cache entry each; mutations invalidate them by these keys). */
export const formsKey = ['forms'] as const;

export function formQuery(id: number) {
  return { queryKey: ['form', id], queryFn: async () => unwrap(await api.GET('/administration/payment-forms/{id}', { params: { path: { id } } })) };
}

export function builderDataQuery(id: number) {
  return { queryKey: ['form', id, 'builder-data'], queryFn: async () => unwrap(await api.GET('/administration/payment-forms/{id}/builder-data', { params: { path: { id } } })) };
}

/** The gateways with their methods, labels and states: the builder never names a gateway itself. */
export const gatewayCatalogQuery = { queryKey: ['gateway-catalog'], queryFn: async () => unwrap(await api.GET('/payment-gateway/catalog')) };

export const templateListQuery = { queryKey: ['template-list'], queryFn: async () => unwrap(await api.GET('/administration/template-list')), staleTime: 5 * 60_000 };

/** The payer's page of a form (`/pay/{id}` on this service's origin). */
export function hostedPageUrl(id: number, origin: string = window.location.origin): string {
  return `${origin}/pay/${id}`;
}
