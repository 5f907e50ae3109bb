// "Create task": one task through POST /tasks. The budget is typed in dollars and sent as cents; the
// form carries one Idempotency-Key for its lifetime, so a retry after a lost answer creates nothing twice.
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { ErrorNote } from '../ui/Feedback';
import { SelectField, TextAreaField, TextField } from '../ui/Field';
import { formatCents, parseDollars } from '../ui/format';
import { newIdempotencyKey } from './idempotency';
import { taskFormErrors, type TaskField } from './formErrors';
import { useCreateTask, type CreateTaskResult, type ProjectOption, type TaskInput } from './queries';
import { DEFAULT_MAX_CENTS, DEFAULT_VALIDATIONS_NEEDED, LOCALES, TASK_TYPES, type Locale, type TaskType } from './taskMeta';

interface CreateTaskDialogProps {
  open: boolean;
  onClose: () => void;
  onCreated: (result: CreateTaskResult) => void;
  projects: ProjectOption[];
  /** The project filter in force, preselected. */
  defaultProjectId?: string | undefined;
}

export function CreateTaskDialog({ open, onClose, onCreated, projects, defaultProjectId }: CreateTaskDialogProps) {
  return (
    <Dialog open={open} title="Create a task" onClose={onClose}>
      <CreateTaskForm onCancel={onClose} onCreated={onCreated} projects={projects} defaultProjectId={defaultProjectId} />
    </Dialog>
  );
}

/** Options typed one per line: trimmed, blank lines dropped (the service refuses blank options). */
export const splitOptions = (text: string): string[] =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');

function CreateTaskForm({ onCancel, onCreated, projects, defaultProjectId }: Omit<CreateTaskDialogProps, 'open' | 'onClose'> & { onCancel: () => void }) {
  const create = useCreateTask();
  const [idempotencyKey] = useState(newIdempotencyKey);
  const [localErrors, setLocalErrors] = useState<Partial<Record<TaskField, string>>>({});
  const apiErrors = taskFormErrors(create.error);
  const errors = { ...apiErrors.fields, ...localErrors };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const budget = String(form.get('budget') ?? '').trim();
    const maxCents = budget === '' ? undefined : parseDollars(budget);
    const answers = String(form.get('validationsNeeded') ?? '').trim();
    const local: Partial<Record<TaskField, string>> = {};
    if (maxCents === null) local.maxCents = 'Give the budget in dollars, for example 0.20 or 1.50.';
    if (answers !== '' && !/^\d+$/.test(answers)) local.validationsNeeded = 'Give a whole number of answers from 1 to 25.';
    setLocalErrors(local);
    if (Object.keys(local).length > 0) {
      create.reset();
      return;
    }
    const projectId = String(form.get('projectId') ?? '');
    const input: TaskInput = {
      type: String(form.get('type') ?? '') as TaskType,
      content: String(form.get('content') ?? ''),
      options: splitOptions(String(form.get('options') ?? '')),
      locale: String(form.get('locale') ?? 'en') as Locale,
      ...(maxCents !== undefined && maxCents !== null ? { maxCents } : {}),
      ...(answers !== '' ? { validationsNeeded: Number(answers) } : {}),
      ...(projectId ? { projectId } : {}),
    };
    try {
      const result = await create.mutateAsync({ input, idempotencyKey });
      onCreated(result);
    } catch {
      // Shown next to the fields through create.error.
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-label="New task">
      <SelectField
        label="Type"
        name="type"
        defaultValue=""
        required
        error={errors.type}
        options={[{ value: '', label: 'Choose a type…' }, ...TASK_TYPES]}
      />
      <TextAreaField label="Content" name="content" required rows={3} maxLength={100_000} error={errors.content} hint="What annotators see: text or an image URL." />
      <TextAreaField
        label="Options"
        name="options"
        required
        rows={3}
        error={errors.options}
        hint="One per line; 2 to 50 distinct options."
      />
      <div className="task-form-row">
        <SelectField label="Locale" name="locale" defaultValue="en" error={errors.locale} options={LOCALES} />
        <TextField
          label="Answers needed"
          name="validationsNeeded"
          type="number"
          inputMode="numeric"
          min={1}
          max={25}
          step={1}
          defaultValue={DEFAULT_VALIDATIONS_NEEDED}
          error={errors.validationsNeeded}
          hint="1 to 25; more when they disagree."
        />
      </div>
      <div className="task-form-row">
        <TextField
          label="Budget per task (USD)"
          name="budget"
          inputMode="decimal"
          defaultValue={(DEFAULT_MAX_CENTS / 100).toFixed(2)}
          error={errors.maxCents}
          hint={`Dollars, ${formatCents(20)} to ${formatCents(100_000)}; reserved until the task ends.`}
        />
        <SelectField
          label="Project"
          name="projectId"
          defaultValue={defaultProjectId && projects.some((p) => p.id === defaultProjectId) ? defaultProjectId : ''}
          error={errors.projectId}
          options={[{ value: '', label: 'No project' }, ...projects.map((p) => ({ value: p.id, label: p.name }))]}
        />
      </div>
      <ErrorNote error={apiErrors.general} />
      {create.error && errors.maxCents && 'code' in create.error && create.error.code === 'INSUFFICIENT_CREDITS' ? (
        <p className="task-form-help">
          <Link to="/billing">Add credits on the Billing page</Link>, or lower the budget.
        </p>
      ) : null}
      <div className="actions">
        <Button onClick={onCancel}>Cancel</Button>
        <Button type="submit" variant="primary" busy={create.isPending}>
          Submit task
        </Button>
      </div>
    </form>
  );
}
