// What GET /tasks/:id says about one task in the drawer: its status and type above, then result,
// confidence, failure reason (in words: no consensus, or expired), money, answer counts, its deadline
// (and how far it is) and priority, and times; a text task's review (a link, or when it
// opens) and its two prices, and a review task's text task; a task held by its project's budget cap says so.
// A task whose first result was rejected (revision 2) says so beside its result, and shows the rejected
// result with its confidence, the reason and when, and the target it is decided again at.
import { Link } from 'react-router';
import { StatusBadge } from '../ui/StatusBadge';
import { Notice } from '../ui/Feedback';
import { LongText } from '../ui/LongText';
import { DEFAULT_TEXT_MAX_LENGTH } from '@concord/contract';
import { formatCents, formatCount, formatDateTime } from '../ui/format';
import type { ProjectOption } from './queries';
import { formatConfidence, formatResult, ratingSentence } from './taskFormat';
import { writtenAnswers } from './text';
import { ReviewFacts, ReviewOfFacts, useReviewResult } from './TextTask';
import { answerKindLabel, failureReasonWords, typeLabel, type Task } from './vocabulary';
import { ScheduleFacts } from './TaskSchedule';
import { HeldBadge } from './Held';
import { HELD_EXPLANATION } from './held';
import { rejectionWords, revisionNote } from './review';

export function TaskSummary({ task, projects }: { task: Task; projects: ProjectOption[] }) {
  const project = task.projectId ? projects.find((p) => p.id === task.projectId) : undefined;
  const settled = task.status === 'COMPLETED' || task.status === 'FAILED';
  const text = task.answerKind === 'text';
  return (
    <>
      {/* The status is said here once, as a badge; live, like the facts below, while annotators answer. */}
      <div className="task-detail-head" aria-live="polite">
        <StatusBadge status={task.status} />
        {task.held ? <HeldBadge full /> : null}
        <span>{typeLabel(task.type)}</span>
        {!settled ? (
          <span className="task-live" aria-hidden="true">
            Live
          </span>
        ) : null}
      </div>
      {task.held ? <Notice>{HELD_EXPLANATION}</Notice> : null}
      {task.status === 'FAILED' ? (
        <Notice tone="warning">
          {task.failureReason === 'NO_CONSENSUS'
            ? `The annotators did not agree after ${task.totalResponses} answers (NO_CONSENSUS). Nothing was charged and the budget was released.`
            : task.failureReason === 'EXPIRED'
              ? `${failureReasonWords('EXPIRED')} (EXPIRED). Nothing was charged and the budget was released.`
              : `This task failed${task.failureReason ? ` (${task.failureReason})` : ''}. Nothing was charged.`}
        </Notice>
      ) : null}
      <dl className="facts task-facts" aria-live="polite">
        <dt>Answer</dt>
        <dd>
          {answerKindLabel(task.answerKind)}
          {text ? (
            <span className="task-muted"> (at most {formatCount(task.maxLength ?? DEFAULT_TEXT_MAX_LENGTH)} characters; then a review chooses the best)</span>
          ) : null}
          {task.reviewOf ? <span className="task-muted"> (a review: which written answer is best)</span> : null}
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
        {text ? <ReviewFacts task={task} /> : null}
        {task.reviewOf ? <ReviewOfFacts textTaskId={task.reviewOf} /> : null}
        <dt>Result</dt>
        <dd>
          {text ? <TextResult task={task} /> : formatResult(task.result, task.answerKind)}
          <RevisionNote task={task} />
        </dd>
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
        <RejectionFacts task={task} />
        <dt>Failure reason</dt>
        <dd>{failureReasonWords(task.failureReason)}</dd>
        <dt>Answers</dt>
        <dd>
          {text
            ? `${task.totalResponses} written · ${task.validationsNeeded} needed`
            : `${task.totalResponses} received · ${task.validationsNeeded} needed · at most ${task.maxResponses}`}
        </dd>
        <dt>Budget</dt>
        <dd>
          {formatCents(task.maxCents)}{' '}
          <span className="task-muted">{settled ? '(released)' : task.held ? '(not reserved while the task is held)' : '(reserved from your balance)'}</span>
          {/* open_text_review moves the review's price from the text task's reserve to the review's. */}
          {text && task.reviewTaskId ? <span className="task-muted"> · the other {formatCents(task.costCents)} moved to its review task</span> : null}
        </dd>
        <dt>Price</dt>
        <dd>
          {formatCents(task.costCents)}
          {text ? ` for the writing and ${formatCents(task.costCents)} for its review task` : null}{' '}
          <span className="task-muted">
            {task.status === 'COMPLETED'
              ? '(charged)'
              : task.status === 'FAILED'
                ? '(not charged)'
                : task.rejection
                  ? '(the rejected result’s charge refunded; charged when it completes)'
                  : '(charged when it completes)'}
          </span>
        </dd>
        <ScheduleFacts task={task} />
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

/** Beside the result of a task whose first result was rejected: decided again, or being decided again. */
function RevisionNote({ task }: { task: Task }) {
  const note = revisionNote(task);
  return note ? <span className="task-muted"> ({note})</span> : null;
}

/** The rejected result, its confidence, the reason and when; then the target the task is decided again at. */
function RejectionFacts({ task }: { task: Task }) {
  if (!task.rejection) return null;
  const words = rejectionWords(task.rejection, task.answerKind);
  return (
    <>
      <dt>Rejected result</dt>
      <dd className="task-rejection">
        {words.result} — <LongText text={`“${task.rejection.reason}”`} limit={200} />, <time dateTime={task.rejection.rejectedAt}>{words.when}</time>
        <span className="task-muted task-rejection-target">
          Charge refunded at the rejection; decided again at a target confidence of {formatConfidence(task.targetConfidence)}
          {task.answerKind === 'text' ? ' by its review' : `, with up to ${task.maxResponses} answers`}.
        </span>
      </dd>
    </>
  );
}

/** A text task's result: the written answer its review chose, by its number (the text is below, in full). */
function TextResult({ task }: { task: Task }) {
  const chosen = writtenAnswers(task, useReviewResult(task)).find((answer) => answer.chosen);
  if (task.result === null) return <>—</>;
  return (
    <>
      {chosen ? `Answer ${chosen.number}, chosen by its review` : formatResult(task.result, 'text')}
      {chosen ? <span className="task-muted"> (marked below)</span> : null}
    </>
  );
}
