// The buyer's tasks by status, each count a link to the task list filtered by that status.
import { Link } from 'react-router';
import { taskListPath } from '../links';
import type { TaskCounts as Counts } from '../tasks/queries';
import { STATUSES } from '../tasks/vocabulary';
import { formatCount } from '../ui/format';

export function TaskCounts({ counts }: { counts: Counts | undefined }) {
  return (
    <ul className="ov-counts" aria-busy={counts === undefined || undefined}>
      {STATUSES.map(({ value: status, label, hint }) => {
        const value = counts?.counts[status];
        return (
          <li key={status} className={`ov-count ov-count-${status.toLowerCase()}`}>
            {/* The link's name is its visible text, "Pending 12 tasks" (or "… 1 task"); the whole tile is its target. */}
            <Link to={taskListPath({ status })} className="ov-count-link">
              <span className="ov-count-label">{label}</span> <span className="ov-count-value">{value === undefined ? '…' : formatCount(value)}</span>
              <span className="sr-only">{value === 1 ? ' task' : ' tasks'}</span>
            </Link>
            <span className="ov-count-hint">{hint}</span>
          </li>
        );
      })}
    </ul>
  );
}
