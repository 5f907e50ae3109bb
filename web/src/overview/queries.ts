// The overview's server state. Four independent queries that start together (no waterfall): the
// account's balance, its tasks by status, its recent events and its spending per day. The first three
// are live (polled with back-off while annotators work); the spend chart, the slowest, is drawn on its
// own so it never holds the rest of the page back.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, call } from '../api/client';
import { liveInterval } from '../ui/live';
import { billingKeys } from '../billing/queries';

export const overviewKeys = {
  taskCounts: ['overview', 'task-counts'] as const,
  events: (limit: number) => ['overview', 'events', limit] as const,
};

export const RECENT_EVENTS = 10;
export const SPEND_DAYS = 30;

type MeResponse = Awaited<ReturnType<typeof fetchMe>>;
const fetchMe = () => call(api.GET('/auth/me'));
const buyerOf = (me: MeResponse) => ('buyer' in me ? me.buyer : undefined);

/**
 * The signed-in buyer with balance, reserved and available cents. Key ['me'] (GET /auth/me), shared with
 * the account page; the cached value is the whole response, each page selects what it shows.
 */
export function useBalance({ live: isLive = false }: { live?: boolean } = {}) {
  return useQuery({
    queryKey: ['me'],
    queryFn: fetchMe,
    select: buyerOf,
    ...(isLive ? { refetchInterval: liveInterval } : {}),
  });
}

export type BuyerAccount = NonNullable<ReturnType<typeof useBalance>['data']>;

export function useTaskCounts() {
  return useQuery({
    queryKey: overviewKeys.taskCounts,
    queryFn: () => call(api.GET('/tasks/counts')),
    refetchInterval: liveInterval,
  });
}

export type TaskCounts = NonNullable<ReturnType<typeof useTaskCounts>['data']>;

export function useRecentEvents() {
  return useQuery({
    queryKey: overviewKeys.events(RECENT_EVENTS),
    queryFn: () => call(api.GET('/events', { params: { query: { limit: String(RECENT_EVENTS) } } })),
    refetchInterval: liveInterval,
  });
}

export type RecentEvent = NonNullable<ReturnType<typeof useRecentEvents>['data']>['events'][number];

/** Spending per UTC day (billing's data, under billing's key so a decided deposit refreshes it). */
export function useSpend(days = SPEND_DAYS) {
  return useQuery({
    queryKey: billingKeys.spend(days),
    queryFn: () => call(api.GET('/billing/spend', { params: { query: { days: String(days) } } })),
    refetchInterval: liveInterval,
    placeholderData: keepPreviousData,
  });
}

export type Spend = NonNullable<ReturnType<typeof useSpend>['data']>;
