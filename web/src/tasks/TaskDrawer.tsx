// The task drawer: everything GET /tasks/:id says about one task — content (a pairwise task's prompt and
// its two candidates), options with the answers each received, the answers in arrival order (answer and
// time spent; the API never names annotators), result, confidence, status, failure reason, money, answer
// counts and times — live until the task settles; for a PENDING task, the changes PATCH allows and a
// confirmed delete that releases the budget.
import { Dialog } from '../ui/Dialog';
import { ErrorNote, Loading } from '../ui/Feedback';
import { DeleteTask, EditTaskForm } from './EditTaskForm';
import { useTask, type ProjectOption } from './queries';
import { OptionsTally, Responses } from './TaskAnswers';
import { PairCandidates } from './TaskPair';
import { TaskSummary } from './TaskSummary';

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

function TaskDetail({ taskId, onDeleted, projects }: { taskId: string; onDeleted: () => void; projects: ProjectOption[] }) {
  const task = useTask(taskId);
  if (task.isPending) return <Loading label="Loading the task…" />;
  if (task.isError && !task.data) return <ErrorNote error={task.error} />;
  if (!task.data) return null;
  const data = task.data;
  return (
    <div className="task-detail">
      <TaskSummary task={data} projects={projects} />
      {task.isError ? <ErrorNote error={task.error} /> : null}
      <section aria-labelledby="task-content-heading" className="task-section">
        <h3 id="task-content-heading">{data.answerKind === 'pairwise' ? 'Prompt' : 'Content'}</h3>
        <pre className="task-content">{data.content}</pre>
      </section>
      {data.answerKind === 'pairwise' ? <PairCandidates task={data} /> : null}
      <OptionsTally task={data} />
      <Responses task={data} />
      {data.status === 'PENDING' ? (
        <section aria-labelledby="task-edit-heading" className="task-section">
          <h3 id="task-edit-heading">Change this task</h3>
          <p className="task-muted">Only a task nobody has answered yet can be changed or deleted.</p>
          <EditTaskForm key={data.id} task={data} projects={projects} />
          <DeleteTask task={data} onDeleted={onDeleted} />
        </section>
      ) : null}
    </div>
  );
}
