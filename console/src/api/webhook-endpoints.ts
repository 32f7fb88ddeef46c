import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { components, paths } from '../../../clients/typescript/index';
import { unwrap } from './api-error';
import { api } from './client';
import { LIST_PAGE_SIZE, pagingOf } from './paging';

/**
 * The merchant's endpoints for outgoing events (`/administration/webhook-endpoints`, issue 34):
 * their keys, queries and the calls that change them. Secrets come only in the answers of a
 * creation and a rotation; nothing here keeps them.
 */
export type WebhookEndpoint = components['schemas']['WebhookEndpointDto'];
export type WebhookEndpointWithSecret = components['schemas']['WebhookEndpointWithSecretDto'];
export type WebhookDelivery = components['schemas']['WebhookDeliveryDto'];
export type CreateWebhookEndpoint = NonNullable<paths['/administration/webhook-endpoints']['post']['requestBody']>['content']['application/json'];
export type UpdateWebhookEndpoint = NonNullable<paths['/administration/webhook-endpoints/{id}']['patch']['requestBody']>['content']['application/json'];

export const webhookEndpointKeys = {
  all: ['webhook-endpoints'] as const,
  list: () => [...webhookEndpointKeys.all, 'list'] as const,
  deliveries: (id: number) => [...webhookEndpointKeys.all, 'deliveries', id] as const,
  deliveryPage: (id: number, page: number) => [...webhookEndpointKeys.deliveries(id), 'page', page] as const,
  lastDelivery: (id: number) => [...webhookEndpointKeys.deliveries(id), 'last'] as const,
};

export const webhookEndpointListQuery = queryOptions({
  queryKey: webhookEndpointKeys.list(),
  queryFn: async () => unwrap(await api.GET('/administration/webhook-endpoints')),
});

/** One page of an endpoint's delivery log, newest first; the previous page stays shown while the next loads. */
export function deliveryPageQuery(id: number, page: number) {
  return queryOptions({
    queryKey: webhookEndpointKeys.deliveryPage(id, page),
    queryFn: async () => {
      const result = await api.GET('/administration/webhook-endpoints/{id}/deliveries', { params: { path: { id }, query: { page, per_page: LIST_PAGE_SIZE } } });
      return { rows: unwrap(result), ...pagingOf(result.response) };
    },
    placeholderData: keepPreviousData,
    // A delivery still waiting (its first attempt, or a retry) is read again until it settles.
    refetchInterval: (query) => (query.state.data?.rows.some((row) => row.status === 'pending') ? 3000 : false),
  });
}

/** The newest delivery of an endpoint (the list's "last delivery"), or null when none was made yet. */
export function lastDeliveryQuery(id: number) {
  return queryOptions({
    queryKey: webhookEndpointKeys.lastDelivery(id),
    queryFn: async () => unwrap(await api.GET('/administration/webhook-endpoints/{id}/deliveries', { params: { path: { id }, query: { per_page: 1 } } }))[0] ?? null,
  });
}

export async function createWebhookEndpoint(body: CreateWebhookEndpoint): Promise<WebhookEndpointWithSecret> {
  return unwrap(await api.POST('/administration/webhook-endpoints', { body }));
}

export async function updateWebhookEndpoint(id: number, body: UpdateWebhookEndpoint): Promise<WebhookEndpoint> {
  return unwrap(await api.PATCH('/administration/webhook-endpoints/{id}', { params: { path: { id } }, body }));
}

export async function deleteWebhookEndpoint(id: number): Promise<WebhookEndpoint> {
  return unwrap(await api.DELETE('/administration/webhook-endpoints/{id}', { params: { path: { id } } })).previous;
}

/** A new signing secret (answered this once); the old one keeps signing until `previous_secret_expires_at`. */
export async function rotateWebhookSecret(id: number): Promise<WebhookEndpointWithSecret> {
  return unwrap(await api.POST('/administration/webhook-endpoints/{id}/rotate-secret', { params: { path: { id } } }));
}

/** The delivery's event once more, as a new delivery (the event keeps its id). */
export async function resendWebhookDelivery(id: number, deliveryId: number): Promise<WebhookDelivery> {
  return unwrap(await api.POST('/administration/webhook-endpoints/{id}/deliveries/{delivery_id}/resend', { params: { path: { id, delivery_id: deliveryId } } }));
}

/** Queues the endpoint's events created at or after `since` (an ISO instant). */
export async function replayWebhookEvents(id: number, since: string) {
  return unwrap(await api.POST('/administration/webhook-endpoints/{id}/replay', { params: { path: { id } }, body: { since } }));
}
