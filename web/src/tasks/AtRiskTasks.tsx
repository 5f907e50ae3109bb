// The open tasks at risk of missing their deadline (GET /tasks/at-risk, tasks:read): those whose deadline
// is nearer than the median time their project's tasks take from creation to completion — the service's
// default of 5 minutes, said as such, while none of the project's tasks has completed — soonest deadline
// first, on the tasks page, the overview and (of its own tasks) a project's page. Each row names the task
// (it opens in the drawer), how far its deadline is (live), the median it is compared with, its priority
// and status. "Load more" raises the limit (the API gives the nearest `limit`, 100 at most) and the line
// under the rows says whether more are at risk than are shown.
import { useState } from 'react';
import { Link } from 'react-router';
import { taskListPath } from '../links';
import { Button } from '../ui/Button';
import { EmptyState, ErrorNote, Loading } from '../ui/Feedback';
import { Card } from '../ui/Page';
import { StatusBadge } from '../ui/StatusBadge';
import { formatDateTime } from '../ui/format';
import { useNow } from '../ui/useNow';
import { atRiskSummary, MAX_AT_RISK, medianWords, nextAtRiskLimit, priorityWords, signed, untilWords } from './deadlines';
import { HeldBadge } from './Held';
import { useTasksAtRisk, type TaskAtRisk } from './queries';
import { excerpt } from './taskFormat';
import { shortTypeLabel, typeLabel } from './vocabulary';
import './tasks.css';

const shortDateTime = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });

const NONE_AT_RISK = 'An open task appears here once its deadline is nearer than its project’s median completion time.';

/** The card's id, for a link or a picture of it. */
export const AT_RISK_ANCHOR = 'at-risk';

interface AtRiskTasksProps {
  /** Only this project's tasks (a project's page; the tasks page's project filter). */
  projectId?: string | undefined;
  /** How many rows first; "Load more" adds as many again. */
  firstLimit: number;
  /** The rows open the task in this page's drawer (the tasks page); elsewhere each links to it on the task list. */
  onOpen?: (taskId: string) => void;
  openTaskId?: string | null;
  /** The projects' names, to say each row's project where the list holds every project's tasks. */
  projectNames?: Map<string, string>;
  /** One line instead of the empty state's box (the tasks page, where the task list follows). */
  compactEmpty?: boolean;
}

export function AtRiskTasks({ projectId, firstLimit, onOpen, openTaskId = null, projectNames, compactEmpty = false }: AtRiskTasksProps) {
  const [limit, setLimit] = useState(firstLimit);
  const atRisk = useTasksAtRisk({ projectId, limit });
  const now = useNow();
  const data = atRisk.data;
  return (
    <Card title="At risk of missing the deadline" id={AT_RISK_ANCHOR}>
      {atRisk.isPending ? <Loading label="Loading the tasks at risk…" /> : null}
      {atRisk.isError ? <ErrorNote error={atRisk.error} /> : null}
      {data && data.tasks.length === 0 ? (
        compactEmpty ? (
          <p className="at-risk-empty">{NONE_AT_RISK}</p>
        ) : (
          <EmptyState title="No task is at risk of missing its deadline">
            <p>{NONE_AT_RISK}</p>
          </EmptyState>
        )
      ) : null}
      {data && data.tasks.length > 0 ? (
        <>
          <p className="at-risk-intro">
            Open tasks whose deadline is nearer than their project’s median completion time. Give one a later deadline or a higher priority, or it may expire
            (failed, not charged).
          </p>
          <table className="at-risk-table">
            <caption className="sr-only">Open tasks at risk of missing their deadline, soonest deadline first</caption>
            <thead>
              <tr>
                <th scope="col">Task</th>
                <th scope="col">Deadline</th>
                <th scope="col">Median completion</th>
                <th scope="col" className="num">
                  Priority
                </th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {data.tasks.map((task) => (
                <AtRiskRow
                  key={task.id}
                  task={task}
                  now={now}
                  open={task.id === openTaskId}
                  onOpen={onOpen}
                  projectId={projectId}
                  projectName={!projectId && task.projectId ? projectNames?.get(task.projectId) : undefined}
                />
              ))}
            </tbody>
          </table>
          <div className="at-risk-footer">
            <p className="at-risk-summary" aria-live="polite">
              {atRiskSummary(data.tasks.length, data.hasMore, limit)}
            </p>
            {data.hasMore && limit < MAX_AT_RISK ? (
              <Button onClick={() => setLimit((current) => nextAtRiskLimit(current, firstLimit))} busy={atRisk.isPlaceholderData}>
                Load more
              </Button>
            ) : null}
          </div>
        </>
      ) : null}
    </Card>
  );
}

interface AtRiskRowProps {
  task: TaskAtRisk;
  now: Date;
  open: boolean;
  onOpen: ((taskId: string) => void) | undefined;
  projectId: string | undefined;
  projectName: string | undefined;
}

function AtRiskRow({ task, now, open, onOpen, projectId, projectName }: AtRiskRowProps) {
  const median = medianWords(task);
  const text = excerpt(task.content, 80);
  const title = `${excerpt(task.content, 300)} (${typeLabel(task.type)})`;
  return (
    <tr data-task-id={task.id} className={open ? 'is-open' : undefined}>
      <td className="at-risk-task">
        {onOpen ? (
          <button type="button" className="link-button at-risk-open" title={title} onClick={() => onOpen(task.id)}>
            {text}
          </button>
        ) : (
          <Link className="at-risk-open" title={title} to={taskListPath({ task: task.id, projectId })}>
            {text}
          </Link>
        )}
        <span className="at-risk-sub">
          {shortTypeLabel(task.type)}
          {projectName ? ` · ${projectName}` : null}
        </span>
      </td>
      <td className="at-risk-deadline">
        {task.deadline ? (
          <>
            <time dateTime={task.deadline} title={formatDateTime(task.deadline)} className="at-risk-until">
              {untilWords(task.deadline, now)}
            </time>
            <span className="at-risk-sub">{shortDateTime.format(new Date(task.deadline))} UTC</span>
          </>
        ) : (
          '—'
        )}
      </td>
      <td className="at-risk-median">
        <span className="at-risk-label">Median completion </span>
        {median.time}
        {median.note ? <span className="at-risk-sub">{median.note}</span> : null}
      </td>
      <td className="num at-risk-priority" title={priorityWords(task.priority)}>
        <span className="at-risk-label">Priority </span>
        {signed(task.priority)}
      </td>
      <td className="at-risk-status">{task.held ? <HeldBadge /> : <StatusBadge status={task.status} />}</td>
    </tr>
  );
}
