// The task list: one page of 25, a row per task; the content excerpt is the row's button (and a click
// anywhere on the row does the same), so a keyboard reaches every task with Tab.
import { ScrollArea } from '../ui/ScrollArea';
import { StatusBadge } from '../ui/StatusBadge';
import { formatDateTime } from '../ui/format';
import { excerpt, formatConfidence, formatResult } from './taskFormat';
import { answerKindLabel, shortTypeLabel, typeLabel, type TaskListItem } from './vocabulary';

const shortDateTime = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });

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
            return (
              <tr key={task.id} data-task-id={task.id} className={`clickable${task.id === openTaskId ? ' is-open' : ''}`} onClick={() => onOpen(task.id)}>
                <td className="wide nowrap">
                  <time dateTime={task.createdAt} title={formatDateTime(task.createdAt)}>
                    {shortDateTime.format(new Date(task.createdAt))}
                  </time>
                </td>
                <td className="wide ellipsis" title={`${typeLabel(task.type)} · ${answerKindLabel(task.answerKind)}`}>
                  {shortTypeLabel(task.type)}
                </td>
                <td>
                  <button
                    type="button"
                    className={`link-button task-open${task.candidates ? ' task-open-pair' : ''}`}
                    onClick={(event) => {
                      event.stopPropagation();
                      onOpen(task.id);
                    }}
                  >
                    {task.candidates ? (
                      // A group's pairs share their prompt: a second line with the two candidates tells its rows apart.
                      <>
                        <span className="task-open-line">{excerpt(task.content)}</span>
                        {/* Short enough for both to show in the column; whole (up to a paragraph) on hover. */}
                        <span className="task-open-line task-pair-line" title={`A: ${excerpt(task.candidates.A, 300)}\nB: ${excerpt(task.candidates.B, 300)}`}>
                          A “{excerpt(task.candidates.A, 22)}” vs B “{excerpt(task.candidates.B, 22)}”
                        </span>
                      </>
                    ) : (
                      excerpt(task.content)
                    )}
                  </button>
                  {/* Phones show one column: status, result and confidence under the content (display: none elsewhere). */}
                  <span className="task-phone-meta">
                    <StatusBadge status={task.status} />
                    {result !== null ? <span>{result}</span> : null}
                    {task.confidence !== null ? <span>{formatConfidence(task.confidence)}</span> : null}
                  </span>
                </td>
                <td className="wide">
                  <StatusBadge status={task.status} />
                </td>
                <td className="wide ellipsis" title={result ?? undefined}>
                  {result ?? <span className="task-muted">—</span>}
                  {/* A rating's result is a level: the scale it is on says what it means. */}
                  {task.result && task.answerKind === 'rating' ? <span className="task-muted"> of {task.options.at(-1)}</span> : null}
                </td>
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
