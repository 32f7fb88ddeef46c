import { useQuery } from '@tanstack/react-query';
import { catalogQuery, dashboardQuery } from './queries';

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
