import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { paths } from '../../../clients/typescript/index';
import { unwrap } from './api-error';
import { api } from './client';
import { LIST_PAGE_SIZE, pagingOf } from './paging';

/** The provider events list's query (filters and page), as the API names them. */
export type WebhookEventQuery = NonNullable<paths['/administration/webhook-events']['get']['parameters']['query']>;

export const webhookEventKeys = {
  all: ['webhook-events'] as const,
  list: (query: WebhookEventQuery) => [...webhookEventKeys.all, 'list', query] as const,
};

export function webhookEventListQuery(query: WebhookEventQuery) {
  return queryOptions({
    queryKey: webhookEventKeys.list(query),
    queryFn: async () => {
      const result = await api.GET('/administration/webhook-events', { params: { query: { ...query, per_page: LIST_PAGE_SIZE } } });
      return { rows: unwrap(result), ...pagingOf(result.response) };
    },
    placeholderData: keepPreviousData,
  });
}
