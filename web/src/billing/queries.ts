// Billing's server state: deposits, the ledger and spending per day (the balance is balance.ts, the
// bonus tiers GET /meta's, api/meta.ts). Keys start with 'billing', so one invalidation of ['billing']
// after a deposit is decided refreshes every money view.
import { useCallback } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call } from '../api/client';

export const billingKeys = {
  all: ['billing'] as const,
  deposits: (cursor: string | undefined) => ['billing', 'deposits', { cursor }] as const,
  deposit: (id: string) => ['billing', 'deposit', id] as const,
  ledger: (cursor: string | undefined) => ['billing', 'ledger', { cursor }] as const,
  /** Under the ledger's prefix, so whatever refreshes the ledger refreshes it too. */
  ledgerStarted: ['billing', 'ledger', 'started'] as const,
  spend: (days: number) => ['billing', 'spend', days] as const,
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
