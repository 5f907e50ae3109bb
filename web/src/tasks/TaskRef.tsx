// A task named where only its id is known (recent events, the ledger, a webhook's deliveries): the
// start of its content as a link that opens it in the task list's drawer; its id while the content
// loads, or once the task is gone.
import { Link } from 'react-router';
import { taskListPath } from '../links';
import { useTaskSummary } from './queries';
import { excerpt } from './taskFormat';
import { shortTypeLabel } from './vocabulary';

/** "cmwvwpwv…x120z": enough of an id to tell two apart, short enough for a table cell. */
export const shortId = (id: string): string => (id.length > 14 ? `${id.slice(0, 8)}…${id.slice(-5)}` : id);

export function TaskRef({ taskId, length = 48 }: { taskId: string; length?: number }) {
  const summary = useTaskSummary(taskId);
  const data = summary.data;
  if (!data) {
    return (
      <span className="task-ref">
        <Link to={taskListPath({ task: taskId })} className="mono" title={taskId}>
          <span className="sr-only">Task </span>
          {shortId(taskId)}
        </Link>
        {summary.isError ? <span className="task-ref-meta"> (no longer exists)</span> : null}
      </span>
    );
  }
  const text = excerpt(data.content, length);
  return (
    <span className="task-ref">
      <Link to={taskListPath({ task: taskId })} title={`${excerpt(data.content, 300)} (${taskId})`}>
        “{text}”
      </Link>{' '}
      <span className="task-ref-meta">{shortTypeLabel(data.type)}</span>
    </span>
  );
}
