// Changing a PENDING task from its drawer (what PATCH /tasks/:id allows: budget, answers needed, locale,
// project; a text task keeps twice the price and two answers at least) and deleting it, which releases
// its reserved budget. A task held by its project's budget cap cannot be changed (TASK_HELD): it says so
// instead, and can still be deleted (nothing was reserved for it).
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../api/errors';
import { useMeta } from '../api/meta';
import { Button } from '../ui/Button';
import { ConfirmButton } from '../ui/Dialog';
import { ErrorNote, Notice } from '../ui/Feedback';
import { SelectField, TextField } from '../ui/Field';
import { formatCents } from '../ui/format';
import { useDeleteTask, useUpdateTask, type ProjectOption, type TaskChanges } from './queries';
import { MAX_VALIDATIONS_NEEDED, type TaskField } from '@concord/contract';
import { floorCentsFor, minAnswersFor, readBudgetAndAnswers, taskFormErrors } from './taskForm';
import { LOCALES, type Locale, type Task } from './vocabulary';
import { CapRefusalHelp, HeldCannotChange } from './Held';

/** A held task cannot be changed (409 TASK_HELD): it is told so instead of a form. */
export function EditTaskForm({ task, projects }: { task: Task; projects: ProjectOption[] }) {
  if (task.held) return <HeldCannotChange />;
  return <ChangeTaskForm task={task} projects={projects} />;
}

function ChangeTaskForm({ task, projects }: { task: Task; projects: ProjectOption[] }) {
  const update = useUpdateTask();
  const answerKind = task.answerKind ?? 'single';
  const floorCents = floorCentsFor(useMeta().data?.priceCents, answerKind);
  const minAnswers = minAnswersFor(answerKind);
  const [localErrors, setLocalErrors] = useState<Partial<Record<TaskField, string>>>({});
  const [outcome, setOutcome] = useState<'saved' | 'unchanged' | null>(null);
  const apiErrors = taskFormErrors(update.error, floorCents, answerKind);
  const errors = { ...apiErrors.fields, ...localErrors };
  const projectKnown = !task.projectId || projects.some((p) => p.id === task.projectId);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setOutcome(null);
    const form = new FormData(event.currentTarget);
    const {
      maxCents,
      validationsNeeded,
      errors: local,
    } = readBudgetAndAnswers(String(form.get('budget') ?? ''), String(form.get('validationsNeeded') ?? ''), {
      floorCents,
      required: true,
      answerKind,
    });
    setLocalErrors(local);
    if (maxCents === undefined || validationsNeeded === undefined) {
      update.reset();
      return;
    }
    const changes: TaskChanges = {};
    if (maxCents !== task.maxCents) changes.maxCents = maxCents;
    if (validationsNeeded !== task.validationsNeeded) changes.validationsNeeded = validationsNeeded;
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
          hint={`In dollars, at least ${formatCents(floorCents)}${answerKind === 'text' ? ' (the writing and its review)' : ''}. Raising it reserves the difference; lowering it releases it.`}
        />
        <TextField
          label={answerKind === 'text' ? 'Written answers' : 'Answers needed'}
          name="validationsNeeded"
          type="number"
          inputMode="numeric"
          min={minAnswers}
          max={MAX_VALIDATIONS_NEEDED}
          step={1}
          defaultValue={task.validationsNeeded}
          error={errors.validationsNeeded}
          hint={`${minAnswers} to ${MAX_VALIDATIONS_NEEDED}.`}
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
      <CapRefusalHelp error={update.error} instead="keep a lower budget or another project" />
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

export function DeleteTask({ task, onDeleted }: { task: Task; onDeleted: () => void }) {
  const remove = useDeleteTask();
  return (
    <div className="task-delete">
      <p className="task-muted">
        {task.held
          ? 'Nothing is reserved for it while it is held: deleting it releases nothing.'
          : `Deleting releases the ${formatCents(task.maxCents)} reserved for it.`}
      </p>
      <ConfirmButton
        label="Delete task"
        title="Delete this task?"
        message={
          <p>
            {task.held
              ? 'The task is removed for good. It is held by its project’s budget cap, so nothing was reserved for it.'
              : `The task is removed for good and its reserved budget of ${formatCents(task.maxCents)} goes back to your available balance.`}
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
