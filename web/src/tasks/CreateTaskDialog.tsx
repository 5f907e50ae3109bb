// "Create task": one task through POST /tasks. The budget is typed in dollars and sent as cents; it
// starts at the task price (GET /meta's priceCents, and 20 cents at least), the lowest budget the
// service accepts. One Idempotency-Key per distinct form content, so a retry after a lost answer
// creates nothing twice.
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../api/errors';
import { useIdempotencyKey } from '../api/idempotency';
import { useMeta } from '../api/meta';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { ErrorNote } from '../ui/Feedback';
import { SelectField, TextAreaField, TextField } from '../ui/Field';
import { formatCents } from '../ui/format';
import { tooLong } from '../ui/limits';
import { useCreateTask, type CreateTaskResult, type ProjectOption, type TaskInput } from './queries';
import {
  DEFAULT_VALIDATIONS_NEEDED,
  MAX_CONTENT_LENGTH,
  MAX_MAX_CENTS,
  MAX_MULTI_OPTIONS,
  MAX_RATING_LEVELS,
  MAX_VALIDATIONS_NEEDED,
  MIN_VALIDATIONS_NEEDED,
  type TaskField,
} from '@concord/contract';
import { floorCentsFor, readBudgetAndAnswers, splitOptions, taskFormErrors } from './taskForm';
import { ANSWER_KINDS, answerKindOf, LOCALES, TASK_TYPES, type AnswerKind, type Locale, type TaskType } from './vocabulary';

interface CreateTaskDialogProps {
  open: boolean;
  onClose: () => void;
  onCreated: (result: CreateTaskResult) => void;
  projects: ProjectOption[];
  /** The project filter in force, preselected. */
  defaultProjectId?: string | undefined;
}

export function CreateTaskDialog({ open, onClose, onCreated, projects, defaultProjectId }: CreateTaskDialogProps) {
  const meta = useMeta();
  const floorCents = floorCentsFor(meta.data?.priceCents);
  return (
    <Dialog open={open} title="Create a task" onClose={onClose}>
      {/* Keyed by the floor: should the price arrive after the form opened, the budget starts from it. */}
      <CreateTaskForm
        key={floorCents}
        floorCents={floorCents}
        onCancel={onClose}
        onCreated={onCreated}
        projects={projects}
        defaultProjectId={defaultProjectId}
      />
    </Dialog>
  );
}

interface CreateTaskFormProps extends Omit<CreateTaskDialogProps, 'open' | 'onClose'> {
  onCancel: () => void;
  floorCents: number;
}

function CreateTaskForm({ onCancel, onCreated, projects, defaultProjectId, floorCents }: CreateTaskFormProps) {
  const create = useCreateTask();
  const idempotency = useIdempotencyKey();
  const [kind, setKind] = useState<AnswerKind>('single');
  const [localErrors, setLocalErrors] = useState<Partial<Record<TaskField, string>>>({});
  const apiErrors = taskFormErrors(create.error, floorCents);
  const errors = { ...apiErrors.fields, ...localErrors };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const numbers = readBudgetAndAnswers(String(form.get('budget') ?? ''), String(form.get('validationsNeeded') ?? ''), { floorCents, required: false });
    const contentTooLong = tooLong(String(form.get('content') ?? ''), MAX_CONTENT_LENGTH, 'The content');
    const problems = { ...numbers.errors, ...(contentTooLong ? { content: contentTooLong } : {}) };
    setLocalErrors(problems);
    if (Object.keys(problems).length > 0) {
      create.reset();
      return;
    }
    const projectId = String(form.get('projectId') ?? '');
    const answerKind = kind;
    const input: TaskInput = {
      type: String(form.get('type') ?? '') as TaskType,
      content: String(form.get('content') ?? ''),
      options: splitOptions(String(form.get('options') ?? '')),
      locale: String(form.get('locale') ?? 'en') as Locale,
      ...(numbers.maxCents !== undefined ? { maxCents: numbers.maxCents } : {}),
      ...(numbers.validationsNeeded !== undefined ? { validationsNeeded: numbers.validationsNeeded } : {}),
      ...(projectId ? { projectId } : {}),
      ...(answerKind !== 'single' ? { answerKind } : {}),
      ...(answerKind === 'multi' ? { allowEmpty: form.get('allowEmpty') === 'on' } : {}),
    };
    try {
      const result = await create.mutateAsync({ input, idempotencyKey: idempotency.keyFor(input) });
      onCreated(result);
    } catch {
      // Shown next to the fields through create.error.
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-label="New task">
      <SelectField label="Type" name="type" defaultValue="" required error={errors.type} options={[{ value: '', label: 'Choose a type…' }, ...TASK_TYPES]} />
      <TextAreaField
        label="Content"
        name="content"
        required
        rows={3}
        limit={MAX_CONTENT_LENGTH}
        error={errors.content}
        hint="What annotators see: text or an image URL."
      />
      <SelectField
        label="Answer"
        name="answerKind"
        value={kind}
        onChange={(event) => setKind(answerKindOf(event.currentTarget.value))}
        error={errors.answerKind}
        options={ANSWER_KINDS}
      />
      <TextAreaField
        label="Options"
        name="options"
        required
        rows={3}
        error={errors.options}
        hint={`One per line; 2 to 50 distinct options (a rating: 2 to ${MAX_RATING_LEVELS} levels, lowest first; multi-select: 2 to ${MAX_MULTI_OPTIONS}).`}
      />
      {kind === 'multi' ? (
        <label className="checkbox">
          <input type="checkbox" name="allowEmpty" />
          Annotators may choose none of the options (the empty set is an answer and a result)
        </label>
      ) : null}
      <div className="task-form-row">
        <SelectField label="Locale" name="locale" defaultValue="en" error={errors.locale} options={LOCALES} />
        <TextField
          label="Answers needed"
          name="validationsNeeded"
          type="number"
          inputMode="numeric"
          min={MIN_VALIDATIONS_NEEDED}
          max={MAX_VALIDATIONS_NEEDED}
          step={1}
          defaultValue={DEFAULT_VALIDATIONS_NEEDED}
          error={errors.validationsNeeded}
          hint={`${MIN_VALIDATIONS_NEEDED} to ${MAX_VALIDATIONS_NEEDED}; more when they disagree.`}
        />
      </div>
      <div className="task-form-row">
        <TextField
          label="Budget per task (USD)"
          name="budget"
          inputMode="decimal"
          defaultValue={(floorCents / 100).toFixed(2)}
          error={errors.maxCents}
          hint={`Dollars, ${formatCents(floorCents)} (the task price) to ${formatCents(MAX_MAX_CENTS)}; reserved until the task ends.`}
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
      {create.error instanceof ApiError && create.error.code === 'INSUFFICIENT_CREDITS' ? (
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
