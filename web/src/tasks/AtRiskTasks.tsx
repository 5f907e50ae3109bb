// The open tasks at risk of missing their deadline (GET /tasks/at-risk, tasks:read): those whose deadline
// is nearer than the median time their project's tasks take from creation to completion — the service's
// default of 5 minutes, said as such, while none of the project's tasks has completed — soonest deadline
// first, on the tasks page, the overview and (of its own tasks) a project's page. Each row names the task
// (it opens in the drawer), how far its deadline is (live), the median it is compared with, its priority
// and status. "Load more" asks for the next page by the API's cursor, and the line under the rows says
// whether more are at risk than are shown.
import { useMemo } from 'react';
import { Link } from 'react-router';
import { taskListPath } from '../links';
import { Button } from '../ui/Button';
import { EmptyState, ErrorNote, Loading } from '../ui/Feedback';
import { Card } from '../ui/Page';
import { StatusBadge } from '../ui/StatusBadge';
import { formatDateTime } from '../ui/format';
import { useNow } from '../ui/useNow';
import { atRiskSummary, medianWords, priorityWords, signed, untilWords } from './deadlines';
import { HeldBadge } from './Held';
import { shortDateTime } from './TaskTable';
import { useTasksAtRisk, type TaskAtRisk } from './queries';
import { excerpt } from './taskFormat';
import { shortTypeLabel } from './vocabulary';
import './tasks.css';

const NONE_AT_RISK = 'An open task appears here once its deadline is nearer than its project’s median completion time.';

/** The card's id, for a link or a picture of it. */
export const AT_RISK_ANCHOR = 'at-risk';

interface AtRiskTasksProps {
  /** Only this project's tasks (a project's page; the tasks page's project filter). */
  projectId?: string | undefined;
  /** How many rows a page holds: the first, and each "Load more" adds. */
  pageSize: number;
  /** The rows open the task in this page's drawer (the tasks page); elsewhere each links to it on the task list. */
  onOpen?: (taskId: string) => void;
  openTaskId?: string | null;
  /** The projects' names, to say each row's project where the list holds every project's tasks. */
  projectNames?: Map<string, string>;
  /** One line instead of the empty state's box (the tasks page, where the task list follows). */
  compactEmpty?: boolean;
}

export function AtRiskTasks({ projectId, pageSize, onOpen, openTaskId = null, projectNames, compactEmpty = false }: AtRiskTasksProps) {
  const atRisk = useTasksAtRisk({ projectId, pageSize });
  const now = useNow();
  const tasks = useMemo(() => atRisk.data?.pages.flatMap((page) => page.tasks), [atRisk.data]);
  return (
    <Card title="At risk of missing the deadline" id={AT_RISK_ANCHOR}>
      {atRisk.isPending ? <Loading label="Loading the tasks at risk…" /> : null}
      {atRisk.isError ? <ErrorNote error={atRisk.error} /> : null}
      {tasks && tasks.length === 0 ? (
        compactEmpty ? (
          <p className="at-risk-empty">{NONE_AT_RISK}</p>
        ) : (
          <EmptyState title="No task is at risk of missing its deadline">
            <p>{NONE_AT_RISK}</p>
          </EmptyState>
        )
      ) : null}
      {tasks && tasks.length > 0 ? (
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
              {tasks.map((task) => (
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
              {atRiskSummary(tasks.length, atRisk.hasNextPage)}
            </p>
            {atRisk.hasNextPage ? (
              <Button onClick={() => void atRisk.fetchNextPage()} busy={atRisk.isFetchingNextPage}>
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
  return (
    // On the tasks page the whole row opens the task, as a row of the task list does (its button is the keyboard's way).
    <tr
      data-task-id={task.id}
      className={[onOpen ? 'clickable' : '', open ? 'is-open' : ''].join(' ').trim() || undefined}
      onClick={onOpen ? () => onOpen(task.id) : undefined}
    >
      <td className="at-risk-task">
        {onOpen ? (
          <button
            type="button"
            className="link-button at-risk-open"
            onClick={(event) => {
              event.stopPropagation();
              onOpen(task.id);
            }}
          >
            {text}
          </button>
        ) : (
          <Link className="at-risk-open" to={taskListPath({ task: task.id, projectId })}>
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
        {median.time}
        {median.note ? <span className="at-risk-sub">{median.note}</span> : null}
      </td>
      <td className="num at-risk-priority" title={priorityWords(task.priority)}>
        {signed(task.priority)}
      </td>
      <td className="at-risk-status">{task.held ? <HeldBadge /> : <StatusBadge status={task.status} />}</td>
    </tr>
  );
}
