// What GET /tasks/:id says about one task in the drawer: its status and type above, then result,
// confidence, failure reason, money, answer counts and times.
import { Link } from 'react-router';
import { StatusBadge } from '../ui/StatusBadge';
import { Notice } from '../ui/Feedback';
import { formatCents, formatDateTime } from '../ui/format';
import type { ProjectOption } from './queries';
import { formatConfidence, formatResult, ratingSentence } from './taskFormat';
import { answerKindLabel, typeLabel, type Task } from './vocabulary';

export function TaskSummary({ task, projects }: { task: Task; projects: ProjectOption[] }) {
  const project = task.projectId ? projects.find((p) => p.id === task.projectId) : undefined;
  const settled = task.status === 'COMPLETED' || task.status === 'FAILED';
  return (
    <>
      {/* The status is said here once, as a badge; live, like the facts below, while annotators answer. */}
      <div className="task-detail-head" aria-live="polite">
        <StatusBadge status={task.status} />
        <span>{typeLabel(task.type)}</span>
        {!settled ? (
          <span className="task-live" aria-hidden="true">
            Live
          </span>
        ) : null}
      </div>
      {task.status === 'FAILED' ? (
        <Notice tone="warning">
          {task.failureReason === 'NO_CONSENSUS'
            ? `The annotators did not agree after ${task.totalResponses} answers (NO_CONSENSUS). Nothing was charged and the budget was released.`
            : `This task failed${task.failureReason ? ` (${task.failureReason})` : ''}. Nothing was charged.`}
        </Notice>
      ) : null}
      <dl className="facts task-facts" aria-live="polite">
        <dt>Answer</dt>
        <dd>
          {answerKindLabel(task.answerKind)}
          {task.answerKind === 'rating' ? <span className="task-muted"> ({task.options.join(' < ')})</span> : null}
          {task.answerKind === 'multi' ? <span className="task-muted">{task.allowEmpty ? ' (the empty set allowed)' : ' (at least one option)'}</span> : null}
          {task.answerKind === 'pairwise' ? <span className="task-muted">{task.allowTie ? ' (A, B or a tie)' : ' (A or B, no tie)'}</span> : null}
        </dd>
        {task.answerKind === 'pairwise' ? (
          <>
            <dt>Group</dt>
            <dd>{task.group ?? <span className="task-muted">None: ranked alone</span>}</dd>
          </>
        ) : null}
        <dt>Result</dt>
        <dd>{formatResult(task.result, task.answerKind)}</dd>
        {task.optionConfidence ? (
          <>
            <dt>By option</dt>
            <dd>
              {/* In the task's option order (the stored object's keys come in another). */}
              {task.options.map((option) => `${option} ${formatConfidence(task.optionConfidence?.[option] ?? null)}`).join(' · ')}
            </dd>
          </>
        ) : null}
        {task.rating ? (
          <>
            <dt>Rating</dt>
            <dd>{ratingSentence(task.rating, task.options)}</dd>
          </>
        ) : null}
        <dt>Confidence</dt>
        <dd>{formatConfidence(task.confidence)}</dd>
        <dt>Failure reason</dt>
        <dd>{task.failureReason ?? '—'}</dd>
        <dt>Answers</dt>
        <dd>
          {task.totalResponses} received · {task.validationsNeeded} needed · at most {task.maxResponses}
        </dd>
        <dt>Budget</dt>
        <dd>
          {formatCents(task.maxCents)} <span className="task-muted">{settled ? '(released)' : '(reserved from your balance)'}</span>
        </dd>
        <dt>Price</dt>
        <dd>
          {formatCents(task.costCents)}{' '}
          <span className="task-muted">
            {task.status === 'COMPLETED' ? '(charged)' : task.status === 'FAILED' ? '(not charged)' : '(charged when it completes)'}
          </span>
        </dd>
        <dt>Locale</dt>
        <dd>{task.locale}</dd>
        <dt>Project</dt>
        <dd>
          {task.projectId ? project ? <Link to={`/projects/${task.projectId}`}>{project.name}</Link> : <span className="mono">{task.projectId}</span> : '—'}
        </dd>
        <dt>Created</dt>
        <dd>{formatDateTime(task.createdAt)}</dd>
        <dt>Validated</dt>
        <dd>{formatDateTime(task.validatedAt)}</dd>
        <dt>Task id</dt>
        <dd className="mono">{task.id}</dd>
      </dl>
    </>
  );
}
