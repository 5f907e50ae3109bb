// Links to the task list and the export form carry the parameter names those pages read.
import { describe, expect, it } from 'vitest';
import { requestFromUrl } from './exports/exportRequest';
import { exportPath, TASK_LIST_PARAMS, taskListPath, withOpenTask } from './links';

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

describe('withOpenTask', () => {
  it('opens another task in the drawer, keeping the filters and the page', () => {
    const search = withOpenTask('?status=COMPLETED&projectId=p1&cursor=c2&page=2&task=text-1', 'text-1-review');
    const params = new URLSearchParams(search);
    expect(search.startsWith('?')).toBe(true);
    expect(params.get(TASK_LIST_PARAMS.task)).toBe('text-1-review');
    expect(params.get(TASK_LIST_PARAMS.status)).toBe('COMPLETED');
    expect(params.get(TASK_LIST_PARAMS.projectId)).toBe('p1');
    expect(params.get('page')).toBe('2');
    expect(new URLSearchParams(withOpenTask('', 't 2')).get(TASK_LIST_PARAMS.task)).toBe('t 2');
  });
});

describe('exportPath', () => {
  it('opens the export form with the project chosen', () => {
    const path = exportPath({ projectId: 'p1' });
    expect(requestFromUrl(query(path)).request.projectId).toBe('p1');
  });
});
