// Projects: the paginated list, one project with its stats and its distribution (both live while the
// page is open — refreshed by the event stream, polled while it is down —, until a 404 says it is gone), the mutations, and every project as choices for the other areas' project selects.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, type Schemas } from '../api/client';
import { streamedInterval } from '../ui/live';
import type { ProjectFields } from './projectForm';

export type Project = Schemas['Project'];
export type ProjectWithStats = Schemas['ProjectWithStats'];

export type ProjectDistribution = Schemas['ProjectDistribution'];
export type QualityReport = Schemas['QualityReport'];

export type ProjectChanges = Partial<ProjectFields>;

const PAGE_SIZE = 25;

export function useProjects(cursor: string | undefined) {
  return useQuery({
    queryKey: ['projects', 'list', cursor ?? null],
    queryFn: () => call(api.GET('/projects', { params: { query: { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) } } })),
    placeholderData: keepPreviousData,
  });
}

export function useProject(id: string) {
  return useQuery({
    queryKey: ['projects', 'detail', id],
    queryFn: () => call(api.GET('/projects/{id}', { params: { path: { id } } })),
    refetchInterval: streamedInterval,
  });
}

export function useProjectDistribution(id: string, enabled = true) {
  return useQuery({
    queryKey: ['projects', 'distribution', id],
    queryFn: () => call(api.GET('/projects/{id}/distribution', { params: { path: { id } } })),
    refetchInterval: streamedInterval,
    enabled,
  });
}

export function useProjectQuality(id: string, enabled = true) {
  return useQuery({
    queryKey: ['projects', 'quality', id],
    queryFn: () => call(api.GET('/projects/{id}/quality', { params: { path: { id } } })),
    refetchInterval: streamedInterval,
    enabled,
  });
}

/** The project's pairwise groups (ranking, win rates) and its annotators' position bias, live like its other figures. */
export function useProjectPairwise(id: string, enabled = true) {
  return useQuery({
    queryKey: ['projects', 'pairwise', id],
    queryFn: () => call(api.GET('/projects/{id}/pairwise', { params: { path: { id } } })),
    refetchInterval: streamedInterval,
    enabled,
  });
}

/** Every project (the API pages them, 100 at a time), for selects on other pages; `enabled`: false for a role that may not read them. */
export function useProjectChoices({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: ['projects', 'choices'],
    enabled,
    queryFn: async () => {
      const all: Project[] = [];
      let cursor: string | undefined;
      // 20 pages = 2 000 projects: more than any select can usefully show.
      for (let page = 0; page < 20; page += 1) {
        const result = await call(api.GET('/projects', { params: { query: { limit: 100, ...(cursor ? { cursor } : {}) } } }));
        all.push(...result.projects);
        if (!result.hasMore || !result.nextCursor) break;
        cursor = result.nextCursor;
      }
      return all.sort((a, b) => a.name.localeCompare(b.name));
    },
    staleTime: 60_000,
  });
}

export function useCreateProject() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: ProjectFields; idempotencyKey: string }) =>
      call(api.POST('/projects', { body, params: { header: { 'Idempotency-Key': idempotencyKey } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: ['projects'] }),
  });
}

export function useUpdateProject(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ProjectChanges) => call(api.PATCH('/projects/{id}', { params: { path: { id } }, body })),
    onSuccess: () => client.invalidateQueries({ queryKey: ['projects'] }),
  });
}

export function useDeleteProject(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => call(api.DELETE('/projects/{id}', { params: { path: { id } } })),
    // Every project query but this project's own, which would only fetch a 404 while the page leaves.
    onSuccess: () => client.invalidateQueries({ queryKey: ['projects'], predicate: (query) => query.queryKey[2] !== id }),
  });
}
