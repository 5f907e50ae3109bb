// Which of the dashboard's queries each of the buyer's events changes (by query key prefix).
import type { QueryKey } from '@tanstack/react-query';
import type { StreamedEvent } from './eventStream';

const TASK_VIEWS: QueryKey[] = [
  ['tasks', 'list'],
  ['tasks', 'counts'],
  // A decided or expired task leaves the tasks at risk of missing their deadline.
  ['tasks', 'at-risk'],
  ['projects', 'detail'],
  ['projects', 'distribution'],
  // A decided pair moves its group's ranking and win rates.
  ['projects', 'pairwise'],
];
/** The spending caps (billing/queries.ts's billingKeys.caps): what a task commits moves when it is decided. */
const CAPS: QueryKey = ['billing', 'caps'];
/** Everything the stream keeps fresh: refreshed whole when it (re)opens, since events may have been missed. */
export const STREAMED_QUERIES: QueryKey[] = [...TASK_VIEWS, ['tasks', 'detail'], ['overview'], ['me'], ['billing', 'ledger'], CAPS, ['webhooks']];

/** The queries an event changes (by key prefix). */
export function queriesChangedBy(event: Pick<StreamedEvent, 'type' | 'taskId'>): QueryKey[] {
  // Every event is in the overview's recent events and makes deliveries in the webhook logs.
  const always: QueryKey[] = [['overview'], ['webhooks']];
  switch (event.type) {
    case 'task.completed':
      // The charge: the balance, a ledger row, and what the task commits under its caps (its price now, not its budget).
      return [...always, ...TASK_VIEWS, ['tasks', 'detail', event.taskId], ['me'], ['billing', 'ledger'], CAPS];
    case 'task.rejected':
      // The task open again: its refund and reserve (the balance, a REFUND row, the caps), and the project's rejected results.
      return [...always, ...TASK_VIEWS, ['tasks', 'detail', event.taskId], ['me'], ['billing', 'ledger'], CAPS, ['projects', 'quality']];
    case 'task.failed':
      // The released reserve: the balance, and the caps (a failed task commits nothing).
      return [...always, ...TASK_VIEWS, ['tasks', 'detail', event.taskId], ['me'], CAPS];
    case 'budget.low':
      return [...always, ['me'], ['billing', 'ledger']];
    case 'budget.cap_reached':
      // A cap refused work, or a holding project held some: the caps' figures and held counts, and the overview (always).
      return [...always, CAPS];
    default:
      return always;
  }
}
