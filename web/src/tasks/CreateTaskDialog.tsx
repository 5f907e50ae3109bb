// "Create task": one task through POST /tasks. The budget is typed in dollars and sent as cents; it
// starts at the task price (GET /meta's priceCents, and 20 cents at least), the lowest budget the
// service accepts — twice that for a written answer (text: the writing and its review), and it follows
// the kind chosen until the person types one. A pairwise task asks for its prompt, two candidates,
// whether a tie is allowed and a group instead of options; a text task for its instruction and the
// longest answer. The kind starts as the chosen project's default until the person picks one, and is
// always sent (a task naming none would take the project's default). An optional deadline is typed in the
// person's own time and sent as ISO 8601 with its zone (empty: none, or the project's default deadline,
// which the form names), with a priority from −10 to 10. Before sending, the contract's own rules
// (validateTaskInput, deadlineProblem) check the task, so what the service would refuse is said next to
// its field at once. One Idempotency-Key per distinct form content, so a retry after a lost answer creates nothing twice.
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
import { useCreateTask, type CreateTaskResult, type ProjectOption } from './queries';
import {
  DEFAULT_MAX_CENTS,
  DEFAULT_PRIORITY,
  DEFAULT_TEXT_MAX_LENGTH,
  DEFAULT_VALIDATIONS_NEEDED,
  MAX_CANDIDATE_LENGTH,
  MAX_CONTENT_LENGTH,
  MAX_GROUP_LENGTH,
  MAX_MAX_CENTS,
  MAX_MULTI_OPTIONS,
  MAX_RATING_LEVELS,
  MAX_TEXT_LENGTH,
  MAX_VALIDATIONS_NEEDED,
  type TaskField,
} from '@concord/contract';
import {
  candidateFieldOf,
  floorCentsFor,
  localTaskErrors,
  minAnswersFor,
  readBudgetAndAnswers,
  readMaxLength,
  readPairFields,
  projectDefaultKind,
  taskFormErrors,
  taskInputOf,
  type PairFieldErrors,
} from './taskForm';
import { textPriceWords } from './text';
import { readDeadline, readPriority } from './deadlines';
import { ScheduleFields } from './TaskSchedule';
import { hoursWords } from '../projects/projectForm';
import { CapRefusalHelp } from './Held';
import { ANSWER_KINDS, answerKindLabel, answerKindOf, LOCALES, TASK_TYPES, type AnswerKind } from './vocabulary';

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
  // The contract's least budget until GET /meta has answered.
  const priceCents = meta.data?.priceCents ?? DEFAULT_MAX_CENTS;
  return (
    <Dialog open={open} title="Create a task" onClose={onClose}>
      {/* Keyed by the price: should it arrive after the form opened, the budget starts from it. */}
      <CreateTaskForm
        key={priceCents}
        priceCents={priceCents}
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
  /** The task price (GET /meta's priceCents): a text task costs twice as much. */
  priceCents: number;
}

const CONTENT_WORDS: Record<AnswerKind, { label: string; name: string; hint: string }> = {
  single: { label: 'Content', name: 'The content', hint: 'What annotators see: text or an image URL.' },
  rating: { label: 'Content', name: 'The content', hint: 'What annotators see: text or an image URL.' },
  multi: { label: 'Content', name: 'The content', hint: 'What annotators see: text or an image URL.' },
  pairwise: {
    label: 'Prompt',
    name: 'The prompt',
    hint: 'What the two candidates answer: annotators read it first, then judge which candidate is better.',
  },
  text: {
    label: 'Instruction',
    name: 'The instruction',
    hint: 'What each annotator answers in their own words: a request, a question, a text to reply to. Others then choose the best answer.',
  },
};

const dollars = (cents: number) => (cents / 100).toFixed(2);

function CreateTaskForm({ onCancel, onCreated, projects, defaultProjectId, priceCents }: CreateTaskFormProps) {
  const create = useCreateTask();
  const idempotency = useIdempotencyKey();
  // The project the person chose; until then the filter's, once the list holds it.
  const [chosenProject, setChosenProject] = useState<string | null>(null);
  const projectId = chosenProject ?? (defaultProjectId && projects.some((p) => p.id === defaultProjectId) ? defaultProjectId : '');
  // The kind the person chose; until then the chosen project's default (single choice without one), also
  // when the projects arrive after the form opened.
  const [chosenKind, setChosenKind] = useState<AnswerKind | null>(null);
  const projectKind = projectDefaultKind(projects, projectId);
  const kind = chosenKind ?? projectKind;
  // The budget as typed; until then it is the chosen kind's least budget (a text task's is twice the price).
  const [budget, setBudget] = useState<string | null>(null);
  const [localErrors, setLocalErrors] = useState<Partial<Record<TaskField, string>> & PairFieldErrors>({});
  const floorCents = floorCentsFor(priceCents, kind);
  const apiErrors = taskFormErrors(create.error, floorCents, kind);
  const { candidates: candidatesError, ...apiFields } = apiErrors.fields;
  const errors = { ...apiFields, ...(candidatesError ? { [candidateFieldOf(create.error)]: candidatesError } : {}), ...localErrors };
  const pairwise = kind === 'pairwise';
  const written = kind === 'text';
  const content = CONTENT_WORDS[kind];
  const projectDeadlineHours = projects.find((p) => p.id === projectId)?.defaultDeadlineHours ?? null;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const text = (name: string) => String(form.get(name) ?? '');
    const numbers = readBudgetAndAnswers(text('budget'), text('validationsNeeded'), { floorCents, required: false, answerKind: kind });
    const contentTooLong = tooLong(text('content'), MAX_CONTENT_LENGTH, content.name);
    const pair = pairwise
      ? readPairFields({ candidateA: text('candidateA'), candidateB: text('candidateB'), allowTie: form.get('allowTie') === 'on', group: text('group') })
      : null;
    const maxLength = written ? readMaxLength(text('maxLength')) : null;
    const deadline = readDeadline(text('deadline'), new Date());
    const priority = readPriority(text('priority'), { required: false });
    const problems = {
      ...numbers.errors,
      ...(contentTooLong ? { content: contentTooLong } : {}),
      ...pair?.errors,
      ...(maxLength?.error ? { maxLength: maxLength.error } : {}),
      ...(deadline.error ? { deadline: deadline.error } : {}),
      ...(priority.error ? { priority: priority.error } : {}),
    };
    const input = taskInputOf(kind, {
      type: text('type'),
      content: text('content'),
      options: text('options'),
      locale: text('locale'),
      projectId,
      maxCents: numbers.maxCents,
      validationsNeeded: numbers.validationsNeeded,
      allowEmpty: form.get('allowEmpty') === 'on',
      pair: pair?.value,
      maxLength: maxLength?.value,
      deadline: deadline.value,
      priority: priority.value,
    });
    // The form's own sentences first; what they leave, the contract's rules as the service words them.
    const refused = Object.keys(problems).length > 0 ? problems : (localTaskErrors(input, priceCents, kind) ?? {});
    setLocalErrors(refused);
    if (Object.keys(refused).length > 0) {
      create.reset();
      focusFirstInvalid(formElement);
      return;
    }
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
        onChange={(event) => setChosenKind(answerKindOf(event.currentTarget.value))}
        error={errors.answerKind}
        options={ANSWER_KINDS}
        hint={
          written ? (
            <>
              <strong>Price {textPriceWords(priceCents)}</strong> (twice the task price). Annotators write; others then choose the best answer in a review.
            </>
          ) : chosenKind === null && projectKind !== 'single' ? (
            `${answerKindLabel(projectKind)}: the project’s default kind. Choose another if this task is of another kind.`
          ) : undefined
        }
      />
      <TextAreaField label={content.label} name="content" required rows={3} limit={MAX_CONTENT_LENGTH} error={errors.content} hint={content.hint} />
      {pairwise ? (
        <PairFields errors={errors} />
      ) : written ? (
        <div className="task-form-row">
          <TextField
            label="Longest answer (characters)"
            name="maxLength"
            type="number"
            inputMode="numeric"
            min={1}
            max={MAX_TEXT_LENGTH}
            step={1}
            placeholder={String(DEFAULT_TEXT_MAX_LENGTH)}
            error={errors.maxLength}
            hint={`Optional: 1 to ${MAX_TEXT_LENGTH.toLocaleString('en-US').replace(/,/g, ' ')}; ${DEFAULT_TEXT_MAX_LENGTH.toLocaleString('en-US').replace(/,/g, ' ')} when empty.`}
          />
        </div>
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
          label={written ? 'Written answers' : 'Answers needed'}
          name="validationsNeeded"
          type="number"
          inputMode="numeric"
          min={minAnswersFor(kind)}
          max={MAX_VALIDATIONS_NEEDED}
          step={1}
          defaultValue={DEFAULT_VALIDATIONS_NEEDED}
          error={errors.validationsNeeded}
          hint={
            written
              ? `${minAnswersFor(kind)} to ${MAX_VALIDATIONS_NEEDED} annotators write one each; the review chooses among them.`
              : `${minAnswersFor(kind)} to ${MAX_VALIDATIONS_NEEDED}; more when they disagree.`
          }
        />
      </div>
      <div className="task-form-row">
        <TextField
          label="Budget per task (USD)"
          name="budget"
          inputMode="decimal"
          value={budget ?? dollars(floorCents)}
          onChange={(event) => setBudget(event.currentTarget.value)}
          error={errors.maxCents}
          hint={`Dollars, ${formatCents(floorCents)} (${written ? 'the writing and its review' : 'the task price'}) to ${formatCents(MAX_MAX_CENTS)}; reserved until the task ends.`}
        />
        <SelectField
          label="Project"
          name="projectId"
          value={projectId}
          onChange={(event) => setChosenProject(event.currentTarget.value)}
          error={errors.projectId}
          options={[{ value: '', label: 'No project' }, ...projects.map((p) => ({ value: p.id, label: p.name }))]}
        />
      </div>
      <ScheduleFields
        priority={DEFAULT_PRIORITY}
        errors={errors}
        emptyDeadline={projectDeadlineHours ? `the project’s default, ${hoursWords(projectDeadlineHours)} after creation` : undefined}
      />
      <ErrorNote error={apiErrors.general} />
      {create.error instanceof ApiError && create.error.code === 'INSUFFICIENT_CREDITS' ? (
        <p className="task-form-help">
          <Link to="/billing">Add credits on the Billing page</Link>, or lower the budget.
        </p>
      ) : null}
      <CapRefusalHelp error={create.error} instead="lower the budget or choose another project" />
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
