// The form that creates a golden task: the known answer is chosen among the options typed, so it can
// never be outside them; a pairwise golden task's prompt, two candidates and known better one (A, B, or a
// tie where ties are allowed). A written answer (text) is not offered: it has no one right answer.
import { MAX_CANDIDATE_LENGTH, MAX_CONTENT_LENGTH, MAX_OPTIONS, MAX_OPTION_LENGTH, type PairAnswer } from '@concord/contract';
import { useState, type FormEvent } from 'react';
import { mapFieldErrors } from '../api/fieldErrors';
import { useIdempotencyKey } from '../api/idempotency';
import {
  GOLDEN_ANSWER_KINDS,
  answerKindOf,
  LOCALES,
  TASK_TYPES,
  isLocale,
  isTaskType,
  typeLabel,
  type AnswerKind,
  type Locale,
  type TaskType,
} from '../tasks/vocabulary';
import { Button } from '../ui/Button';
import { ErrorNote, Notice } from '../ui/Feedback';
import { focusFirstInvalid, SelectField, TextAreaField } from '../ui/Field';
import { tooLong } from '../ui/limits';
import { pairResultWords } from '../tasks/pairwise';
import { candidateFieldOf, readPairFields } from '../tasks/taskForm';
import { useCreateGoldenTask, type GoldenTask, type GoldenTaskInput } from './queries';

/** The options typed, one per line: trimmed, blank lines dropped, duplicates kept once. */
function parseOptions(text: string): string[] {
  const seen = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const option = line.trim();
    if (option) seen.add(option);
  }
  return [...seen];
}

const GOLDEN_FIELDS = ['type', 'content', 'options', 'goldenAnswer', 'locale', 'projectId', 'answerKind', 'candidates', 'allowTie'] as const;
type Errors = Partial<Record<(typeof GOLDEN_FIELDS)[number] | 'candidateA' | 'candidateB', string>>;

export function NewGoldenTaskForm({ projects, onCreated }: { projects: { id: string; name: string }[]; onCreated: () => void }) {
  const create = useCreateGoldenTask();
  const idempotency = useIdempotencyKey();
  const [type, setType] = useState<TaskType>('SENTIMENT_ANALYSIS');
  const [answerKind, setAnswerKind] = useState<AnswerKind>('single');
  const [content, setContent] = useState('');
  const [optionsText, setOptionsText] = useState('');
  const [chosenAnswer, setChosenAnswer] = useState('');
  /** A multi-select golden task's known set (the options ticked). */
  const [chosenSet, setChosenSet] = useState<string[]>([]);
  /** A pairwise golden task's candidates, tie and known better one. */
  const [candidateA, setCandidateA] = useState('');
  const [candidateB, setCandidateB] = useState('');
  const [allowTie, setAllowTie] = useState(false);
  const [chosenPair, setChosenPair] = useState<PairAnswer | ''>('');
  const [locale, setLocale] = useState<Locale>('en');
  const [projectId, setProjectId] = useState('');
  const [localErrors, setLocalErrors] = useState<Errors>({});
  const [created, setCreated] = useState<GoldenTask | null>(null);

  const options = parseOptions(optionsText);
  // The answer follows the options: one that is no longer typed is no longer chosen.
  const goldenAnswer = options.includes(chosenAnswer) ? chosenAnswer : '';
  const goldenSet = options.filter((option) => chosenSet.includes(option));
  const multi = answerKind === 'multi';
  const pairwise = answerKind === 'pairwise';
  // A tie is an answer only where ties are allowed: unticking it takes back a tie chosen.
  const pairAnswer = chosenPair === 'tie' && !allowTie ? '' : chosenPair;
  const apiErrors = mapFieldErrors(create.error, { fields: GOLDEN_FIELDS });
  const { candidates: candidatesError, ...apiFields } = apiErrors.fields;
  const errors: Errors = { ...apiFields, ...(candidatesError ? { [candidateFieldOf(create.error)]: candidatesError } : {}), ...localErrors };
  const example = TASK_TYPES.find((t) => t.value === type)?.example ?? '';

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const problems: Errors = {};
    if (!content.trim()) problems.content = pairwise ? 'Write the prompt the two candidates answer.' : 'Write the task annotators will see.';
    else if (content.length > MAX_CONTENT_LENGTH) problems.content = tooLong(content, MAX_CONTENT_LENGTH, 'The content') ?? undefined;
    const pair = pairwise ? readPairFields({ candidateA, candidateB, allowTie }) : null;
    if (pair) {
      Object.assign(problems, pair.errors);
      if (!pairAnswer) problems.goldenAnswer = allowTie ? 'Choose which candidate is better, or a tie.' : 'Choose which candidate is better.';
    } else {
      if (options.length < 2) problems.options = 'Give at least two distinct options, one per line.';
      else if (options.length > MAX_OPTIONS) problems.options = `At most ${MAX_OPTIONS} options.`;
      else if (options.some((option) => option.length > MAX_OPTION_LENGTH)) problems.options = `Each option has at most ${MAX_OPTION_LENGTH} characters.`;
      if (multi ? goldenSet.length === 0 : !goldenAnswer) {
        if (options.length >= 2) problems.goldenAnswer = multi ? 'Tick every option that applies.' : 'Choose which option is the right answer.';
      }
    }
    setLocalErrors(problems);
    setCreated(null);
    create.reset();
    if (Object.keys(problems).length > 0) {
      // Focus moves after React has marked the fields invalid.
      focusFirstInvalid(formElement);
      return;
    }
    const body: GoldenTaskInput = {
      type,
      content: content.trim(),
      // A pairwise golden task's answers are A, B (and tie): it takes its candidates, not options.
      ...(pair
        ? { candidates: pair.value.candidates, allowTie: pair.value.allowTie, goldenAnswer: pairAnswer }
        : { options, goldenAnswer: multi ? goldenSet : goldenAnswer }),
      locale,
      projectId: projectId || null,
      ...(answerKind !== 'single' ? { answerKind } : {}),
    };
    try {
      const task = await create.mutateAsync({ body, idempotencyKey: idempotency.keyFor(body) });
      idempotency.forget();
      setCreated(task);
      setContent('');
      setChosenAnswer('');
      setChosenSet([]);
      setCandidateA('');
      setCandidateB('');
      setChosenPair('');
      onCreated();
    } catch {
      // Shown next to the fields from create.error.
    }
  };

  const clearError = (field: keyof Errors) => {
    if (localErrors[field]) setLocalErrors(({ [field]: _dropped, ...rest }) => rest);
  };

  return (
    <form onSubmit={submit} noValidate aria-label="New golden task" className="golden-form">
      <div className="golden-grid">
        <div>
          <SelectField
            label="Type"
            name="type"
            value={type}
            onChange={(event) => isTaskType(event.target.value) && setType(event.target.value)}
            options={TASK_TYPES}
            error={errors.type}
          />
          <SelectField
            label="Answer"
            name="answerKind"
            value={answerKind}
            onChange={(event) => setAnswerKind(answerKindOf(event.target.value))}
            options={GOLDEN_ANSWER_KINDS}
            hint="Golden tasks are served in place of tasks of the same type, locale and answer; written answers have none (no one answer is right)."
            error={errors.answerKind}
          />
          <TextAreaField
            label={pairwise ? 'Prompt' : 'Content'}
            name="content"
            rows={5}
            value={content}
            onChange={(event) => {
              setContent(event.target.value);
              clearError('content');
            }}
            hint={pairwise ? 'What the two candidates answer: annotators read it first.' : 'What annotators see: a text, a question, an image URL…'}
            limit={MAX_CONTENT_LENGTH}
            error={errors.content}
          />
        </div>
        {pairwise ? (
          <div>
            <TextAreaField
              label="Candidate A"
              name="candidateA"
              rows={4}
              value={candidateA}
              onChange={(event) => {
                setCandidateA(event.target.value);
                clearError('candidateA');
              }}
              limit={MAX_CANDIDATE_LENGTH}
              error={errors.candidateA}
            />
            <TextAreaField
              label="Candidate B"
              name="candidateB"
              rows={4}
              value={candidateB}
              onChange={(event) => {
                setCandidateB(event.target.value);
                clearError('candidateB');
              }}
              limit={MAX_CANDIDATE_LENGTH}
              error={errors.candidateB}
            />
            <label className="checkbox golden-check">
              <input type="checkbox" name="allowTie" checked={allowTie} onChange={(event) => setAllowTie(event.currentTarget.checked)} />
              Allow a tie (annotators may answer that neither is better)
            </label>
            {errors.allowTie ? <p className="field-error">{errors.allowTie}</p> : null}
            <fieldset className="golden-set golden-pair" aria-describedby="golden-pair-hint">
              <legend>Golden answer</legend>
              <div className="golden-pair-choices">
                {(['A', 'B', 'tie'] as const).map((answer) => (
                  <label key={answer} className={`checkbox${answer === 'tie' && !allowTie ? ' is-disabled' : ''}`}>
                    <input
                      type="radio"
                      name="goldenPair"
                      value={answer}
                      checked={pairAnswer === answer}
                      disabled={answer === 'tie' && !allowTie}
                      onChange={() => {
                        setChosenPair(answer);
                        clearError('goldenAnswer');
                      }}
                    />
                    {pairResultWords(answer)}
                  </label>
                ))}
              </div>
              <p id="golden-pair-hint" className={errors.goldenAnswer ? 'field-error' : 'field-hint'}>
                {errors.goldenAnswer ??
                  (allowTie ? 'The known better candidate, or a tie.' : 'The known better candidate (allow a tie to make a tie the answer).')}
              </p>
            </fieldset>
          </div>
        ) : (
          <div>
            <TextAreaField
              label="Options"
              name="options"
              rows={5}
              value={optionsText}
              placeholder={example}
              onChange={(event) => {
                setOptionsText(event.target.value);
                clearError('options');
              }}
              hint={options.length > 0 ? `One per line: ${options.length} distinct option${options.length === 1 ? '' : 's'}.` : 'One per line, at least two.'}
              error={errors.options}
            />
            {multi ? (
              <fieldset className="golden-set" aria-describedby="golden-set-hint">
                <legend>Golden answer</legend>
                {options.length === 0 ? <p className="field-hint">Type the options first.</p> : null}
                {options.map((option) => (
                  <label key={option} className="checkbox">
                    <input
                      type="checkbox"
                      checked={goldenSet.includes(option)}
                      onChange={(event) => {
                        const ticked = event.currentTarget.checked;
                        setChosenSet((set) => (ticked ? [...set, option] : set.filter((o) => o !== option)));
                        clearError('goldenAnswer');
                      }}
                    />
                    {option}
                  </label>
                ))}
                <p id="golden-set-hint" className={errors.goldenAnswer ? 'field-error' : 'field-hint'}>
                  {errors.goldenAnswer ?? 'Every option that applies: the known right set.'}
                </p>
              </fieldset>
            ) : (
              <SelectField
                label="Golden answer"
                name="goldenAnswer"
                value={goldenAnswer}
                onChange={(event) => {
                  setChosenAnswer(event.target.value);
                  clearError('goldenAnswer');
                }}
                options={[
                  { value: '', label: options.length > 0 ? 'Choose the right option…' : 'Type the options first' },
                  ...options.map((o) => ({ value: o, label: o })),
                ]}
                hint="The known right answer, among the options above."
                error={errors.goldenAnswer}
              />
            )}
          </div>
        )}
      </div>
      <div className="golden-grid">
        <SelectField
          label="Locale"
          name="locale"
          value={locale}
          onChange={(event) => isLocale(event.target.value) && setLocale(event.target.value)}
          options={LOCALES}
          error={errors.locale}
        />
        <SelectField
          label="Project"
          name="projectId"
          value={projectId}
          onChange={(event) => setProjectId(event.target.value)}
          options={[{ value: '', label: 'No project' }, ...projects.map((p) => ({ value: p.id, label: p.name }))]}
          hint="Optional: the project it belongs to."
          error={errors.projectId}
        />
      </div>
      <ErrorNote error={apiErrors.general} />
      {created ? (
        <Notice tone="success">
          Golden task created: annotators of {typeLabel(created.type).toLowerCase()} tasks in {created.locale} will start meeting it.
        </Notice>
      ) : null}
      <div className="golden-submit">
        <Button type="submit" variant="primary" busy={create.isPending}>
          Create golden task
        </Button>
      </div>
    </form>
  );
}
