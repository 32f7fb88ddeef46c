import { queryOptions, useQuery } from '@tanstack/react-query';
import { unwrap } from './api-error';
import { api } from './client';
import { dashboardQuery } from './dashboard';

/** The gateways: the catalog (each gateway's methods, labels, connect kinds) and section B's list. */
export const gatewayKeys = {
  catalog: ['gateway-catalog'] as const,
  /** Section B's gateway list: whether each gateway takes payments now */
  list: ['gateway-list'] as const,
};

/** The gateways with their methods, labels and states: the console never names a gateway itself. */
export const catalogQuery = queryOptions({ queryKey: gatewayKeys.catalog, queryFn: async () => unwrap(await api.GET('/payment-gateway/catalog')) });

export const gatewayListQuery = queryOptions({ queryKey: gatewayKeys.list, queryFn: async () => unwrap(await api.GET('/gateway/list')) });

/** Gateway ids → the names the service gives them (never hard-coded here: the console learns gateways from the API). */
export function useGatewayLabels(): Record<string, string> {
  const dashboard = useQuery(dashboardQuery);
  const labels: Record<string, string> = {};
  for (const [id, gateway] of Object.entries(dashboard.data?.payment_gateways ?? {})) labels[id] = capitalise(gateway.label);
  return labels;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** `gateway id → method id → label`, from the gateway catalog (the service's own method names). */
export function useMethodLabels(): (gateway: string, method: string) => string {
  const catalog = useQuery(catalogQuery);
  return (gateway, method) => catalog.data?.gateways.find((entry) => entry.id === gateway)?.methods.find((entry) => entry.id === method)?.label ?? method;
}
