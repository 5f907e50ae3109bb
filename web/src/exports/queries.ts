// Exports: how many tasks the chosen filters select (GET /tasks/counts, the same filters as the export),
// so the page can tell the size of each split file before anything is downloaded. The download itself
// is a stream, not server state: see download.ts.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, call, type Schemas } from '../api/client';
import { isLocale, isTaskType } from '../golden/vocabulary';

export type TaskCounts = Schemas['TaskCounts'];

export interface CountFilters {
  projectId: string;
  type: string;
  locale: string;
}

export function useExportCounts(filters: CountFilters) {
  return useQuery({
    queryKey: ['exports', 'counts', filters],
    queryFn: () =>
      call(
        api.GET('/tasks/counts', {
          params: {
            query: {
              ...(filters.projectId ? { projectId: filters.projectId } : {}),
              ...(isTaskType(filters.type) ? { type: filters.type } : {}),
              ...(isLocale(filters.locale) ? { locale: filters.locale } : {}),
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
}
