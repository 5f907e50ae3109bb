// Golden tasks: the paginated list with each one's score, creation and deletion.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, type Schemas } from '../api/client';

export type GoldenTask = Schemas['GoldenTask'];
export type GoldenTaskInput = Schemas['GoldenTaskInput'];

const PAGE_SIZE = 25;

export function useGoldenTasks(cursor: string | undefined) {
  return useQuery({
    queryKey: ['golden', 'list', cursor ?? null],
    queryFn: () => call(api.GET('/golden-tasks', { params: { query: { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) } } })),
    placeholderData: keepPreviousData,
  });
}

export function useCreateGoldenTask() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: GoldenTaskInput; idempotencyKey: string }) =>
      call(api.POST('/golden-tasks', { body, params: { header: { 'Idempotency-Key': idempotencyKey } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: ['golden'] }),
  });
}

export function useDeleteGoldenTask() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(api.DELETE('/golden-tasks/{id}', { params: { path: { id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: ['golden'] }),
  });
}
