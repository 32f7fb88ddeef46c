import { useMutation, useQueryClient } from '@tanstack/react-query';
import { catalogQuery, dashboardQuery } from '../../api/queries';

/** The gateway list of section B (whether each gateway takes payments now). */
export const GATEWAY_LIST_KEY = ['gateway-list'];

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
        queries.invalidateQueries({ queryKey: dashboardQuery.queryKey }),
        queries.invalidateQueries({ queryKey: catalogQuery.queryKey }),
        queries.invalidateQueries({ queryKey: GATEWAY_LIST_KEY }),
      ]),
  });
}
