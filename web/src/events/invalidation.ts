// Which of the dashboard's queries each of the buyer's events changes (by query key prefix).
import type { QueryKey } from '@tanstack/react-query';
import type { StreamedEvent } from './eventStream';

const TASK_VIEWS: QueryKey[] = [
  ['tasks', 'list'],
  ['tasks', 'counts'],
  ['projects', 'detail'],
  ['projects', 'distribution'],
  // A decided pair moves its group's ranking and win rates.
  ['projects', 'pairwise'],
];
/** Everything the stream keeps fresh: refreshed whole when it (re)opens, since events may have been missed. */
export const STREAMED_QUERIES: QueryKey[] = [...TASK_VIEWS, ['tasks', 'detail'], ['overview'], ['me'], ['billing', 'ledger'], ['webhooks']];

/** The queries an event changes (by key prefix). */
export function queriesChangedBy(event: Pick<StreamedEvent, 'type' | 'taskId'>): QueryKey[] {
  // Every event is in the overview's recent events and makes deliveries in the webhook logs.
  const always: QueryKey[] = [['overview'], ['webhooks']];
  switch (event.type) {
    case 'task.completed':
      // The charge: the balance and a ledger row.
      return [...always, ...TASK_VIEWS, ['tasks', 'detail', event.taskId], ['me'], ['billing', 'ledger']];
    case 'task.failed':
      // The released reserve: the balance.
      return [...always, ...TASK_VIEWS, ['tasks', 'detail', event.taskId], ['me']];
    case 'budget.low':
      return [...always, ['me'], ['billing', 'ledger']];
    default:
      return always;
  }
}
