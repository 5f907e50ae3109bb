// A text task (a written answer) and its review in the drawer: the written answers numbered as the review
// numbers them, the chosen one marked with its confidence; the link from a text task to its review (or when
// it opens) and back. A link opens the other task in the same drawer through the page's URL, so the list,
// its filters and Back stay as they were.
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { withOpenTask } from '../links';
import { formatCount } from '../ui/format';
import { StatusBadge } from '../ui/StatusBadge';
import { useTask, useTaskSummary } from './queries';
import { excerpt, formatConfidence, formatDuration } from './taskFormat';
import { reviewOpensWords, writtenAnswers } from './text';
import type { Task } from './vocabulary';

/** Another task opened in the task list's drawer, the list's filters and page kept. */
export function OpenTaskLink({ taskId, children }: { taskId: string; children: ReactNode }) {
  const location = useLocation();
  return (
    <Link to={{ pathname: location.pathname, search: withOpenTask(location.search, taskId) }} state={location.state}>
      {children}
    </Link>
  );
}

/** The review's result ("Answer 2") once its review is open: it names the chosen answer even where two texts are the same. */
export function useReviewResult(task: Task): string | null {
  return useTask(task.reviewTaskId ?? null).data?.result ?? null;
}

/** A text task's facts about its review: a link to it with its status, or when it opens. */
export function ReviewFacts({ task }: { task: Task }) {
  const review = useTask(task.reviewTaskId ?? null);
  return (
    <>
      <dt>Review</dt>
      <dd>
        {task.reviewTaskId ? (
          <span className="task-review-link">
            <OpenTaskLink taskId={task.reviewTaskId}>Open its review task</OpenTaskLink>
            {review.data ? (
              <>
                <StatusBadge status={review.data.status} />
                <span className="task-muted">
                  {review.data.totalResponses} {review.data.totalResponses === 1 ? 'review' : 'reviews'}
                </span>
              </>
            ) : null}
          </span>
        ) : (
          <span className="task-muted">{reviewOpensWords(task.totalResponses, task.validationsNeeded)}</span>
        )}
      </dd>
    </>
  );
}

/** A review task's facts about the text task it decides: a link to it, by the start of its instruction. */
export function ReviewOfFacts({ textTaskId }: { textTaskId: string }) {
  const text = useTaskSummary(textTaskId);
  return (
    <>
      <dt>Review of</dt>
      <dd>
        Text task{' '}
        <OpenTaskLink taskId={textTaskId}>{text.data ? `“${excerpt(text.data.content, 60)}”` : <span className="mono">{textTaskId}</span>}</OpenTaskLink>
      </dd>
    </>
  );
}

/** The written answers in the order they arrived, as the review numbers them, the chosen one marked. */
export function WrittenAnswers({ task }: { task: Task }) {
  const answers = writtenAnswers(task, useReviewResult(task));
  return (
    <section aria-labelledby="task-written-heading" className="task-section">
      <h3 id="task-written-heading">
        Written answers <span className="task-muted">({answers.length === 0 ? 'none yet' : `${answers.length} of ${task.validationsNeeded}`})</span>
      </h3>
      {answers.length === 0 ? (
        <p className="task-muted">
          {task.held ? 'No answer written: annotators are not served a held task.' : 'No answer written yet. Annotators receive the oldest open tasks first.'}
        </p>
      ) : (
        <ol className="task-written">
          {answers.map((answer) => (
            <li key={answer.number}>
              <article className={`task-card${answer.chosen ? ' is-better' : ''}`} aria-labelledby={`task-written-${answer.number}`}>
                <header className="task-card-head">
                  <h4 id={`task-written-${answer.number}`}>Answer {answer.number}</h4>
                  {answer.chosen ? <span className="badge badge-success">Chosen · {formatConfidence(task.confidence)}</span> : null}
                  <span className="task-muted task-card-meta">
                    {formatCount(answer.text.length)} characters · written in {formatDuration(answer.timeSpentMs)}
                  </span>
                </header>
                <pre className="task-content task-card-text">{answer.text}</pre>
              </article>
            </li>
          ))}
        </ol>
      )}
      {task.reviewTaskId === null || task.reviewTaskId === undefined ? (
        answers.length > 0 ? (
          <p className="task-muted task-pair-note">{reviewOpensWords(task.totalResponses, task.validationsNeeded)}</p>
        ) : null
      ) : task.result === null ? (
        <p className="task-muted task-pair-note">
          Other annotators are choosing the best of these in its <OpenTaskLink taskId={task.reviewTaskId}>review task</OpenTaskLink>; the one they choose
          becomes the result.
        </p>
      ) : null}
    </section>
  );
}
