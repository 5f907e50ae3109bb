// Links to the task list and the export form carry the parameter names those pages read.
import { describe, expect, it } from 'vitest';
import { requestFromUrl } from './exports/exportRequest';
import { exportPath, TASK_LIST_PARAMS, taskListPath } from './links';

const query = (path: string) => new URLSearchParams(path.split('?')[1] ?? '');

describe('taskListPath', () => {
  it('names the filters and the open task as the task list reads them', () => {
    const path = taskListPath({ projectId: 'p 1', status: 'COMPLETED', task: 't1', type: undefined });
    expect(path.startsWith('/tasks?')).toBe(true);
    const params = query(path);
    expect(params.get(TASK_LIST_PARAMS.projectId)).toBe('p 1');
    expect(params.get(TASK_LIST_PARAMS.status)).toBe('COMPLETED');
    expect(params.get(TASK_LIST_PARAMS.task)).toBe('t1');
    expect(params.has(TASK_LIST_PARAMS.type)).toBe(false);
    expect(taskListPath()).toBe('/tasks');
  });
});

describe('exportPath', () => {
  it('opens the export form with the project chosen', () => {
    const path = exportPath({ projectId: 'p1' });
    expect(requestFromUrl(query(path)).request.projectId).toBe('p1');
  });
});
