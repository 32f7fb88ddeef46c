import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { paths } from '../../../clients/typescript/index';
import { unwrap } from './api-error';
import { api } from './client';
import { pagingOf } from './paging';

type PreviewBody = NonNullable<paths['/administration/payment-forms/{id}/live-preview']['post']['requestBody']>['content']['application/json'];

/**
 * The payment forms. Lists sit under `lists` (a change invalidates them all); a form's builder data
 * under its detail key, so removing a form removes both.
 */
export const formKeys = {
  lists: ['forms', 'list'] as const,
  list: (page: number) => [...formKeys.lists, { page }] as const,
  detail: (id: number) => ['forms', 'detail', id] as const,
  builderData: (id: number) => [...formKeys.detail(id), 'builder-data'] as const,
  livePreview: (id: number, json: string | null) => ['forms', 'live-preview', id, json] as const,
};

/** Forms a page. */
const FORMS_PAGE_SIZE = 20;

export function formListQuery(page: number) {
  return queryOptions({
    queryKey: formKeys.list(page),
    queryFn: async () => {
      const result = await api.GET('/administration/payment-forms', { params: { query: { page, per_page: FORMS_PAGE_SIZE } } });
      return { rows: unwrap(result), ...pagingOf(result.response) };
    },
    placeholderData: keepPreviousData,
  });
}

export function formQuery(id: number) {
  return queryOptions({ queryKey: formKeys.detail(id), queryFn: async () => unwrap(await api.GET('/administration/payment-forms/{id}', { params: { path: { id } } })) });
}

export function builderDataQuery(id: number) {
  return queryOptions({
    queryKey: formKeys.builderData(id),
    queryFn: async () => unwrap(await api.GET('/administration/payment-forms/{id}/builder-data', { params: { path: { id } } })),
  });
}

/**
 * The form as payers would see it with unsaved settings (`json`, the editor's body; null while it
 * has none): the HTML the live-preview route draws. Each body is drawn once and kept a minute.
 */
export function livePreviewQuery(id: number, json: string | null) {
  return queryOptions({
    queryKey: formKeys.livePreview(id, json),
    queryFn: async () =>
      unwrap(await api.POST('/administration/payment-forms/{id}/live-preview', { params: { path: { id } }, body: JSON.parse(json ?? '{}') as PreviewBody, parseAs: 'text' })),
    enabled: json !== null,
    placeholderData: keepPreviousData,
    staleTime: Infinity,
    gcTime: 60_000,
    retry: false,
  });
}

/** The payer's page of a form (`/pay/{id}` on this service's origin). */
export function hostedPageUrl(id: number, origin: string = window.location.origin): string {
  return `${origin}/pay/${id}`;
}
