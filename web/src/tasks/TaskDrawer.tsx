// The task drawer: everything GET /tasks/:id says about one task — content, options with the answers
// each received, the answers in arrival order (answer and time spent; the API never names annotators),
// result, confidence, status, failure reason, money, answer counts and times — live until the task
// settles; for a PENDING task, the changes PATCH allows and a confirmed delete that releases the budget.
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../api/errors';
import { Button } from '../ui/Button';
import { ConfirmButton, Dialog } from '../ui/Dialog';
import { ErrorNote, Loading, Notice } from '../ui/Feedback';
import { SelectField, TextField } from '../ui/Field';
import { StatusBadge } from '../ui/Misc';
import { formatCents, formatDateTime, parseDollars } from '../ui/format';
import { taskFormErrors, type TaskField } from './formErrors';
import { useDeleteTask, useTask, useUpdateTask, type ProjectOption, type TaskChanges } from './queries';
import { LOCALES, formatConfidence, formatDuration, typeLabel, type Locale, type Task } from './taskMeta';

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
        <h3 id="task-content-heading">Content</h3>
        <pre className="task-content">{data.content}</pre>
      </section>
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

function TaskSummary({ task, projects }: { task: Task; projects: ProjectOption[] }) {
  const project = task.projectId ? projects.find((p) => p.id === task.projectId) : undefined;
  const settled = task.status === 'COMPLETED' || task.status === 'FAILED';
  return (
    <>
      <div className="task-detail-head">
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
        <dt>Status</dt>
        <dd>{task.status}</dd>
        <dt>Result</dt>
        <dd>{task.result ?? '—'}</dd>
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
        <dd>{task.projectId ? project ? <Link to={`/projects/${task.projectId}`}>{project.name}</Link> : <span className="mono">{task.projectId}</span> : '—'}</dd>
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

function OptionsTally({ task }: { task: Task }) {
  const counts = new Map<string, number>();
  for (const response of task.responses) counts.set(response.answer, (counts.get(response.answer) ?? 0) + 1);
  return (
    <section aria-labelledby="task-options-heading" className="task-section">
      <h3 id="task-options-heading">Options</h3>
      <ul className="task-options">
        {task.options.map((option) => {
          const count = counts.get(option) ?? 0;
          const share = task.responses.length ? count / task.responses.length : 0;
          const isResult = task.result === option;
          return (
            <li key={option} className={isResult ? 'is-result' : undefined}>
              <span className="task-option-label">
                {option}
                {isResult ? <span className="badge badge-success">Result</span> : null}
              </span>
              <span className="task-option-bar" aria-hidden="true">
                <span style={{ width: `${share * 100}%` }} />
              </span>
              <span className="task-option-count">
                {count} {count === 1 ? 'answer' : 'answers'}
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function Responses({ task }: { task: Task }) {
  return (
    <section aria-labelledby="task-answers-heading" className="task-section">
      <h3 id="task-answers-heading">Answers received</h3>
      {task.responses.length === 0 ? (
        <p className="task-muted">No answers yet. Annotators receive the oldest open tasks first.</p>
      ) : (
        <div className="table-scroll">
          <table>
            <caption className="sr-only">Answers in the order they arrived</caption>
            <thead>
              <tr>
                <th scope="col" className="num">
                  #
                </th>
                <th scope="col">Answer</th>
                <th scope="col" className="num">
                  Time spent
                </th>
              </tr>
            </thead>
            <tbody>
              {task.responses.map((response, index) => (
                <tr key={index}>
                  <td className="num">{index + 1}</td>
                  <td>{response.answer}</td>
                  <td className="num">{formatDuration(response.timeSpentMs)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function EditTaskForm({ task, projects }: { task: Task; projects: ProjectOption[] }) {
  const update = useUpdateTask();
  const [localErrors, setLocalErrors] = useState<Partial<Record<TaskField, string>>>({});
  const [outcome, setOutcome] = useState<'saved' | 'unchanged' | null>(null);
  const apiErrors = taskFormErrors(update.error);
  const errors = { ...apiErrors.fields, ...localErrors };
  const projectKnown = !task.projectId || projects.some((p) => p.id === task.projectId);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setOutcome(null);
    const form = new FormData(event.currentTarget);
    const maxCents = parseDollars(String(form.get('budget') ?? ''));
    const answers = String(form.get('validationsNeeded') ?? '').trim();
    const local: Partial<Record<TaskField, string>> = {};
    if (maxCents === null) local.maxCents = 'Give the budget in dollars, for example 0.20 or 1.50.';
    if (!/^\d+$/.test(answers)) local.validationsNeeded = 'Give a whole number of answers from 1 to 25.';
    setLocalErrors(local);
    if (maxCents === null || Object.keys(local).length > 0) {
      update.reset();
      return;
    }
    const changes: TaskChanges = {};
    if (maxCents !== task.maxCents) changes.maxCents = maxCents;
    if (Number(answers) !== task.validationsNeeded) changes.validationsNeeded = Number(answers);
    const locale = String(form.get('locale')) as Locale;
    if (locale !== task.locale) changes.locale = locale;
    const projectId = String(form.get('projectId') ?? '') || null;
    if (projectId !== task.projectId) changes.projectId = projectId;
    if (Object.keys(changes).length === 0) {
      update.reset();
      setOutcome('unchanged');
      return;
    }
    try {
      await update.mutateAsync({ id: task.id, changes });
      setOutcome('saved');
    } catch {
      // Shown next to the fields through update.error.
    }
  };

  const notPending = update.error instanceof ApiError && update.error.code === 'TASK_NOT_PENDING';
  return (
    <form onSubmit={submit} noValidate aria-label="Change task">
      <div className="task-form-row">
        <TextField
          label="Budget per task (USD)"
          name="budget"
          inputMode="decimal"
          defaultValue={(task.maxCents / 100).toFixed(2)}
          error={errors.maxCents}
          hint="In dollars. Raising it reserves the difference; lowering it releases it."
        />
        <TextField
          label="Answers needed"
          name="validationsNeeded"
          type="number"
          inputMode="numeric"
          min={1}
          max={25}
          step={1}
          defaultValue={task.validationsNeeded}
          error={errors.validationsNeeded}
          hint="1 to 25."
        />
      </div>
      <div className="task-form-row">
        <SelectField label="Locale" name="locale" defaultValue={task.locale} error={errors.locale} options={LOCALES} />
        <SelectField
          label="Project"
          name="projectId"
          defaultValue={task.projectId ?? ''}
          error={errors.projectId}
          options={[
            { value: '', label: 'No project' },
            ...(projectKnown || !task.projectId ? [] : [{ value: task.projectId, label: `Project ${task.projectId}` }]),
            ...projects.map((p) => ({ value: p.id, label: p.name })),
          ]}
        />
      </div>
      {update.error instanceof ApiError && update.error.code === 'INSUFFICIENT_CREDITS' ? (
        <p className="task-form-help">
          <Link to="/billing">Add credits on the Billing page</Link>, or keep a lower budget.
        </p>
      ) : null}
      {notPending ? (
        <p className="error-note" role="alert">
          An annotator answered this task in the meantime, so it can no longer be changed.
        </p>
      ) : (
        <ErrorNote error={apiErrors.general} />
      )}
      {outcome === 'saved' ? <Notice tone="success">Changes saved.</Notice> : null}
      {outcome === 'unchanged' ? <Notice>Nothing changed, so nothing was sent.</Notice> : null}
      <div className="actions">
        <Button type="submit" variant="primary" busy={update.isPending}>
          Save changes
        </Button>
      </div>
    </form>
  );
}

function DeleteTask({ task, onDeleted }: { task: Task; onDeleted: () => void }) {
  const remove = useDeleteTask();
  return (
    <div className="task-delete">
      <p className="task-muted">Deleting releases the {formatCents(task.maxCents)} reserved for it.</p>
      <ConfirmButton
        label="Delete task"
        title="Delete this task?"
        message={
          <p>
            The task is removed for good and its reserved budget of {formatCents(task.maxCents)} goes back to your available balance.
          </p>
        }
        confirmLabel="Yes, delete it"
        onConfirm={async () => {
          await remove.mutateAsync(task.id);
          onDeleted();
        }}
      />
    </div>
  );
}
