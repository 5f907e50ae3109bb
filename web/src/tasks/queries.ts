// The tasks area's server state: TanStack Query hooks over GET/POST/PATCH/DELETE /tasks…, the live
// counts (the one hook the tasks page, the overview and the export form share, under ['tasks', 'counts']),
// the open tasks at risk of missing their deadline (['tasks', 'at-risk']), and the CSV upload (XMLHttpRequest, for its upload progress). Every mutation that creates, changes or
// deletes tasks invalidates ['tasks'] and the balance (['billing'], ['me']), since a task reserves its
// budget, and ['projects'], whose stats count tasks.
import { useMemo } from 'react';
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { paths } from '../../../sdk/src/generated/openapi';
import { api, call, callReplayable, currentCredential, REPLAYED_HEADER, reportUnauthorized, toErrorBody, type Schemas } from '../api/client';
import { ApiError, NETWORK_ERROR, parseRetryAfter } from '../api/errors';
import { useProjectChoices } from '../projects/queries';
import { liveInterval, streamedInterval } from '../ui/live';
import { taskCountQuery, taskListQuery, type CountFilters, type TaskFilters } from './taskFilters';
import type { Locale, ProjectDefaultKind, Task, TaskStatus } from './vocabulary';

export { PAGE_SIZE, type CountFilters, type TaskFilters } from './taskFilters';

export interface TaskCounts {
  counts: Record<TaskStatus, number>;
  total: number;
}

export type TaskInput = Schemas['TaskInput'];
/** What PATCH /tasks/:id changes: the first four while the task is PENDING, its deadline (null: none) and priority while it is open. */
export type TaskChanges = {
  maxCents?: number;
  validationsNeeded?: number;
  locale?: Locale;
  projectId?: string | null;
  deadline?: string | null;
  priority?: number;
};
export type TasksAtRisk = Schemas['TasksAtRisk'];
export type TaskAtRisk = TasksAtRisk['tasks'][number];
export type CreateTaskResult = paths['/tasks']['post']['responses'][201]['content']['application/json'];
export type BatchResult = paths['/tasks/batch']['post']['responses'][201]['content']['application/json'];
export type CsvImportResult = paths['/tasks/batch/csv']['post']['responses'][201]['content']['application/json'];

/** One page of the buyer's tasks (25, newest first), live while annotators work. */
export function useTasks(filters: TaskFilters, cursor: string | undefined) {
  const query = taskListQuery(filters, cursor);
  return useQuery({
    queryKey: ['tasks', 'list', query],
    queryFn: () => call(api.GET('/tasks', { params: { query } })),
    refetchInterval: streamedInterval,
    placeholderData: keepPreviousData,
  });
}

/**
 * Tasks by status under project/type/locale/answer-kind filters (GET /tasks/counts), live. One hook and
 * one key for every page that counts tasks, so the overview, the task list and the export form share the
 * cache and a task mutation's invalidation of ['tasks'] refreshes them all. With `exported`, only the tasks an
 * export can hold (exported=true: the reviews of written answers are left out, their text task carries
 * the result).
 */
export function useTaskCounts(filters: CountFilters = {}, { exported = false, enabled = true }: { exported?: boolean; enabled?: boolean } = {}) {
  const query = taskCountQuery(filters, { exported });
  return useQuery({
    queryKey: ['tasks', 'counts', query],
    enabled,
    queryFn: (): Promise<TaskCounts> => call(api.GET('/tasks/counts', { params: { query } })),
    refetchInterval: streamedInterval,
    placeholderData: keepPreviousData,
  });
}

const isSettled = (task: Task | undefined) => task?.status === 'COMPLETED' || task?.status === 'FAILED';

/** One task with its answers; polled while it can still change (PENDING or VALIDATING). */
export function useTask(id: string | null) {
  return useQuery({
    queryKey: ['tasks', 'detail', id],
    queryFn: () => call(api.GET('/tasks/{id}', { params: { path: { id: id ?? '' } } })),
    enabled: Boolean(id),
    refetchInterval: (query) => (isSettled(query.state.data) ? false : liveInterval(query)),
  });
}

/**
 * Open tasks whose deadline is nearer than their project's median completion time, soonest first
 * (GET /tasks/at-risk, tasks:read), `pageSize` at a time by the API's cursor ("Load more" asks for the page
 * after the last one loaded); of one project with `projectId`. Time alone moves a task into the list, so it
 * is polled (slowly while the event stream is up, which refreshes it when a task is decided or expires);
 * `enabled`: false for a role that may not read tasks.
 */
export function useTasksAtRisk({ projectId, pageSize, enabled = true }: { projectId?: string | undefined; pageSize: number; enabled?: boolean }) {
  const query = { limit: pageSize, ...(projectId ? { projectId } : {}) };
  return useInfiniteQuery({
    queryKey: ['tasks', 'at-risk', query],
    queryFn: ({ pageParam }): Promise<TasksAtRisk> =>
      call(api.GET('/tasks/at-risk', { params: { query: { ...query, ...(pageParam ? { cursor: pageParam } : {}) } } })),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.hasMore && last.nextCursor ? last.nextCursor : undefined),
    enabled,
    refetchInterval: streamedInterval,
  });
}

/**
 * What names a task where only its id is known (an event, a ledger row, a webhook delivery): its type and
 * content, which never change, so each task is asked once per session (and not polled like the drawer's).
 */
export function useTaskSummary(id: string) {
  return useQuery({
    queryKey: ['tasks', 'summary', id],
    queryFn: () => call(api.GET('/tasks/{id}', { params: { path: { id } } })),
    select: (task) => ({ type: task.type, content: task.content }),
    staleTime: Infinity,
  });
}

export interface ProjectOption {
  id: string;
  name: string;
  /** The kind its tasks take when they name none (null: single choice): Create task preselects it. */
  defaultAnswerKind?: ProjectDefaultKind | null;
  /** The hours after creation its tasks' deadline falls when they name none (null: none): Create task says so. */
  defaultDeadlineHours?: number | null;
}

/** The buyer's projects as {id, name, defaultAnswerKind, defaultDeadlineHours} for filters, forms and the project column (the projects area's list). */
export function useProjectOptions() {
  const choices = useProjectChoices();
  const data = useMemo(
    () =>
      choices.data?.map((p): ProjectOption => ({
        id: p.id,
        name: p.name,
        defaultAnswerKind: p.defaultAnswerKind,
        defaultDeadlineHours: p.defaultDeadlineHours,
      })),
    [choices.data],
  );
  return { data, isError: choices.isError, error: choices.error };
}

function invalidateAfterTaskChange(client: QueryClient) {
  for (const key of [['tasks'], ['billing'], ['me'], ['projects']]) void client.invalidateQueries({ queryKey: key });
}

export function useCreateTask() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ input, idempotencyKey }: { input: TaskInput; idempotencyKey: string }) =>
      call(api.POST('/tasks', { body: input, params: { header: { 'Idempotency-Key': idempotencyKey } } })),
    onSuccess: () => invalidateAfterTaskChange(client),
  });
}

export function useUpdateTask() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: TaskChanges }) => call(api.PATCH('/tasks/{id}', { params: { path: { id } }, body: changes })),
    onSuccess: (task) => {
      client.setQueryData(['tasks', 'detail', task.id], task);
      invalidateAfterTaskChange(client);
    },
  });
}

/**
 * Rejects a completed task's result (POST /tasks/:id/reject, tasks:write): the answer is the task reopened,
 * shown at once; its refund and reserve move the balance, the ledger and the caps (['billing'], ['me']), its
 * status the lists and counts, the project's quality figures count it, and the overview's events show it.
 */
export function useRejectTask() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) => call(api.POST('/tasks/{id}/reject', { params: { path: { id } }, body: { reason } })),
    onSuccess: (task) => {
      client.setQueryData(['tasks', 'detail', task.id], task);
      invalidateAfterTaskChange(client);
      void client.invalidateQueries({ queryKey: ['overview'] });
    },
  });
}

export function useDeleteTask() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(api.DELETE('/tasks/{id}', { params: { path: { id } } })),
    onSuccess: (_data, id) => {
      client.removeQueries({ queryKey: ['tasks', 'detail', id] });
      invalidateAfterTaskChange(client);
    },
  });
}

/** An import's answer, and whether it replays an earlier request with the same content (nothing new created). */
export interface ImportOutcome<T> {
  result: T;
  replayed: boolean;
  idempotencyKey: string;
}

export function useCreateBatch() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ body, idempotencyKey }: { body: { tasks: unknown[] }; idempotencyKey: string }): Promise<ImportOutcome<BatchResult>> => {
      // The pasted JSON goes to the service as it is: it is the judge (INVALID_TASK names the item).
      const { data, replayed } = await callReplayable(
        api.POST('/tasks/batch', { body: body as Schemas['TaskBatch'], params: { header: { 'Idempotency-Key': idempotencyKey } } }),
      );
      return { result: data, replayed, idempotencyKey };
    },
    onSuccess: (outcome) => {
      if (!outcome.replayed) invalidateAfterTaskChange(client);
    },
  });
}

export interface UploadProgress {
  loaded: number;
  total: number;
}

interface UploadOptions {
  file: File;
  idempotencyKey: string;
  onProgress: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

/** Thrown when the person cancels an upload. */
export class UploadCancelled extends Error {
  constructor() {
    super('The upload was cancelled.');
  }
}

/** POST /tasks/batch/csv through XMLHttpRequest, reporting the bytes sent as they go. */
export function uploadCsv({ file, idempotencyKey, onProgress, signal }: UploadOptions): Promise<ImportOutcome<CsvImportResult>> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/v1/tasks/batch/csv');
    const token = currentCredential();
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.setRequestHeader('Idempotency-Key', idempotencyKey);
    xhr.upload.onprogress = (event) => onProgress({ loaded: event.loaded, total: event.lengthComputable ? event.total : file.size });
    xhr.upload.onload = () => onProgress({ loaded: file.size, total: file.size });
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // Not JSON (a proxy's page): described by its status below.
      }
      if (xhr.status === 201) {
        resolve({ result: body as CsvImportResult, replayed: xhr.getResponseHeader(REPLAYED_HEADER) === 'true', idempotencyKey });
        return;
      }
      if (xhr.status === 401) reportUnauthorized(token);
      reject(new ApiError(xhr.status, toErrorBody(body, xhr.status, xhr.statusText), parseRetryAfter(xhr.getResponseHeader('retry-after'))));
    };
    xhr.onerror = () => reject(new ApiError(0, NETWORK_ERROR));
    xhr.ontimeout = () => reject(new ApiError(0, NETWORK_ERROR));
    xhr.onabort = () => reject(new UploadCancelled());
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

export function useUploadCsv() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: uploadCsv,
    onSuccess: (outcome) => {
      if (outcome.result.created > 0 && !outcome.replayed) invalidateAfterTaskChange(client);
    },
  });
}
