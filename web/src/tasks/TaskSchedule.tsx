// A task's deadline and priority in the drawer (docs/organisations.md, "Deadlines and priority"): the
// facts — the deadline in UTC and how far it is, live; what the priority does — and, for an open task
// (PENDING or VALIDATING, held ones too), the form that changes them through PATCH /tasks/:id: a deadline in
// the person's own time, checked by the contract's rule before it is sent, removed by emptying the field or
// with its own button; a priority from −10 to 10. Only what changed is sent; the service's refusal is said
// next to the field it names, and a task decided or expired meanwhile (TASK_NOT_PENDING) in words.
import { useState, type FormEvent } from 'react';
import { ApiError } from '../api/errors';
import { MAX_PRIORITY, MIN_PRIORITY } from '@concord/contract';
import { Button } from '../ui/Button';
import { ErrorNote, Notice } from '../ui/Feedback';
import { focusFirstInvalid, TextField } from '../ui/Field';
import { formatDateTime } from '../ui/format';
import { useNow } from '../ui/useNow';
import {
  deadlineBounds,
  localDateTimeValue,
  priorityWords,
  readScheduleChanges,
  scheduleFormErrors,
  signed,
  untilWords,
  zoneWords,
  type ScheduleChanges,
  type ScheduleField,
} from './deadlines';
import { useUpdateTask } from './queries';
import type { Task } from './vocabulary';

const isOpen = (task: Pick<Task, 'status'>) => task.status === 'PENDING' || task.status === 'VALIDATING';

/** The deadline and priority lines of the drawer's facts. */
export function ScheduleFacts({ task }: { task: Task }) {
  const now = useNow();
  const until = task.deadline ? untilWords(task.deadline, now) : null;
  return (
    <>
      <dt>Deadline</dt>
      <dd>
        {task.deadline ? (
          <>
            <time dateTime={task.deadline}>{formatDateTime(task.deadline)}</time>{' '}
            {isOpen(task) || task.failureReason === 'EXPIRED' ? (
              <span className={`task-deadline-until${until?.startsWith('passed') ? ' is-passed' : ''}`}>({until})</span>
            ) : null}
          </>
        ) : (
          <span className="task-muted">None</span>
        )}
      </dd>
      <dt>Priority</dt>
      <dd>{priorityWords(task.priority)}</dd>
    </>
  );
}

/** The drawer's section for an open task that is not a review (a review's follow its text task's). */
export function TaskSchedule({ task }: { task: Task }) {
  const [outcome, setOutcome] = useState<string | null>(null);
  return (
    <section aria-labelledby="task-schedule-heading" className="task-section">
      <h3 id="task-schedule-heading">Deadline and priority</h3>
      {task.answerKind === 'text' ? <p className="task-muted">Its review task takes the same deadline and priority.</p> : null}
      {/* A new start whenever the task's own deadline or priority changes (here, or by another person). */}
      <ScheduleForm key={`${task.id}-${task.deadline ?? 'none'}-${task.priority}`} task={task} onOutcome={setOutcome} />
      {outcome ? <Notice tone="success">{outcome}</Notice> : null}
    </section>
  );
}

function ScheduleForm({ task, onOutcome }: { task: Task; onOutcome: (message: string | null) => void }) {
  const update = useUpdateTask();
  const [localErrors, setLocalErrors] = useState<Partial<Record<ScheduleField, string>>>({});
  const [unchanged, setUnchanged] = useState(false);
  const shownDeadline = task.deadline ? localDateTimeValue(new Date(task.deadline)) : '';
  const apiErrors = scheduleFormErrors(update.error);
  const errors = { ...apiErrors.fields, ...localErrors };
  const closed = update.error instanceof ApiError && update.error.code === 'TASK_NOT_PENDING';

  const send = async (changes: ScheduleChanges) => {
    onOutcome(null);
    setUnchanged(false);
    update.reset();
    try {
      await update.mutateAsync({ id: task.id, changes });
      onOutcome(changes.deadline === null ? 'Deadline removed.' : 'Deadline and priority saved.');
    } catch {
      // Shown next to the fields through update.error.
    }
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const { changes, errors: problems } = readScheduleChanges(
      task,
      { deadline: String(form.get('deadline') ?? ''), priority: String(form.get('priority') ?? '') },
      shownDeadline,
      new Date(),
    );
    setLocalErrors(problems);
    if (Object.keys(problems).length > 0) {
      focusFirstInvalid(formElement);
      return;
    }
    if (Object.keys(changes).length === 0) {
      onOutcome(null);
      update.reset();
      setUnchanged(true);
      return;
    }
    await send(changes);
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Deadline and priority">
      <ScheduleFields deadline={shownDeadline} priority={task.priority} errors={errors} />
      {closed ? (
        <p className="error-note" role="alert">
          This task was decided or expired in the meantime: its deadline and priority can no longer be changed.
        </p>
      ) : (
        <ErrorNote error={apiErrors.general} />
      )}
      {unchanged ? <Notice>Nothing changed, so nothing was sent.</Notice> : null}
      <div className="task-schedule-actions">
        {task.deadline ? (
          <Button
            variant="ghost"
            disabled={update.isPending}
            onClick={() => {
              setLocalErrors({});
              void send({ deadline: null });
            }}
          >
            Remove the deadline
          </Button>
        ) : null}
        <Button type="submit" variant="primary" busy={update.isPending}>
          Save deadline and priority
        </Button>
      </div>
    </form>
  );
}

interface ScheduleFieldsProps {
  /** The deadline field's first value (a datetime-local value; empty: none). */
  deadline?: string;
  priority: number;
  errors: Partial<Record<ScheduleField, string>>;
  /** What an empty deadline means: none, or the project's default. */
  emptyDeadline?: string;
}

/** The deadline (typed in the person's own time) and priority fields, side by side: Create task's and the drawer's. */
export function ScheduleFields({ deadline = '', priority, errors, emptyDeadline = 'no deadline' }: ScheduleFieldsProps) {
  // The time the fields appeared: the picker's bounds and the zone it names, not moved by every render.
  const [opened] = useState(() => new Date());
  const bounds = deadlineBounds(opened);
  return (
    <div className="task-schedule-fields">
      <TextField
        label="Deadline"
        name="deadline"
        type="datetime-local"
        step={60}
        min={bounds.min}
        max={bounds.max}
        defaultValue={deadline}
        error={errors.deadline}
        hint={`Your time (${zoneWords(opened)}). Past it, an open task fails as expired, not charged. Empty: ${emptyDeadline}.`}
      />
      <TextField
        label="Priority"
        name="priority"
        type="number"
        min={MIN_PRIORITY}
        max={MAX_PRIORITY}
        step={1}
        defaultValue={priority}
        error={errors.priority}
        hint={`${signed(MIN_PRIORITY)} to ${signed(MAX_PRIORITY)}: higher is served sooner among your own tasks.`}
      />
    </div>
  );
}
