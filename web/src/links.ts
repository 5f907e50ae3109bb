// The query parameters of the pages other pages link to — the task list and the export form — named
// once here, so a link and the page it opens can never disagree (?projectId= on one side, ?project= on
// the other). Names follow the API's own query parameters.

/** What the task list reads from its URL: the filters and the open task. */
export const TASK_LIST_PARAMS = {
  status: 'status',
  type: 'type',
  projectId: 'projectId',
  locale: 'locale',
  answerKind: 'answerKind',
  task: 'task',
} as const;

export type TaskListParam = keyof typeof TASK_LIST_PARAMS;

/** What the export form takes as first values from its URL. */
export const EXPORT_PARAMS = {
  format: 'format',
  status: 'status',
  projectId: 'projectId',
  type: 'type',
  locale: 'locale',
  trainRatio: 'trainRatio',
  valRatio: 'valRatio',
  testRatio: 'testRatio',
  seed: 'seed',
  includeTies: 'includeTies',
} as const;

export type ExportParam = keyof typeof EXPORT_PARAMS;

function withQuery(path: string, names: Record<string, string>, values: Partial<Record<string, string | undefined>>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    const name = names[key];
    if (name && value) query.set(name, value);
  }
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** /tasks with filters and, optionally, one task open in the drawer. */
export const taskListPath = (values: Partial<Record<TaskListParam, string | undefined>> = {}): string => withQuery('/tasks', TASK_LIST_PARAMS, values);

/**
 * The task list's query (`search`, as location.search gives it) with another task open in its drawer: the
 * filters and the page stay, so a link between a text task and its review keeps the list as it was.
 */
export function withOpenTask(search: string, taskId: string): string {
  const query = new URLSearchParams(search);
  query.set(TASK_LIST_PARAMS.task, taskId);
  return `?${query.toString()}`;
}

/** /exports with the form's first values. */
export const exportPath = (values: Partial<Record<ExportParam, string | undefined>> = {}): string => withQuery('/exports', EXPORT_PARAMS, values);
