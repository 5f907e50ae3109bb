// The admin area's server state: platform totals (live) and activity per day (once a minute), developers, buyers,
// payouts, annotators and (outside production) the mail outbox, each a cursor-paginated list, and the
// mutations that change them. Every key starts with 'admin'; a mutation invalidates the lists it changes
// and the platform totals.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, type Schemas } from '../api/client';
import { CHART_REFRESH_MS, liveInterval } from '../ui/live';

export type Developer = Schemas['Developer'];
export type AdminBuyer = Schemas['AdminBuyer'];
export type AdminPayout = Schemas['AdminPayout'];
export type PayoutStatus = AdminPayout['status'];
export type PlatformStats = Schemas['PlatformStats'];
export type LedgerEntry = Schemas['LedgerEntry'];

export type PlatformDay = Schemas['PlatformDailyStats']['days'][number];
export type AdminAnnotator = Schemas['AdminAnnotator'];
export type MailMessage = Schemas['MailMessage'];

export const PAGE_SIZE = 25;

export const adminKeys = {
  all: ['admin'] as const,
  stats: ['admin', 'stats'] as const,
  daily: (days: number) => ['admin', 'stats', 'daily', days] as const,
  developers: ['admin', 'developers'] as const,
  developerList: (cursor: string | undefined) => ['admin', 'developers', 'list', cursor ?? null] as const,
  developerDirectory: ['admin', 'developers', 'directory'] as const,
  buyers: ['admin', 'buyers'] as const,
  buyerList: (q: string, cursor: string | undefined) => ['admin', 'buyers', 'list', q, cursor ?? null] as const,
  payouts: ['admin', 'payouts'] as const,
  payoutList: (status: PayoutStatus, cursor: string | undefined) => ['admin', 'payouts', 'list', status, cursor ?? null] as const,
  annotators: ['admin', 'annotators'] as const,
  annotatorList: (suspendedOnly: boolean, q: string, cursor: string | undefined) => ['admin', 'annotators', 'list', suspendedOnly, q, cursor ?? null] as const,
  outbox: ['admin', 'outbox'] as const,
  outboxList: (cursor: string | undefined) => ['admin', 'outbox', 'list', cursor ?? null] as const,
};

const page = (cursor: string | undefined, size = PAGE_SIZE) => ({ limit: size, ...(cursor ? { cursor } : {}) });

/* Platform */

export function usePlatformStats() {
  return useQuery({
    queryKey: adminKeys.stats,
    queryFn: () => call(api.GET('/admin/stats')),
    refetchInterval: liveInterval,
  });
}

export function usePlatformDaily(days: number) {
  return useQuery({
    queryKey: adminKeys.daily(days),
    queryFn: () => call(api.GET('/admin/stats/daily', { params: { query: { days } } })),
    // A 30-day aggregate over every task and answer: heavy to compute, and a minute old is fresh enough.
    staleTime: CHART_REFRESH_MS,
    refetchInterval: CHART_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
}

/* Developers */

export function useDevelopers(cursor: string | undefined) {
  return useQuery({
    queryKey: adminKeys.developerList(cursor),
    queryFn: () => call(api.GET('/admin/developers', { params: { query: page(cursor) } })),
    placeholderData: keepPreviousData,
  });
}

/** Every developer by id (100 a page, at most 2 000), to name the app of a payout. */
export function useDeveloperDirectory() {
  return useQuery({
    queryKey: adminKeys.developerDirectory,
    queryFn: async () => {
      const byId = new Map<string, Developer>();
      let cursor: string | undefined;
      for (let n = 0; n < 20; n += 1) {
        const result = await call(api.GET('/admin/developers', { params: { query: page(cursor, 100) } }));
        for (const developer of result.developers) byId.set(developer.id, developer);
        if (!result.hasMore || !result.nextCursor) break;
        cursor = result.nextCursor;
      }
      return byId;
    },
    staleTime: 60_000,
  });
}

export interface NewDeveloper {
  email: string;
  appName: string;
  appUrl: string;
}

export function useCreateDeveloper() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: NewDeveloper; idempotencyKey: string }) =>
      call(api.POST('/admin/developers', { body, params: { header: { 'Idempotency-Key': idempotencyKey } } })),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: adminKeys.developers });
      void client.invalidateQueries({ queryKey: adminKeys.stats });
      void client.invalidateQueries({ queryKey: adminKeys.outbox });
    },
  });
}

export function useRegenerateDeveloperKey() {
  return useMutation({
    mutationFn: (id: string) => call(api.POST('/admin/developers/{id}/regenerate-api-key', { params: { path: { id } }, body: {} })),
  });
}

export function useSetDeveloperActive() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, isActive }: { id: string; isActive: boolean }) =>
      call(api.PATCH('/admin/developers/{id}', { params: { path: { id } }, body: { isActive } })),
    onSettled: () => client.invalidateQueries({ queryKey: adminKeys.developers }),
  });
}

/* Buyers */

export function useBuyers(q: string, cursor: string | undefined) {
  return useQuery({
    queryKey: adminKeys.buyerList(q, cursor),
    queryFn: () => call(api.GET('/admin/buyers', { params: { query: { ...page(cursor), ...(q ? { q } : {}) } } })),
    placeholderData: keepPreviousData,
  });
}

export function useAdjustCredits() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ buyerId, amountCents, reason, idempotencyKey }: { buyerId: string; amountCents: number; reason: string; idempotencyKey: string }) =>
      call(
        api.POST('/admin/buyers/{id}/credits', {
          params: { path: { id: buyerId }, header: { 'Idempotency-Key': idempotencyKey } },
          body: { amountCents, reason },
        }),
      ),
    onSettled: () => client.invalidateQueries({ queryKey: adminKeys.buyers }),
  });
}

/* Payouts */

export function usePayouts(status: PayoutStatus, cursor: string | undefined) {
  return useQuery({
    queryKey: adminKeys.payoutList(status, cursor),
    queryFn: () => call(api.GET('/admin/payouts', { params: { query: { status, ...page(cursor) } } })),
    placeholderData: keepPreviousData,
  });
}

export function useDecidePayout() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, approve, note }: { id: string; approve: boolean; note: string }) => {
      const request = { params: { path: { id } }, body: note ? { note } : {} };
      return call(approve ? api.POST('/admin/payouts/{id}/approve', request) : api.POST('/admin/payouts/{id}/reject', request));
    },
    // Also after PAYOUT_NOT_PENDING: someone else decided it, and the list should say so.
    onSettled: () => {
      void client.invalidateQueries({ queryKey: adminKeys.payouts });
      void client.invalidateQueries({ queryKey: adminKeys.stats });
    },
  });
}

/* Annotators */

export function useAdminAnnotators(suspendedOnly: boolean, q: string, cursor: string | undefined) {
  return useQuery({
    queryKey: adminKeys.annotatorList(suspendedOnly, q, cursor),
    queryFn: () =>
      call(
        api.GET('/admin/annotators', {
          params: { query: { ...page(cursor), ...(suspendedOnly ? { suspended: 'true' as const } : {}), ...(q ? { q } : {}) } },
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

export function useReinstateAnnotator() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ developerId, annotatorId }: { developerId: string; annotatorId: string }) =>
      call(api.POST('/admin/annotators/{developerId}/{annotatorId}/reinstate', { params: { path: { developerId, annotatorId } }, body: {} })),
    onSettled: () => client.invalidateQueries({ queryKey: adminKeys.annotators }),
  });
}

/* Mail outbox (development) */

export function useOutbox(cursor: string | undefined) {
  return useQuery({
    queryKey: adminKeys.outboxList(cursor),
    queryFn: () => call(api.GET('/admin/mail-outbox', { params: { query: page(cursor) } })),
    placeholderData: keepPreviousData,
    refetchInterval: liveInterval,
  });
}
