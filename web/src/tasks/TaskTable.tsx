// The task list: one page of 25, a row per task; the content excerpt is the row's button (and a click
// anywhere on the row does the same), so a keyboard reaches every task with Tab. A row whose content alone
// does not say what it is gets a second line: a pair's two candidates, a text task's kind and writing, a
// review task's text task. A task held by its project's budget cap (PENDING, waiting for the cap) is
// badged HELD, in words "pending, held by the budget cap" for a screen reader and on hover. A task whose
// first result was rejected (revision 2) is tagged "Decided again" before its content.
import type { ReactNode } from 'react';
import { ScrollArea } from '../ui/ScrollArea';
import { StatusBadge } from '../ui/StatusBadge';
import { formatDateTime } from '../ui/format';
import { HeldBadge } from './Held';
import { excerpt, formatConfidence, formatResult } from './taskFormat';
import { REVISION_TAG, REVISION_TAG_TITLE } from './review';
import { textTaskState } from './text';
import { answerKindLabel, shortTypeLabel, typeLabel, type TaskListItem } from './vocabulary';

/** "14 Mar, 09:30" (UTC): a time in a table cell. */
export const shortDateTime = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });

interface TaskTableProps {
  tasks: TaskListItem[];
  projectNames: Map<string, string>;
  openTaskId: string | null;
  onOpen: (id: string) => void;
}

export function TaskTable({ tasks, projectNames, openTaskId, onOpen }: TaskTableProps) {
  return (
    <ScrollArea label="Tasks">
      <table className="tasks-table">
        <caption className="sr-only">Tasks, newest first. Choose a task's content to see its details.</caption>
        <thead>
          <tr>
            <th scope="col" className="wide col-created">
              Created (UTC)
            </th>
            <th scope="col" className="wide col-type">
              Type
            </th>
            <th scope="col" className="col-content">
              Content
            </th>
            <th scope="col" className="wide col-status">
              Status
            </th>
            <th scope="col" className="wide col-result">
              Result
            </th>
            <th scope="col" className="num wide col-confidence">
              Confidence
            </th>
            <th scope="col" className="wide col-locale">
              Locale
            </th>
            <th scope="col" className="wide col-project">
              Project
            </th>
          </tr>
        </thead>
        <tbody>
          {tasks.map((task) => {
            const project = task.projectId ? projectNames.get(task.projectId) : undefined;
            const result = task.result !== null ? formatResult(task.result, task.answerKind) : null;
            const second = secondLine(task);
            const revised =
              task.revision > 1 ? (
                <span className="task-kind-tag" title={REVISION_TAG_TITLE}>
                  {REVISION_TAG}
                </span>
              ) : null;
            return (
              <tr key={task.id} data-task-id={task.id} className={`clickable${task.id === openTaskId ? ' is-open' : ''}`} onClick={() => onOpen(task.id)}>
                <td className="wide nowrap">
                  <time dateTime={task.createdAt} title={formatDateTime(task.createdAt)}>
                    {shortDateTime.format(new Date(task.createdAt))}
                  </time>
                </td>
                <td className="wide ellipsis" title={`${typeLabel(task.type)} · ${answerKindLabel(task.answerKind)}${task.reviewOf ? ' (a review)' : ''}`}>
                  {shortTypeLabel(task.type)}
                </td>
                <td>
                  <button
                    type="button"
                    className={`link-button task-open${second ? ' task-open-lines' : ''}`}
                    onClick={(event) => {
                      event.stopPropagation();
                      onOpen(task.id);
                    }}
                  >
                    {second ? (
                      <>
                        <span className="task-open-line">
                          {revised}
                          {task.reviewOf ? <span className="task-kind-tag">Review</span> : null}
                          {excerpt(task.content)}
                        </span>
                        {second}
                      </>
                    ) : (
                      <>
                        {revised}
                        {excerpt(task.content)}
                      </>
                    )}
                  </button>
                  {/* Phones show one column: status, result and confidence under the content (display: none elsewhere). */}
                  <span className="task-phone-meta">
                    {task.held ? <HeldBadge /> : <StatusBadge status={task.status} />}
                    {result !== null ? <span>{result}</span> : null}
                    {task.confidence !== null ? <span>{formatConfidence(task.confidence)}</span> : null}
                  </span>
                </td>
                <td className="wide">{task.held ? <HeldBadge /> : <StatusBadge status={task.status} />}</td>
                {task.answerKind === 'text' ? (
                  // A written result: two lines of it in quotes, the whole text (up to a paragraph) on hover.
                  <td className="wide" title={task.result !== null ? `Written answer: ${excerpt(task.result, 600)}` : undefined}>
                    {result !== null ? <span className="task-result-text">{result}</span> : <span className="task-muted">—</span>}
                  </td>
                ) : (
                  <td className="wide ellipsis" title={result ?? undefined}>
                    {result ?? <span className="task-muted">—</span>}
                    {/* A rating's result is a level: the scale it is on says what it means. */}
                    {task.result && task.answerKind === 'rating' ? <span className="task-muted"> of {task.options.at(-1)}</span> : null}
                  </td>
                )}
                <td className="num wide">{formatConfidence(task.confidence)}</td>
                <td className="wide">{task.locale}</td>
                <td className="wide ellipsis" title={project}>
                  {task.projectId ? (project ?? <span className="task-muted">Unknown project</span>) : <span className="task-muted">—</span>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollArea>
  );
}

/** What a row's content alone does not say, on a second line; null for a task whose content says it all. */
function secondLine(task: TaskListItem): ReactNode {
  if (task.candidates) {
    // A group's pairs share their prompt: the two candidates tell its rows apart. Short enough for both to
    // show in the column; whole (up to a paragraph) on hover.
    return (
      <span className="task-open-line task-sub-line" title={`A: ${excerpt(task.candidates.A, 300)}\nB: ${excerpt(task.candidates.B, 300)}`}>
        A “{excerpt(task.candidates.A, 22)}” vs B “{excerpt(task.candidates.B, 22)}”
      </span>
    );
  }
  if (task.answerKind === 'text') {
    return (
      <span className="task-open-line task-sub-line">
        <span className="task-kind-tag">Written answer</span>
        {textTaskState(task)}
      </span>
    );
  }
  if (task.reviewOf) {
    // Its content starts with its text task's instruction (the Review tag before it says whose): this line says what it asks.
    return <span className="task-open-line task-sub-line">Best of {task.options.length} written answers</span>;
  }
  return null;
}
