// Billing's server state: deposits, the ledger, spending per day and the spending caps (the balance is
// balance.ts, the bonus tiers GET /meta's, api/meta.ts). Keys start with 'billing', so one invalidation of
// ['billing'] after a deposit is decided, or after tasks are created, refreshes every money view.
import { useCallback } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, type Schemas } from '../api/client';
import type { CapAction } from './caps';

export const billingKeys = {
  all: ['billing'] as const,
  deposits: (cursor: string | undefined) => ['billing', 'deposits', { cursor }] as const,
  deposit: (id: string) => ['billing', 'deposit', id] as const,
  ledger: (cursor: string | undefined) => ['billing', 'ledger', { cursor }] as const,
  /** Under the ledger's prefix, so whatever refreshes the ledger refreshes it too. */
  ledgerStarted: ['billing', 'ledger', 'started'] as const,
  spend: (days: number) => ['billing', 'spend', days] as const,
  /** GET /billing/caps: the monthly cap and the capped projects (the event stream refreshes it, events/invalidation.ts). */
  caps: ['billing', 'caps'] as const,
};

export const DEPOSITS_PAGE_SIZE = 10;
export const LEDGER_PAGE_SIZE = 20;
/** While a deposit waits for the provider, its page asks again this often. */
export const DEPOSIT_POLL_MS = 2_000;

export function useDeposits(cursor: string | undefined) {
  return useQuery({
    queryKey: billingKeys.deposits(cursor),
    queryFn: () => call(api.GET('/billing/deposits', { params: { query: { limit: DEPOSITS_PAGE_SIZE, ...(cursor ? { cursor } : {}) } } })),
    placeholderData: keepPreviousData,
  });
}

export type Deposit = NonNullable<ReturnType<typeof useDeposits>['data']>['deposits'][number];

/** One deposit; polled every 2 s while it is PENDING, then left alone once the provider has decided. */
export function useDeposit(id: string) {
  return useQuery({
    queryKey: billingKeys.deposit(id),
    queryFn: () => call(api.GET('/billing/deposits/{id}', { params: { path: { id } } })),
    refetchInterval: (query) => (query.state.data?.status === 'PENDING' ? DEPOSIT_POLL_MS : false),
  });
}

export function useLedger(cursor: string | undefined) {
  return useQuery({
    queryKey: billingKeys.ledger(cursor),
    queryFn: () => call(api.GET('/billing/ledger', { params: { query: { limit: LEDGER_PAGE_SIZE, ...(cursor ? { cursor } : {}) } } })),
    placeholderData: keepPreviousData,
  });
}

/**
 * Whether any money ever moved on the account (one ledger entry is enough): a balance of $0.00 on an
 * account that never had credit is a start, not a balance that ran low.
 */
export function useLedgerStarted({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: billingKeys.ledgerStarted,
    enabled,
    queryFn: () => call(api.GET('/billing/ledger', { params: { query: { limit: 1 } } })),
    select: (page) => page.entries.length > 0,
  });
}

export type LedgerEntry = NonNullable<ReturnType<typeof useLedger>['data']>['entries'][number];

export interface CreateDepositInput {
  amountCents: number;
  method: Deposit['method'];
  /** The same key for a retry of the same request, so a lost response never starts two top-ups. */
  idempotencyKey: string;
}

export function useCreateDeposit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ amountCents, method, idempotencyKey }: CreateDepositInput) =>
      call(api.POST('/billing/deposits', { body: { amountCents, method }, params: { header: { 'Idempotency-Key': idempotencyKey } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['billing', 'deposits'] }),
  });
}

/** After a deposit is decided: the balance and every billing list may have moved. */
export function useRefreshAfterDeposit() {
  const queryClient = useQueryClient();
  return useCallback(
    () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['me'] }),
        queryClient.invalidateQueries({ queryKey: ['billing', 'deposits'] }),
        queryClient.invalidateQueries({ queryKey: ['billing', 'ledger'] }),
        queryClient.invalidateQueries({ queryKey: ['billing', 'spend'] }),
      ]),
    [queryClient],
  );
}

export type MonthlyCap = Schemas['MonthlyCap'];
export type ProjectCap = Schemas['ProjectCap'];
export type SpendingCaps = { monthly: MonthlyCap; projects: ProjectCap[] };

/**
 * The organisation's monthly cap and its capped projects with what each has committed (money:read). One
 * query for the Billing page and the project page; `enabled`: false for a role that may not read money.
 */
export function useSpendingCaps({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: billingKeys.caps,
    enabled,
    queryFn: (): Promise<SpendingCaps> => call(api.GET('/billing/caps')),
  });
}

/** PUT /billing/caps/monthly (money:write): null removes the cap. */
export function useSetMonthlyCap() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (capCents: number | null) => call(api.PUT('/billing/caps/monthly', { body: { capCents } })),
    onSuccess: (monthly) => {
      client.setQueryData<SpendingCaps>(billingKeys.caps, (caps) => (caps ? { ...caps, monthly } : caps));
      void client.invalidateQueries({ queryKey: billingKeys.caps });
    },
  });
}

export interface ProjectCapInput {
  projectId: string;
  capCents: number | null;
  /** Always sent: the API takes a missing one as 'refuse'. */
  capAction: CapAction;
}

/**
 * PUT /projects/:id/budget-cap (money:write). Setting a cap releases the project's held tasks that now
 * fit, reserving their budgets: the tasks, the balance and the project's figures move with it.
 */
export function useSetProjectCap() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ projectId, capCents, capAction }: ProjectCapInput) =>
      call(api.PUT('/projects/{id}/budget-cap', { params: { path: { id: projectId } }, body: { capCents, capAction } })),
    onSuccess: () => {
      for (const queryKey of [billingKeys.caps, ['tasks'], ['me'], ['projects']]) void client.invalidateQueries({ queryKey });
    },
  });
}
