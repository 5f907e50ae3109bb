// The rules the task forms (Create task, the drawer's Change task) share: reading the budget typed in
// dollars and the answers needed, checked as the API checks them for the task's kind (a text task costs
// twice the price and needs two answers at least), and the API's refusal worded next to the field it names.
// The bounds are the API's own (@concord/contract).
import {
  budgetFloorCents,
  DEFAULT_MAX_CENTS,
  DEFAULT_TEXT_MAX_LENGTH,
  kindPriceCents,
  MAX_TEXT_LENGTH,
  MIN_TEXT_ANSWERS,
  MAX_CONTENT_LENGTH,
  MAX_MAX_CENTS,
  MAX_OPTION_LENGTH,
  MAX_OPTIONS,
  MAX_VALIDATIONS_NEEDED,
  MIN_OPTIONS,
  MIN_VALIDATIONS_NEEDED,
  TASK_FIELDS,
  TASK_TYPES,
  LOCALES,
  MAX_CANDIDATE_LENGTH,
  MAX_GROUP_LENGTH,
  validateTaskInput,
  validationsNeededSchema,
  type AnswerKind,
  type PairCandidates,
  type TaskField,
} from '@concord/contract';
import { ApiError } from '../api/errors';
import type { TaskInput } from './queries';
import type { Locale, ProjectDefaultKind, TaskType } from './vocabulary';
import { mapFieldErrors, type FieldMessages, type FormErrors } from '../api/fieldErrors';
import { formatCents, parseDollars } from '../ui/format';
import { tooLong } from '../ui/limits';
import { SCHEDULE_RULES } from './deadlines';

/**
 * The least budget of a task of this kind: its price (GET /meta's priceCents, the contract's least budget
 * before it has answered), twice that for a text task (its writing and its review), 20 cents at least.
 */
export const floorCentsFor = (priceCents: number | undefined, answerKind: AnswerKind = 'single'): number =>
  budgetFloorCents(kindPriceCents(answerKind, priceCents ?? DEFAULT_MAX_CENTS));

/** The least number of answers a task of this kind needs: a text task's review chooses between two at least. */
export const minAnswersFor = (answerKind: AnswerKind = 'single'): number => (answerKind === 'text' ? MIN_TEXT_ANSWERS : MIN_VALIDATIONS_NEEDED);

const budgetRule = (floorCents: number, answerKind: AnswerKind = 'single') =>
  `Give a budget from ${formatCents(floorCents)} (${answerKind === 'text' ? 'the price of the writing and its review' : 'the task price'}) to ${formatCents(MAX_MAX_CENTS)}.`;
const answersRule = (answerKind: AnswerKind = 'single') =>
  answerKind === 'text'
    ? `Give a whole number of written answers from ${MIN_TEXT_ANSWERS} to ${MAX_VALIDATIONS_NEEDED}: the review chooses between two at least.`
    : `Give a whole number of answers from ${MIN_VALIDATIONS_NEEDED} to ${MAX_VALIDATIONS_NEEDED}.`;

export interface BudgetAndAnswers {
  /** Cents, or undefined when left empty where empty means the default. */
  maxCents: number | undefined;
  validationsNeeded: number | undefined;
  errors: FieldMessages<'maxCents' | 'validationsNeeded'>;
}

/**
 * The budget (dollars, "0.20" or "$1.50") and answers needed as typed, checked against the API's
 * bounds for the task's kind (a text task: at least two answers). With `required`, an empty field is an
 * error; without, it is left to the API's default.
 */
export function readBudgetAndAnswers(
  budgetText: string,
  answersText: string,
  { floorCents, required, answerKind = 'single' }: { floorCents: number; required: boolean; answerKind?: AnswerKind },
): BudgetAndAnswers {
  const errors: BudgetAndAnswers['errors'] = {};
  const budget = budgetText.trim();
  const answers = answersText.trim();
  let maxCents: number | undefined;
  let validationsNeeded: number | undefined;
  if (budget !== '' || required) {
    const cents = parseDollars(budget);
    if (cents === null) errors.maxCents = 'Give the budget in dollars, for example 0.20 or 1.50.';
    else if (cents < floorCents || cents > MAX_MAX_CENTS) errors.maxCents = budgetRule(floorCents, answerKind);
    else maxCents = cents;
  }
  if (answers !== '' || required) {
    const n = /^\d+$/.test(answers) ? Number(answers) : Number.NaN;
    if (!validationsNeededSchema.safeParse(n).success || n < minAnswersFor(answerKind)) errors.validationsNeeded = answersRule(answerKind);
    else validationsNeeded = n;
  }
  return { maxCents, validationsNeeded, errors };
}

/** Options typed one per line: trimmed, blank lines dropped (the service refuses blank options). */
export const splitOptions = (text: string): string[] =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');

const CANDIDATE_RULE = `Write each candidate: 1 to ${MAX_CANDIDATE_LENGTH.toLocaleString('en-US').replace(/,/g, ' ')} characters, and the two different.`;
const GROUP_RULE = `A group's name has at most ${MAX_GROUP_LENGTH} characters.`;

/** The pairwise fields of a form as typed: the two candidates, whether a tie is allowed, the optional group. */
export interface PairFieldsTyped {
  candidateA: string;
  candidateB: string;
  allowTie: boolean;
  group?: string;
}

export type PairFieldErrors = FieldMessages<'candidateA' | 'candidateB' | 'group'>;

/**
 * A pairwise task's candidates (sent as typed), tie and group (trimmed; left out when empty), checked as
 * the API checks them: each candidate holds text and fits MAX_CANDIDATE_LENGTH, the two differ, the group
 * fits MAX_GROUP_LENGTH. The candidates' text is what annotators compare, so two that differ only by
 * surrounding spaces are refused as the same.
 */
export function readPairFields(typed: PairFieldsTyped): {
  value: { candidates: PairCandidates; allowTie: boolean; group?: string };
  errors: PairFieldErrors;
} {
  const errors: PairFieldErrors = {};
  const { candidateA: A, candidateB: B } = typed;
  for (const [field, text, side] of [
    ['candidateA', A, 'A'],
    ['candidateB', B, 'B'],
  ] as const) {
    const long = tooLong(text, MAX_CANDIDATE_LENGTH, `Candidate ${side}`);
    if (text.trim() === '') errors[field] = `Write candidate ${side}.`;
    else if (long) errors[field] = long;
  }
  if (!errors.candidateA && !errors.candidateB && A.trim() === B.trim()) errors.candidateB = 'The two candidates are the same text: they must differ.';
  const group = (typed.group ?? '').trim();
  if (group.length > MAX_GROUP_LENGTH) errors.group = tooLong(group, MAX_GROUP_LENGTH, 'The group') ?? GROUP_RULE;
  return { value: { candidates: { A, B }, allowTie: typed.allowTie, ...(group ? { group } : {}) }, errors };
}

/**
 * Which candidate's field the API's message about `candidates` goes next to: A when it names A alone
 * ("candidates.A"), else B — which also takes what is said of the pair ("the two candidates must differ").
 */
export function candidateFieldOf(error: unknown): 'candidateA' | 'candidateB' {
  const issue = error instanceof ApiError ? error.issues().find((i) => i.path.split('.')[0] === 'candidates') : undefined;
  return issue?.path === 'candidates.A' ? 'candidateA' : 'candidateB';
}

const MAX_LENGTH_RULE = `Give a whole number of characters from 1 to ${MAX_TEXT_LENGTH.toLocaleString('en-US').replace(/,/g, ' ')}, or leave it empty for ${DEFAULT_TEXT_MAX_LENGTH.toLocaleString('en-US').replace(/,/g, ' ')}.`;

/** A text task's longest answer as typed: empty leaves the API's default (2 000); else a whole number of characters, 1 to MAX_TEXT_LENGTH. */
export function readMaxLength(typed: string): { value: number | undefined; error?: string } {
  const text = typed.trim();
  if (text === '') return { value: undefined };
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  return n >= 1 && n <= MAX_TEXT_LENGTH ? { value: n } : { value: undefined, error: MAX_LENGTH_RULE };
}

/**
 * The kind Create task preselects for the chosen project: its default (null or unknown: single choice, as
 * the service reads it); single choice without a project.
 */
export function projectDefaultKind(projects: readonly { id: string; defaultAnswerKind?: ProjectDefaultKind | null }[], projectId: string): AnswerKind {
  if (!projectId) return 'single';
  return projects.find((project) => project.id === projectId)?.defaultAnswerKind ?? 'single';
}

/** The Create task form as read, each kind's own fields where the kind has them. */
export interface TaskFormValues {
  type: string;
  content: string;
  /** The options as typed, one per line (single choice, rating, multi-select). */
  options: string;
  locale: string;
  projectId: string;
  maxCents?: number | undefined;
  validationsNeeded?: number | undefined;
  /** A multi-select task's "the empty set is an answer". */
  allowEmpty: boolean;
  /** A pairwise task's candidates, tie and group (readPairFields' value). */
  pair?: { candidates: PairCandidates; allowTie: boolean; group?: string } | null | undefined;
  /** A text task's longest answer; undefined leaves the API's default. */
  maxLength?: number | undefined;
  /** The deadline as ISO 8601 (readDeadline's value); undefined or null: none of its own (its project's default applies). */
  deadline?: string | null | undefined;
  /** The priority; undefined leaves the API's default (0). */
  priority?: number | undefined;
}

/**
 * The task Create task sends (POST /tasks). Its `answerKind` is always named, single choice too: a task
 * that names none takes its project's default, so a single-choice task left without it would become a
 * rating or multi-select task in a project whose default is one of those.
 */
export function taskInputOf(answerKind: AnswerKind, values: TaskFormValues): TaskInput {
  const pairwise = answerKind === 'pairwise';
  const written = answerKind === 'text';
  return {
    type: values.type as TaskType,
    content: values.content,
    // A pairwise task's answers are A, B (and tie), a text task's are written: neither takes options.
    ...(pairwise ? (values.pair ?? {}) : written ? {} : { options: splitOptions(values.options) }),
    locale: (values.locale || 'en') as Locale,
    ...(values.maxCents !== undefined ? { maxCents: values.maxCents } : {}),
    ...(values.validationsNeeded !== undefined ? { validationsNeeded: values.validationsNeeded } : {}),
    ...(values.projectId ? { projectId: values.projectId } : {}),
    answerKind,
    ...(answerKind === 'multi' ? { allowEmpty: values.allowEmpty } : {}),
    ...(written && values.maxLength !== undefined ? { maxLength: values.maxLength } : {}),
    ...(values.deadline ? { deadline: values.deadline } : {}),
    ...(values.priority !== undefined ? { priority: values.priority } : {}),
  };
}

const CONTENT_MISSING: Record<AnswerKind, string> = {
  single: 'Give the content to label.',
  rating: 'Give the content to rate.',
  multi: 'Give the content to label.',
  pairwise: 'Write the prompt the two candidates answer.',
  text: 'Write the instruction annotators answer in writing.',
};

/** The API's answer to a task form (POST /tasks, PATCH /tasks/:id), next to the fields it names, in the words of the task's kind. */
export function taskFormErrors(error: unknown, floorCents: number, answerKind: AnswerKind = 'single'): FormErrors<TaskField> {
  return mapFieldErrors(error, {
    fields: TASK_FIELDS,
    codeFields: { INSUFFICIENT_CREDITS: 'maxCents' },
    missing: {
      type: 'Choose a task type.',
      content: CONTENT_MISSING[answerKind],
      options: 'Give at least two options, one per line.',
      candidates: 'Write the two candidates to compare.',
    },
    rules: {
      type: `Choose one of the ${TASK_TYPES.length} task types.`,
      content: `Give the content to label: 1 to ${MAX_CONTENT_LENGTH.toLocaleString('en-US').replace(/,/g, ' ')} characters.`,
      options: `Give ${MIN_OPTIONS} to ${MAX_OPTIONS} distinct options, one per line, each at most ${MAX_OPTION_LENGTH} characters.`,
      locale: `Choose one of the ${LOCALES.length} locales.`,
      maxCents: budgetRule(floorCents, answerKind),
      validationsNeeded: answersRule(answerKind),
      projectId: 'Choose one of your projects, or none.',
      answerKind: 'Choose single choice, rating, multi-select, pairwise or written answer.',
      allowEmpty: 'Only a multi-select task may allow the empty set.',
      candidates: CANDIDATE_RULE,
      allowTie: 'Only a pairwise task may allow a tie.',
      group: GROUP_RULE,
      maxLength: MAX_LENGTH_RULE,
      ...SCHEDULE_RULES,
    },
  });
}

/**
 * The contract's own rules (validateTaskInput, as the service runs them) over a task about to be sent: its
 * refusal as the API would word it, next to the fields it names, or null when the service would accept it
 * as far as the browser can tell (the balance and the project are the service's to judge).
 */
export function localTaskErrors(input: unknown, priceCents: number, answerKind: AnswerKind): FieldMessages<TaskField> | null {
  const checked = validateTaskInput(input, priceCents);
  if (checked.ok) return null;
  const { code, message, details } = checked.error;
  const refusal = new ApiError(400, { error: message, code, ...(details ? { details } : {}) });
  const mapped = taskFormErrors(refusal, floorCentsFor(priceCents, answerKind), answerKind).fields;
  return Object.keys(mapped).length > 0 ? mapped : null;
}
