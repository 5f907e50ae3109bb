// TanStack Query hooks of the audit log: its entries newest first, a page at a time ("Load more" asks for
// the page after the last one loaded, by its cursor), and the actors the filter offers (the members and
// the live API keys, each read only by a role that may read it). Keys start with 'audit-log'.
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { MAX_LIVE_API_KEYS } from '@concord/contract';
import { api, call } from '../api/client';
import { apiKeyKeys } from '../api-keys/queries';
import { usePermission } from '../organisations/Permitted';
import { memberKeys } from '../organisations/queries';
import { auditFiltersKey, auditLogQuery, type AuditFilters } from './auditFilters';

export const auditKeys = {
  all: ['audit-log'] as const,
  list: (filters: AuditFilters) => ['audit-log', 'list', auditFiltersKey(filters)] as const,
};

/** The filtered log, page after page; `enabled` false while the filters cannot be sent (a reversed range). */
export function useAuditLog(filters: AuditFilters, { enabled = true }: { enabled?: boolean } = {}) {
  return useInfiniteQuery({
    queryKey: auditKeys.list(filters),
    queryFn: ({ pageParam }) => call(api.GET('/audit-log', { params: { query: auditLogQuery(filters, pageParam) } })),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.hasMore && last.nextCursor ? last.nextCursor : undefined),
    enabled,
  });
}

/** The organisation's members (GET /members: members:write), for the actor filter. */
export function useActorMembers() {
  const enabled = usePermission('members:write').allowed;
  return useQuery({
    // The members page's query: one cache for both.
    queryKey: memberKeys.list,
    queryFn: () => call(api.GET('/members')),
    select: (answer) => answer.members,
    enabled,
  });
}

/** The live API keys (GET /api-keys: keys:write; one page holds them all), for the actor filter. */
export function useActorApiKeys() {
  const enabled = usePermission('keys:write').allowed;
  return useQuery({
    // The API keys page's first (and only) page: one cache for both.
    queryKey: apiKeyKeys.list(undefined),
    queryFn: () => call(api.GET('/api-keys', { params: { query: { limit: MAX_LIVE_API_KEYS } } })),
    select: (answer) => answer.apiKeys,
    enabled,
  });
}
