// TanStack Query hooks of the API keys area: the buyer's live keys (cursor-paginated), creating one with
// its access, projects and expiry (its secret is in that answer only) and revoking one. Keys start with 'api-keys'.
import { MAX_LIVE_API_KEYS } from '@concord/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, type Schemas } from '../api/client';
import type { KeyBody } from './keyForm';

export type ApiKey = Schemas['BuyerApiKey'];
export type CreatedApiKey = Schemas['BuyerApiKeyWithSecret'];

/** One page holds every live key a buyer may have. */
const PAGE_SIZE = MAX_LIVE_API_KEYS;

export const apiKeyKeys = {
  all: ['api-keys'] as const,
  list: (cursor: string | undefined) => ['api-keys', 'list', cursor ?? null] as const,
};

export function useApiKeys(cursor: string | undefined) {
  return useQuery({
    queryKey: apiKeyKeys.list(cursor),
    queryFn: () => call(api.GET('/api-keys', { params: { query: { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) } } })),
    placeholderData: keepPreviousData,
  });
}

/** Creates a key; the Idempotency-Key makes a retry after a lost answer return the same key, not a second one. */
export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: KeyBody; idempotencyKey: string }) =>
      call(api.POST('/api-keys', { body, params: { header: { 'Idempotency-Key': idempotencyKey } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}

/** Revokes a key: every server refuses it from the next request on. */
export function useRevokeApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(api.DELETE('/api-keys/{id}', { params: { path: { id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}
