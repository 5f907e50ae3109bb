// The signed-in buyer's money: balance, reserved and available cents (GET /auth/me, key ['me'], shared
// with the account page; the cached value is the whole response, each page selects what it shows).
// Billing owns it; the overview and the deposit page read it from here.
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../api/client';
import { streamedInterval } from '../ui/live';

/** GET /auth/me: also read under ['me'] by the organisation the dashboard acts for (organisations/queries.ts). */
export const fetchMe = () => call(api.GET('/auth/me'));
type MeResponse = Awaited<ReturnType<typeof fetchMe>>;
const buyerOf = (me: MeResponse) => ('buyer' in me ? me.buyer : undefined);

/**
 * The buyer's account; `live` keeps it fresh (the overview, where tasks move money by themselves): the
 * event stream refreshes it on each charge, and it polls with back-off while the stream is down.
 */
export function useBalance({ live = false }: { live?: boolean } = {}) {
  return useQuery({
    queryKey: ['me'],
    queryFn: fetchMe,
    select: buyerOf,
    ...(live ? { refetchInterval: streamedInterval } : {}),
  });
}

export type BuyerAccount = NonNullable<ReturnType<typeof useBalance>['data']>;

/** Below GET /meta's lowBalanceThresholdCents the balance is low (and budget.low fires). */
export function isLowBalance(buyer: BuyerAccount | undefined, thresholdCents: number | undefined): boolean {
  return buyer !== undefined && thresholdCents !== undefined && buyer.creditBalance < thresholdCents;
}
