// GET /meta: the service's public settings (task price, bonus tiers, low-balance threshold, environment,
// the first-run admin). Fixed while the service runs, so it is fetched once per session under ['meta'].
import { useQuery } from '@tanstack/react-query';
import { api, call, type Schemas } from './client';

export type Meta = Schemas['ServiceMeta'];
export type BonusTier = Meta['depositBonusTiers'][number];

export function useMeta() {
  return useQuery({
    queryKey: ['meta'],
    queryFn: () => call(api.GET('/meta')),
    staleTime: Infinity,
  });
}
