// The task list's filters: from a link's URL to the page's filters and back, and the API queries they
// make (the answer kind goes to both the list and the counts).
import { ANSWER_KINDS } from '@concord/contract';
import { describe, expect, it } from 'vitest';
import { TASK_LIST_PARAMS, taskListPath } from '../links';
import {
  changeTaskListParams,
  CLEARED_FILTERS,
  filtersKey,
  hasFilter,
  PAGE_SIZE,
  readTaskFilters,
  taskCountQuery,
  taskListQuery,
  type TaskFilters,
} from './taskFilters';
import { ANSWER_KIND_NAMES } from './vocabulary';

const query = (path: string) => new URLSearchParams(path.split('?')[1] ?? '');

describe('the task list URL', () => {
  it('reads back every filter a link writes, the answer kind included', () => {
    const filters: TaskFilters = { status: 'COMPLETED', type: 'AI_RESPONSE_RATING', projectId: 'p 1', locale: 'fr', answerKind: 'rating' };
    const path = taskListPath(filters);
    expect(query(path).get('answerKind')).toBe('rating');
    expect(readTaskFilters(query(path))).toEqual(filters);
  });

  it('round-trips each answer kind of the contract, through what the page writes when the select changes', () => {
    for (const kind of ANSWER_KINDS) {
      const params = changeTaskListParams(new URLSearchParams('status=PENDING'), { answerKind: kind });
      expect(params.get(TASK_LIST_PARAMS.answerKind)).toBe(kind);
      expect(readTaskFilters(params)).toMatchObject({ status: 'PENDING', answerKind: kind });
    }
    // "All answer kinds" (the select's empty value) removes the parameter.
    const all = changeTaskListParams(new URLSearchParams('answerKind=multi&status=PENDING'), { answerKind: undefined });
    expect(all.has(TASK_LIST_PARAMS.answerKind)).toBe(false);
    expect(readTaskFilters(all).answerKind).toBeUndefined();
  });

  it('ignores an answer kind the API would refuse rather than sending it', () => {
    for (const value of ['Rating', 'toString', 'constructor', '', 'single ']) {
      expect(readTaskFilters(new URLSearchParams({ answerKind: value })).answerKind).toBeUndefined();
    }
  });

  it('starts another answer kind at its first page, and keeps the page when a task opens', () => {
    const onPage3 = new URLSearchParams('answerKind=text&cursor=c3&page=3');
    const other = changeTaskListParams(onPage3, { answerKind: 'pairwise' });
    expect(other.get('answerKind')).toBe('pairwise');
    expect(other.has('cursor') || other.has('page')).toBe(false);
    const same = changeTaskListParams(onPage3, { answerKind: 'text' });
    expect(same.get('page')).toBe('3');
    const opened = changeTaskListParams(onPage3, { task: 't1' });
    expect([opened.get('answerKind'), opened.get('task'), opened.get('page')]).toEqual(['text', 't1', '3']);
  });

  it('clears the answer kind with the other filters, keeping the open task', () => {
    const cleared = changeTaskListParams(new URLSearchParams('answerKind=multi&type=IMAGE_CLASSIFICATION&project=old&task=t1'), CLEARED_FILTERS);
    expect(cleared.toString()).toBe('task=t1');
    expect(hasFilter(readTaskFilters(cleared))).toBe(false);
    expect(hasFilter({ answerKind: 'single' })).toBe(true);
    // Another kind is another list (TaskList's key).
    expect(filtersKey({ answerKind: 'rating' })).not.toBe(filtersKey({ answerKind: 'multi' }));
  });
});

describe('the task list queries', () => {
  it('sends the answer kind to the list with the other filters and the page', () => {
    expect(taskListQuery({ status: 'PENDING', answerKind: 'multi', locale: undefined }, 'c2')).toEqual({
      status: 'PENDING',
      answerKind: 'multi',
      limit: PAGE_SIZE,
      cursor: 'c2',
    });
    expect(taskListQuery({}, undefined)).toEqual({ limit: PAGE_SIZE });
  });

  it('sends it to the counts too, which count by status rather than filter by it', () => {
    const filters: TaskFilters = { status: 'COMPLETED', type: 'BINARY_CHOICE', projectId: 'p1', answerKind: 'pairwise' };
    expect(taskCountQuery(filters)).toEqual({ type: 'BINARY_CHOICE', projectId: 'p1', answerKind: 'pairwise' });
    expect(taskCountQuery({ answerKind: 'text' }, { exported: true })).toEqual({ answerKind: 'text', exported: 'true' });
    expect(taskCountQuery({})).toEqual({});
  });

  it('offers every kind in the filter by its name alone', () => {
    expect(ANSWER_KIND_NAMES.map((kind) => kind.value)).toEqual([...ANSWER_KINDS]);
    expect(ANSWER_KIND_NAMES.map((kind) => kind.label)).toEqual(['Single choice', 'Rating', 'Multi-select', 'Pairwise', 'Written answer']);
  });
});
