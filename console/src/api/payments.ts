import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { paths } from '../../../clients/typescript/index';
import { unwrap } from './api-error';
import { api } from './client';
import { LIST_PAGE_SIZE, pagingOf } from './paging';

/** The admin payments list's query (filters and page), as the API names them. */
export type PaymentFilters = NonNullable<paths['/administration/payments']['get']['parameters']['query']>;

export const paymentKeys = {
  all: ['payments'] as const,
  list: (filters: PaymentFilters) => [...paymentKeys.all, 'list', filters] as const,
  detail: (id: number) => [...paymentKeys.all, 'detail', id] as const,
  totals: (filters: PaymentFilters) => [...paymentKeys.all, 'totals', filters] as const,
  /** The dashboard's money: under the payments' key, so a refund (which invalidates them) refreshes it too */
  money: () => [...paymentKeys.all, 'dashboard-money'] as const,
};

/** What the list's filters add up to per mode and currency (gross, refunded, net): the page does not matter. */
export function paymentTotalsQuery(filters: PaymentFilters) {
  const { page: _page, after: _after, ...rest } = filters;
  return queryOptions({
    queryKey: paymentKeys.totals(rest),
    queryFn: async () => unwrap(await api.GET('/administration/payments/totals', { params: { query: rest } })).totals,
    placeholderData: keepPreviousData,
  });
}

/** The dashboard's money: the last 30 days per mode and currency, per day, and the latest completed and failed payments. */
export const dashboardMoneyQuery = queryOptions({
  queryKey: paymentKeys.money(),
  queryFn: async () => unwrap(await api.GET('/administration/dashboard/money')),
});

/** One page of the filtered list, with its paging headers; the previous page stays shown while the next loads. */
export function paymentListQuery(filters: PaymentFilters) {
  return queryOptions({
    queryKey: paymentKeys.list(filters),
    queryFn: async () => {
      const result = await api.GET('/administration/payments', { params: { query: { ...filters, per_page: LIST_PAGE_SIZE } } });
      return { rows: unwrap(result), ...pagingOf(result.response) };
    },
    placeholderData: keepPreviousData,
  });
}

export function paymentQuery(id: number) {
  return queryOptions({
    queryKey: paymentKeys.detail(id),
    queryFn: async () => unwrap(await api.GET('/administration/payments/{id}', { params: { path: { id } } })),
    enabled: Number.isInteger(id) && id > 0,
  });
}

/** The filtered list as a CSV file (no page: the export has its own bound), and whether it was cut short. */
export async function exportPayments(filters: PaymentFilters): Promise<{ file: Blob; truncated: boolean }> {
  const { page: _page, after: _after, ...rest } = filters;
  const result = await api.GET('/administration/payments/export.csv', { params: { query: rest }, parseAs: 'blob' });
  const file = unwrap(result) as unknown as Blob;
  return { file, truncated: result.response.headers.get('X-Checkout-Truncated') === 'true' };
}

export type RefundRequest = NonNullable<paths['/administration/payments/{id}/refunds']['post']['requestBody']>['content']['application/json'];

/**
 * Refunds a payment. `idempotencyKey` is made once per confirmed Refund dialog: a double click or a
 * retry of that same confirmation repeats the first answer instead of refunding again.
 */
export async function refundPayment(id: number, body: RefundRequest, idempotencyKey: string) {
  return unwrap(
    await api.POST('/administration/payments/{id}/refunds', {
      params: { path: { id }, header: { 'Idempotency-Key': idempotencyKey } },
      body,
    }),
  );
}

/** Cancels the subscription of a payment, now or at the end of the period already paid. */
export async function cancelSubscription(id: number, atPeriodEnd: boolean) {
  return unwrap(await api.POST('/administration/payments/{id}/subscription/cancel', { params: { path: { id } }, body: { at_period_end: atPeriodEnd } }));
}

/** Queues the payer's receipt again; a second click within a minute or two queues nothing (`queued: false`). */
export async function resendReceipt(id: number) {
  return unwrap(await api.POST('/administration/payments/{id}/receipt', { params: { path: { id } } }));
}
