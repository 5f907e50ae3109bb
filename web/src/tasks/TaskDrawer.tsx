// The task drawer: everything GET /tasks/:id says about one task — content (a pairwise task's prompt and
// its two candidates; a text task's instruction and its written answers), options with the answers each
// received, the answers in arrival order (answer and time spent; the API never names annotators), result,
// confidence, status, failure reason, money, answer counts, deadline, priority and times — live until the
// task settles (and a result rejected once, beside the one decided again); for an open task, its deadline
// and priority to change (TaskSchedule); for a COMPLETED one, its result to reject (ResultReview); for a PENDING task,
// the other changes PATCH allows and a confirmed delete that releases the budget (never for a review task,
// which is decided, and scheduled, with its text task). A text task and its review link to each other: the
// link opens the other one here.
import { useEffect, useRef } from 'react';
import { Dialog } from '../ui/Dialog';
import { ErrorNote, Loading } from '../ui/Feedback';
import { DeleteTask, EditTaskForm } from './EditTaskForm';
import { useTask, type ProjectOption } from './queries';
import { OptionsTally, Responses } from './TaskAnswers';
import { PairCandidates } from './TaskPair';
import { TaskSummary } from './TaskSummary';
import { TaskSchedule } from './TaskSchedule';
import { ResultReview } from './ResultReview';
import { WrittenAnswers } from './TextTask';
import { Permitted } from '../organisations/Permitted';

interface TaskDrawerProps {
  taskId: string | null;
  onClose: () => void;
  projects: ProjectOption[];
}

export function TaskDrawer({ taskId, onClose, projects }: TaskDrawerProps) {
  return (
    <Dialog open={Boolean(taskId)} title="Task details" onClose={onClose} variant="drawer">
      {taskId ? <TaskDetail taskId={taskId} onDeleted={onClose} projects={projects} /> : null}
    </Dialog>
  );
}

const CONTENT_HEADINGS: Record<string, string> = { pairwise: 'Prompt', text: 'Instruction' };

function TaskDetail({ taskId, onDeleted, projects }: { taskId: string; onDeleted: () => void; projects: ProjectOption[] }) {
  const task = useTask(taskId);
  const frame = useRef<HTMLDivElement>(null);
  const shown = useRef(taskId);
  useEffect(() => {
    // Another task opened in the open drawer (a text task's review, and back): it is read from its top,
    // and focus leaves the link that opened it for the drawer's content.
    if (shown.current === taskId) return;
    shown.current = taskId;
    frame.current?.closest('dialog')?.scrollTo({ top: 0 });
    frame.current?.focus();
  }, [taskId]);
  return (
    <div ref={frame} tabIndex={-1} className="task-detail-frame">
      <TaskDetailBody task={task} onDeleted={onDeleted} projects={projects} />
    </div>
  );
}

function TaskDetailBody({ task, onDeleted, projects }: { task: ReturnType<typeof useTask>; onDeleted: () => void; projects: ProjectOption[] }) {
  if (task.isPending) return <Loading label="Loading the task…" />;
  if (task.isError && !task.data) return <ErrorNote error={task.error} />;
  if (!task.data) return null;
  const data = task.data;
  return (
    <div className="task-detail">
      <TaskSummary task={data} projects={projects} />
      {task.isError ? <ErrorNote error={task.error} /> : null}
      {/* Beside the result it sends back; kept after the rejection for what it says of it (the task is open again by then). */}
      <Permitted permission="tasks:write">
        <ResultReview key={data.id} task={data} />
      </Permitted>
      {/* Beside the facts that show them: what a task at risk of missing its deadline is opened for. */}
      {(data.status === 'PENDING' || data.status === 'VALIDATING') && !data.reviewOf ? (
        <Permitted permission="tasks:write">
          <TaskSchedule task={data} />
        </Permitted>
      ) : null}
      <section aria-labelledby="task-content-heading" className="task-section">
        <h3 id="task-content-heading">{data.reviewOf ? 'What reviewers read' : (CONTENT_HEADINGS[data.answerKind ?? 'single'] ?? 'Content')}</h3>
        <pre className="task-content">{data.content}</pre>
      </section>
      {data.answerKind === 'pairwise' ? <PairCandidates task={data} /> : null}
      {data.answerKind === 'text' ? (
        <WrittenAnswers task={data} />
      ) : (
        <>
          <OptionsTally task={data} />
          <Responses task={data} />
        </>
      )}
      {(data.status === 'PENDING' || data.status === 'VALIDATING') && data.reviewOf ? (
        <p className="task-muted task-section">A review task is opened, priced, scheduled and decided with its text task: it cannot be changed or deleted.</p>
      ) : null}
      {data.status === 'PENDING' && !data.reviewOf ? (
        <Permitted permission="tasks:write">
          <section aria-labelledby="task-edit-heading" className="task-section">
            <h3 id="task-edit-heading">Change this task</h3>
            <p className="task-muted">Only a task nobody has answered yet can have these changed, or be deleted.</p>
            <EditTaskForm key={data.id} task={data} projects={projects} />
            <DeleteTask task={data} onDeleted={onDeleted} />
          </section>
        </Permitted>
      ) : null}
    </div>
  );
}
