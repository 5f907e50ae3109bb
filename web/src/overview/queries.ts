// The overview's own server state: its recent events (live: refreshed by the event stream, polled with
// back-off while it is down)
// and its spending per day (a 30-day aggregate, refreshed once a minute and drawn on its own so it never
// holds the rest of the page back). The balance (billing/balance.ts) and the task counts
// (tasks/queries.ts) are those areas' hooks, started together with these.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, call } from '../api/client';
import { CHART_REFRESH_MS, streamedInterval } from '../ui/live';
import { billingKeys } from '../billing/queries';

export const overviewKeys = {
  events: (limit: number) => ['overview', 'events', limit] as const,
};

export const RECENT_EVENTS = 10;
export const SPEND_DAYS = 30;

/** `enabled`: false for a role that may not read tasks (events are about tasks). */
export function useRecentEvents({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: overviewKeys.events(RECENT_EVENTS),
    enabled,
    queryFn: () => call(api.GET('/events', { params: { query: { limit: RECENT_EVENTS } } })),
    refetchInterval: streamedInterval,
  });
}

export type RecentEvent = NonNullable<ReturnType<typeof useRecentEvents>['data']>['events'][number];

/** Spending per UTC day (billing's data, under billing's key so a decided deposit refreshes it). */
export function useSpend(days = SPEND_DAYS, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: billingKeys.spend(days),
    enabled,
    queryFn: () => call(api.GET('/billing/spend', { params: { query: { days } } })),
    staleTime: CHART_REFRESH_MS,
    refetchInterval: CHART_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
}

export type Spend = NonNullable<ReturnType<typeof useSpend>['data']>;
