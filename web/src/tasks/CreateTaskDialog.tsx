// "Create task": one task through POST /tasks. The budget is typed in dollars and sent as cents; it
// starts at the task price (GET /meta's priceCents, and 20 cents at least), the lowest budget the
// service accepts. A pairwise task asks for its prompt, two candidates, whether a tie is allowed and a
// group instead of options. One Idempotency-Key per distinct form content, so a retry after a lost
// answer creates nothing twice.
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../api/errors';
import { useIdempotencyKey } from '../api/idempotency';
import { useMeta } from '../api/meta';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { ErrorNote } from '../ui/Feedback';
import { focusFirstInvalid, SelectField, TextAreaField, TextField } from '../ui/Field';
import { formatCents } from '../ui/format';
import { tooLong } from '../ui/limits';
import { useCreateTask, type CreateTaskResult, type ProjectOption, type TaskInput } from './queries';
import {
  DEFAULT_VALIDATIONS_NEEDED,
  MAX_CANDIDATE_LENGTH,
  MAX_CONTENT_LENGTH,
  MAX_GROUP_LENGTH,
  MAX_MAX_CENTS,
  MAX_MULTI_OPTIONS,
  MAX_RATING_LEVELS,
  MAX_VALIDATIONS_NEEDED,
  MIN_VALIDATIONS_NEEDED,
  type TaskField,
} from '@concord/contract';
import { candidateFieldOf, floorCentsFor, readBudgetAndAnswers, readPairFields, splitOptions, taskFormErrors, type PairFieldErrors } from './taskForm';
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
  const [localErrors, setLocalErrors] = useState<Partial<Record<TaskField, string>> & PairFieldErrors>({});
  const apiErrors = taskFormErrors(create.error, floorCents);
  const { candidates: candidatesError, ...apiFields } = apiErrors.fields;
  const errors = { ...apiFields, ...(candidatesError ? { [candidateFieldOf(create.error)]: candidatesError } : {}), ...localErrors };
  const pairwise = kind === 'pairwise';

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const text = (name: string) => String(form.get(name) ?? '');
    const numbers = readBudgetAndAnswers(text('budget'), text('validationsNeeded'), { floorCents, required: false });
    const contentTooLong = tooLong(text('content'), MAX_CONTENT_LENGTH, pairwise ? 'The prompt' : 'The content');
    const pair = pairwise
      ? readPairFields({ candidateA: text('candidateA'), candidateB: text('candidateB'), allowTie: form.get('allowTie') === 'on', group: text('group') })
      : null;
    const problems = { ...numbers.errors, ...(contentTooLong ? { content: contentTooLong } : {}), ...pair?.errors };
    setLocalErrors(problems);
    if (Object.keys(problems).length > 0) {
      create.reset();
      focusFirstInvalid(formElement);
      return;
    }
    const projectId = text('projectId');
    const answerKind = kind;
    const input: TaskInput = {
      type: text('type') as TaskType,
      content: text('content'),
      // A pairwise task's answers are A, B (and tie): it takes no options.
      ...(pair ? pair.value : { options: splitOptions(text('options')) }),
      locale: (text('locale') || 'en') as Locale,
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
      <SelectField
        label="Answer"
        name="answerKind"
        value={kind}
        onChange={(event) => setKind(answerKindOf(event.currentTarget.value))}
        error={errors.answerKind}
        options={ANSWER_KINDS}
      />
      <TextAreaField
        label={pairwise ? 'Prompt' : 'Content'}
        name="content"
        required
        rows={3}
        limit={MAX_CONTENT_LENGTH}
        error={errors.content}
        hint={
          pairwise
            ? 'What the two candidates answer: annotators read it first, then judge which candidate is better.'
            : 'What annotators see: text or an image URL.'
        }
      />
      {pairwise ? (
        <PairFields errors={errors} />
      ) : (
        <TextAreaField
          label="Options"
          name="options"
          required
          rows={3}
          error={errors.options}
          hint={`One per line; 2 to 50 distinct options (a rating: 2 to ${MAX_RATING_LEVELS} levels, lowest first; multi-select: 2 to ${MAX_MULTI_OPTIONS}).`}
        />
      )}
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

/** A pairwise task's own fields: the two candidates side by side (stacked on a phone), the tie, the group. */
function PairFields({ errors }: { errors: PairFieldErrors & { allowTie?: string | undefined } }) {
  return (
    <>
      <div className="task-form-row">
        <TextAreaField
          label="Candidate A"
          name="candidateA"
          required
          rows={4}
          limit={MAX_CANDIDATE_LENGTH}
          error={errors.candidateA}
          hint="One response to the prompt."
        />
        <TextAreaField
          label="Candidate B"
          name="candidateB"
          required
          rows={4}
          limit={MAX_CANDIDATE_LENGTH}
          error={errors.candidateB}
          hint="The other response; annotators see the two in a random order."
        />
      </div>
      <label className="checkbox task-form-check">
        <input type="checkbox" name="allowTie" aria-describedby={errors.allowTie ? 'allow-tie-error' : undefined} />
        Allow a tie (annotators may answer that neither is better)
      </label>
      {errors.allowTie ? (
        <p id="allow-tie-error" className="field-error">
          {errors.allowTie}
        </p>
      ) : null}
      <TextField
        label="Group (optional)"
        name="group"
        limit={MAX_GROUP_LENGTH}
        autoComplete="off"
        error={errors.group}
        hint="Pairs of one group (one prompt's candidates compared two at a time) are also ranked together, in exports and on the project page."
      />
    </>
  );
}
