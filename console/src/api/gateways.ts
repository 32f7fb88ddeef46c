import { queryOptions, useQuery } from '@tanstack/react-query';
import { unwrap } from './api-error';
import { api } from './client';

/** The gateways: the catalog (each gateway's methods, the names payers know, connect kinds) and section B's list. */
export const gatewayKeys = {
  catalog: ['gateway-catalog'] as const,
  /** Section B's gateway list: whether each gateway takes payments now */
  list: ['gateway-list'] as const,
};

/** The gateways with their methods, labels and states: the console never names a gateway itself. */
export const catalogQuery = queryOptions({ queryKey: gatewayKeys.catalog, queryFn: async () => unwrap(await api.GET('/payment-gateway/catalog')) });

export const gatewayListQuery = queryOptions({ queryKey: gatewayKeys.list, queryFn: async () => unwrap(await api.GET('/gateway/list')) });

/**
 * Gateway ids → the names merchants know them by (`gateway_a` → "Stripe"), from the catalog the
 * gateway slices register: never hard-coded here, and never the API's ids on screen.
 */
export function useGatewayLabels(): Record<string, string> {
  const catalog = useQuery(catalogQuery);
  return Object.fromEntries((catalog.data?.gateways ?? []).map((gateway) => [gateway.id as string, gateway.label]));
}

/** `gateway id → method id → label`, from the gateway catalog (the service's own method names). */
export function useMethodLabels(): (gateway: string, method: string) => string {
  const catalog = useQuery(catalogQuery);
  return (gateway, method) => catalog.data?.gateways.find((entry) => entry.id === gateway)?.methods.find((entry) => entry.id === method)?.label ?? method;
}
