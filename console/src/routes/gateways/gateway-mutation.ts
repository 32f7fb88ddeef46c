import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dashboardKeys } from '../../api/dashboard';
import { gatewayKeys } from '../../api/gateways';

/**
 * A change to a gateway. Whatever its outcome, the screens that read gateway state ask again
 * (dashboard, catalog, section B's list): a failed connect may still have changed something at
 * the provider's end, and a stale "connected" is worse than one more request.
 */
export function useGatewayMutation<TVariables, TData>(mutationFn: (variables: TVariables) => Promise<TData>) {
  const queries = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () =>
      Promise.all([
        queries.invalidateQueries({ queryKey: dashboardKeys.all }),
        queries.invalidateQueries({ queryKey: gatewayKeys.catalog }),
        queries.invalidateQueries({ queryKey: gatewayKeys.list }),
      ]),
  });
}
