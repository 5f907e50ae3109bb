// The task list's filters, from the URL that holds them (links.ts's names) to the API queries they become
// (GET /tasks and GET /tasks/counts), in one place without React: the page, the links to it and the
// queries read and write them alike, and the tests check the round trip.
import type { operations } from '../../../sdk/src/generated/openapi';
import { TASK_LIST_PARAMS, type TaskListParam } from '../links';
import { PAGE_PARAMS } from '../ui/pagination';
import { isAnswerKind, isLocale, isStatus, isTaskType, type AnswerKind, type Locale, type TaskStatus, type TaskType } from './vocabulary';

export const PAGE_SIZE = 25;

export interface TaskFilters {
  status?: TaskStatus | undefined;
  type?: TaskType | undefined;
  projectId?: string | undefined;
  locale?: Locale | undefined;
  answerKind?: AnswerKind | undefined;
}

/** What the counts filter by: everything but the status, which they count by. */
export type CountFilters = Omit<TaskFilters, 'status'>;

/** The queries as the SDK's types have them, so a filter the API does not take fails the build. */
export type TaskListQuery = NonNullable<operations['listTasks']['parameters']['query']>;
export type TaskCountQuery = NonNullable<operations['countTasks']['parameters']['query']>;

/** The URL's changes: a value sets its parameter, undefined (or '') removes it. */
export type TaskListChanges = Partial<Record<TaskListParam, string | undefined>>;

/** The filters the URL names; values the API would refuse are ignored rather than sent. */
export function readTaskFilters(params: URLSearchParams): TaskFilters {
  const status = params.get(TASK_LIST_PARAMS.status);
  const type = params.get(TASK_LIST_PARAMS.type);
  const locale = params.get(TASK_LIST_PARAMS.locale);
  const answerKind = params.get(TASK_LIST_PARAMS.answerKind);
  // ?project= is what this page wrote before the names were shared: old bookmarks keep working.
  const project = params.get(TASK_LIST_PARAMS.projectId) ?? params.get('project');
  return {
    status: isStatus(status) ? status : undefined,
    type: isTaskType(type) ? type : undefined,
    locale: isLocale(locale) ? locale : undefined,
    projectId: project && project.length <= 64 ? project : undefined,
    answerKind: isAnswerKind(answerKind) ? answerKind : undefined,
  };
}

/**
 * The URL's parameters after `changes`. A filter that changes makes another list, which starts at its
 * first page (the cursor and page number go); opening or closing a task keeps the page.
 */
export function changeTaskListParams(previous: URLSearchParams, changes: TaskListChanges): URLSearchParams {
  const next = new URLSearchParams(previous);
  for (const [key, value] of Object.entries(changes) as [TaskListParam, string | undefined][]) {
    const name = TASK_LIST_PARAMS[key];
    if (value) next.set(name, value);
    else next.delete(name);
    if (key === 'projectId') next.delete('project');
    if (key !== 'task' && (previous.get(name) ?? undefined) !== (value || undefined)) {
      next.delete(PAGE_PARAMS.cursor);
      next.delete(PAGE_PARAMS.page);
    }
  }
  return next;
}

/** What "Clear filters" changes: every filter, not the open task. */
export const CLEARED_FILTERS: TaskListChanges = { status: undefined, type: undefined, projectId: undefined, locale: undefined, answerKind: undefined };

export const hasFilter = (filters: TaskFilters): boolean =>
  Boolean(filters.status || filters.type || filters.projectId || filters.locale || filters.answerKind);

/** One key per list: another key is another list, which starts afresh. */
export const filtersKey = (filters: TaskFilters): string =>
  JSON.stringify([filters.status, filters.type, filters.projectId, filters.locale, filters.answerKind]);

/** `value` without its undefined and empty fields: the query's parameters, and a stable cache key. */
export const definedFields = <T extends object>(value: T): T => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== '')) as T;

/** GET /tasks's query: one page of the filtered list. */
export function taskListQuery(filters: TaskFilters, cursor: string | undefined): TaskListQuery {
  const { status, type, projectId, locale, answerKind } = filters;
  return { ...definedFields({ status, type, projectId, locale, answerKind }), limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) };
}

/**
 * GET /tasks/counts's query: the filters but the status (the counts are by status). With `exported`,
 * only the tasks an export can hold.
 */
export function taskCountQuery(filters: CountFilters, { exported = false }: { exported?: boolean } = {}): TaskCountQuery {
  const { type, projectId, locale, answerKind } = filters;
  return definedFields({ projectId, type, locale, answerKind, ...(exported ? { exported: 'true' as const } : {}) });
}
