// The task field rules of the spec and the contract (§4), written once: the service checks single
// creation, JSON batches, CSV imports and golden tasks with them, the CLI checks each row before it sends
// it (a batch is all or nothing: one bad row must not cost its batch), and the dashboard's forms take
// their bounds from here. Checks run in the spec's order: MISSING_FIELDS, INVALID_TYPE, OPTIONS_REQUIRED,
// then every other field rule (VALIDATION_ERROR).
import { z } from 'zod';
import { describeZodError } from './zod-issues.ts';

export const TASK_TYPES = ['SENTIMENT_ANALYSIS', 'IMAGE_CLASSIFICATION', 'BINARY_CHOICE', 'AI_RESPONSE_RATING', 'RELEVANCE_RATING'] as const;
export type TaskType = (typeof TASK_TYPES)[number];
export const LOCALES = ['fr', 'en', 'de', 'zh', 'es', 'ar'] as const;
export type Locale = (typeof LOCALES)[number];
export const TASK_STATUSES = ['PENDING', 'VALIDATING', 'COMPLETED', 'FAILED'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
/** The fields a task creation request may hold, in the order the documentation lists them. */
export const TASK_FIELDS = [
  'type',
  'content',
  'options',
  'locale',
  'maxCents',
  'projectId',
  'validationsNeeded',
  'answerKind',
  'allowEmpty',
  'candidates',
  'allowTie',
  'group',
  'maxLength',
  'deadline',
  'priority',
] as const;
export type TaskField = (typeof TASK_FIELDS)[number];

/**
 * What an annotator answers (docs/answer-kinds.md): `single`, one option (the default: every request that
 * names no kind); `rating`, one of the options read as ordered levels, lowest first, decided by a model
 * that knows a level one off is nearer than one far off; `multi`, a set of the options (empty only where
 * the task allows it), each option decided apart; `pairwise`, which of two candidates is better (`content` is the
 * prompt, `candidates` the two texts), shown in a random order per assignment and answered as `first`,
 * `second` or, where the task allows it, `tie`; `text`, a written answer (`content` is the instruction), whose
 * consensus is a second stage: a review task of its own (single choice: which written answer is best).
 */
export const ANSWER_KINDS = ['single', 'rating', 'multi', 'pairwise', 'text'] as const;
export type AnswerKind = (typeof ANSWER_KINDS)[number];
export const DEFAULT_ANSWER_KIND: AnswerKind = 'single';
/**
 * The kinds a project may make its tasks' default: those whose tasks carry options as single choice's do
 * (a default of pairwise or text would change which fields a request needs).
 */
export const PROJECT_DEFAULT_KINDS = ['single', 'rating', 'multi'] as const;
export type ProjectDefaultKind = (typeof PROJECT_DEFAULT_KINDS)[number];
/** A rating scale has 2 to 11 levels (0–10 is the longest scale in common use). */
export const MAX_RATING_LEVELS = 11;
/** A multi-select task has at most 20 options: each is a question of its own, answered on every task. */
export const MAX_MULTI_OPTIONS = 20;
/**
 * The separator of a multi-select set written as one text (a result, an answer, a golden answer, a CSV
 * cell): the CSV dialect's option separator, which a multi-select task's options may therefore not hold.
 */
export const SET_SEPARATOR = '|';
/** A pairwise task's answers as stored, as results and as its `options`: candidate A, candidate B, or a tie. */
export const PAIR_ANSWERS = ['A', 'B', 'tie'] as const;
export type PairAnswer = (typeof PAIR_ANSWERS)[number];
/** What an annotator answers on a pairwise task: the candidate shown first or second (or a tie), as their assignment showed them. */
export const SHOWN_PAIR_ANSWERS = ['first', 'second', 'tie'] as const;
export type ShownPairAnswer = (typeof SHOWN_PAIR_ANSWERS)[number];
/** A pairwise task's options: A and B, and tie where the task allows ties. */
export const pairOptions = (allowTie: boolean): string[] => (allowTie ? [...PAIR_ANSWERS] : ['A', 'B']);
/** The answers an assignment of a pairwise task offers: first, second, and tie where the task allows ties. */
export const shownPairOptions = (allowTie: boolean): string[] => (allowTie ? [...SHOWN_PAIR_ANSWERS] : ['first', 'second']);
/** Whether a pairwise task allows ties, read from its options. */
export const allowsTie = (options: readonly string[]): boolean => options.includes('tie');
/**
 * An annotator's answer (first, second, tie) as the candidate it names: `swapped` when their assignment
 * showed B first. Null for anything else (INVALID_ANSWER).
 */
export function pairAnswerOf(shown: unknown, swapped: boolean): PairAnswer | null {
  if (shown === 'tie') return 'tie';
  if (shown === 'first') return swapped ? 'B' : 'A';
  if (shown === 'second') return swapped ? 'A' : 'B';
  return null;
}
/** A written answer is 1 to `maxLength` characters once trimmed: at most 10 000, 2 000 unless the task says. */
export const MAX_TEXT_LENGTH = 10_000;
export const DEFAULT_TEXT_MAX_LENGTH = 2_000;
/** A text task is billed twice the price: once for the writing, once for its review task. */
export const TEXT_PRICE_FACTOR = 2;
/** A text task has at least two written answers, for its review to choose between. */
export const MIN_TEXT_ANSWERS = 2;
/** The price of a task of this kind: a text task's covers its review too. */
export const kindPriceCents = (answerKind: AnswerKind, priceCents: number): number => (answerKind === 'text' ? TEXT_PRICE_FACTOR * priceCents : priceCents);
/** A pairwise candidate is at most 50 000 characters, so that a pair fits in a task's content budget. */
export const MAX_CANDIDATE_LENGTH = 50_000;
/** A pairwise group's name is 1 to 200 characters. */
export const MAX_GROUP_LENGTH = 200;
const candidateSchema = z
  .string()
  .min(1, { error: 'a candidate must not be empty' })
  .max(MAX_CANDIDATE_LENGTH, { error: `a candidate is at most ${MAX_CANDIDATE_LENGTH} characters` });
/** A pairwise task's two candidates, as the buyer names them. */
export const candidatesSchema = z
  .strictObject({ A: candidateSchema, B: candidateSchema })
  .meta({ id: 'PairCandidates', description: 'Pairwise tasks only: the two texts compared; the result says which is better (A, B or tie)' });
export type PairCandidates = z.output<typeof candidatesSchema>;
export const answerKindSchema = z.enum(ANSWER_KINDS);
/** A decided rating's posterior around its level, in level indexes (0 = the first option, the lowest level). */
export const ratingResultSchema = z
  .object({
    mean: z.number().meta({ description: 'The posterior mean level (0 = the lowest), 4 decimals' }),
    // An array of two rather than a tuple: the SDK's generated types read a tuple two ways.
    interval: z
      .array(z.number().int())
      .length(2)
      .meta({ description: 'The central 90 % interval of the posterior: the lowest and highest level index it holds' }),
  })
  .meta({ id: 'RatingResult' });
export type RatingResult = z.output<typeof ratingResultSchema>;
/** A multi-select result or answer as a list (beside every text that joins it). */
export const choicesSchema = z
  .array(z.string())
  .meta({ id: 'Choices', description: "Multi-select tasks only: the options of the set, in the task's option order" });
/** A multi-select task's decision per option: the probability that it is right (in or out, as the result has it). */
export const optionConfidenceSchema = z
  .record(z.string(), z.number())
  .meta({ id: 'OptionConfidence', description: 'Per option: the probability that its decision (in the set or not) is right, 4 decimals' });

/** A task's budget in cents: 20 (the default, and the least) to 100 000; never below the task price either. */
export const DEFAULT_MAX_CENTS = 20;
export const MAX_MAX_CENTS = 100_000;
/** Answers that must agree before a task can complete: 1 to 25, 3 by default. */
export const DEFAULT_VALIDATIONS_NEEDED = 3;
export const MIN_VALIDATIONS_NEEDED = 1;
export const MAX_VALIDATIONS_NEEDED = 25;
export const MAX_CONTENT_LENGTH = 100_000;
export const MIN_OPTIONS = 2;
export const MAX_OPTIONS = 50;
export const MAX_OPTION_LENGTH = 500;
export const MAX_PROJECT_ID_LENGTH = 64;
/** The most tasks one POST /tasks/batch creates. */
export const MAX_BATCH_TASKS = 1_000;
/** spec: a CSV import is at most 5 MB (read as 5 MiB, 5 242 880 bytes). */
export const CSV_MAX_BYTES = 5 * 1024 * 1024;
/** A JSON request body is at most 1 MiB once inflated; POST /tasks/batch's, 10 MiB. */
export const JSON_BODY_MAX_BYTES = 1024 * 1024;
export const BATCH_BODY_MAX_BYTES = 10 * 1024 * 1024;

/** The lowest budget a task may name: its price (GET /meta's priceCents), and never below the default. */
export const budgetFloorCents = (priceCents: number): number => Math.max(priceCents, DEFAULT_MAX_CENTS);

const option = z
  .string()
  .trim()
  .min(1, { error: 'options must not be blank' })
  .max(MAX_OPTION_LENGTH, { error: `options are at most ${MAX_OPTION_LENGTH} characters` });

export const optionsSchema = z
  .array(option)
  .min(MIN_OPTIONS)
  .max(MAX_OPTIONS, { error: `at most ${MAX_OPTIONS} options` })
  .refine((options) => new Set(options).size === options.length, { error: 'options must be distinct' });

export const maxCentsSchema = z.number().int().min(DEFAULT_MAX_CENTS).max(MAX_MAX_CENTS);

/**
 * Priority orders a buyer's own open tasks in `next` (docs/organisations.md): a task of priority p is
 * served as if it were created 10·p minutes earlier, among the buyer's tasks only, so nothing waits more
 * than 10 minutes per point behind newer work and other buyers' turns do not change.
 */
export const MIN_PRIORITY = -10;
export const MAX_PRIORITY = 10;
export const DEFAULT_PRIORITY = 0;
export const PRIORITY_MINUTES_PER_POINT = 10;
export const prioritySchema = z
  .number()
  .int()
  .min(MIN_PRIORITY)
  .max(MAX_PRIORITY)
  .meta({
    description:
      `Orders the buyer's own tasks in next (${MIN_PRIORITY} to ${MAX_PRIORITY}, ${DEFAULT_PRIORITY} by default): served as if created ` +
      `${PRIORITY_MINUTES_PER_POINT} minutes earlier per point, among the buyer's tasks only`,
  });
/** A deadline is at least a minute ahead (the expiry job runs every few seconds) and at most a year. */
export const MIN_DEADLINE_LEAD_MS = 60_000;
export const MAX_DEADLINE_LEAD_DAYS = 366;
/** A project's default deadline, in hours after a task's creation: 1 hour to a year. */
export const MAX_DEFAULT_DEADLINE_HOURS = 8_760;
export const deadlineSchema = z.iso.datetime({ offset: true }).meta({
  description:
    'When the task stops taking answers: an open task past it ends FAILED with failureReason EXPIRED, not charged, its reservation released ' +
    `(ISO 8601 with a zone; at least a minute and at most ${MAX_DEADLINE_LEAD_DAYS} days ahead)`,
});
export const defaultDeadlineHoursSchema = z.number().int().min(1).max(MAX_DEFAULT_DEADLINE_HOURS);

/** What is wrong with a deadline (ISO 8601) at `now`, or null: it must be a minute to a year ahead. */
export function deadlineProblem(deadline: string, now: Date): string | null {
  const lead = Date.parse(deadline) - now.getTime();
  if (Number.isNaN(lead)) return 'must be an ISO 8601 date and time with a zone';
  if (lead < MIN_DEADLINE_LEAD_MS) return 'must be at least a minute ahead';
  if (lead > MAX_DEADLINE_LEAD_DAYS * 86_400_000) return `must be at most ${MAX_DEADLINE_LEAD_DAYS} days ahead`;
  return null;
}
export const validationsNeededSchema = z.number().int().min(MIN_VALIDATIONS_NEEDED).max(MAX_VALIDATIONS_NEEDED);
export const localeSchema = z.enum(LOCALES);
export const projectIdSchema = z.string().min(1).max(MAX_PROJECT_ID_LENGTH);

/**
 * The rules that depend on the answer kind, as issues on the fields they name: a rating scale has at most
 * MAX_RATING_LEVELS levels; a multi-select task at most MAX_MULTI_OPTIONS options, none holding
 * SET_SEPARATOR; and only a multi-select task takes `allowEmpty`.
 */
function checkKind(
  task: {
    options?: string[] | undefined;
    answerKind: AnswerKind;
    allowEmpty?: boolean | undefined;
    candidates?: PairCandidates | undefined;
    allowTie?: boolean | undefined;
    group?: string | undefined;
    maxLength?: number | undefined;
    validationsNeeded?: number | undefined;
  },
  context: z.RefinementCtx,
): void {
  const issue = (path: string, message: string) => context.addIssue({ code: 'custom', path: [path], message });
  if (task.answerKind !== 'text' && task.maxLength !== undefined) issue('maxLength', 'only a text task (answerKind text) takes maxLength');
  if (task.answerKind === 'text') {
    if (task.options !== undefined) issue('options', "a text task's answer is written: it takes no options");
    if (task.validationsNeeded !== undefined && task.validationsNeeded < MIN_TEXT_ANSWERS) {
      issue('validationsNeeded', `a text task needs at least ${MIN_TEXT_ANSWERS} written answers for its review to choose between`);
    }
    for (const field of ['candidates', 'allowTie', 'group', 'allowEmpty'] as const) {
      if (task[field] !== undefined) issue(field, `a text task does not take ${field}`);
    }
    return;
  }
  if (task.answerKind === 'pairwise') {
    if (task.options !== undefined) issue('options', "a pairwise task's answers are A, B and (with allowTie) tie: give its candidates, not options");
    if (task.candidates === undefined) issue('candidates', 'a pairwise task needs its two candidates, {"A": …, "B": …}');
    else if (task.candidates.A === task.candidates.B) issue('candidates', 'the two candidates must differ');
  } else {
    if (task.options === undefined) issue('options', 'required');
    for (const field of ['candidates', 'allowTie', 'group'] as const) {
      if (task[field] !== undefined) issue(field, `only a pairwise task (answerKind pairwise) takes ${field}`);
    }
  }
  if (task.options === undefined) return;
  if (task.answerKind === 'rating' && task.options.length > MAX_RATING_LEVELS) {
    issue('options', `a rating task has at most ${MAX_RATING_LEVELS} levels (its options, lowest first)`);
  }
  if (task.answerKind === 'multi' && task.options.length > MAX_MULTI_OPTIONS) issue('options', `a multi-select task has at most ${MAX_MULTI_OPTIONS} options`);
  if (task.answerKind === 'multi' && task.options.some((option) => option.includes(SET_SEPARATOR))) {
    issue('options', `a multi-select task's options may not hold ${SET_SEPARATOR}, which joins a set written as one text`);
  }
  if (task.answerKind !== 'multi' && task.allowEmpty !== undefined) issue('allowEmpty', 'only a multi-select task (answerKind multi) takes allowEmpty');
}

const allowEmptySchema = z.boolean().optional().meta({
  description: 'Multi-select tasks only: whether the empty set is an answer (and a result); false when absent',
});
const allowTieSchema = z.boolean().optional().meta({
  description: 'Pairwise tasks only: whether a tie is an answer (and a result); false when absent',
});
const groupSchema = z
  .string()
  .trim()
  .min(1)
  .max(MAX_GROUP_LENGTH)
  .optional()
  .meta({ description: "Pairwise tasks only: tasks of one group (the same prompt's candidates compared in pairs) are also ranked together in exports" });
const taskOptionsSchema = optionsSchema.optional().meta({
  description:
    'The answers an annotator chooses from (required for every kind but pairwise, whose options are A, B and, with allowTie, tie, and text, which has none)',
});
const maxLengthSchema = z
  .number()
  .int()
  .min(1)
  .max(MAX_TEXT_LENGTH)
  .optional()
  .meta({
    description: `Text tasks only: the longest written answer, in characters once trimmed (1–${MAX_TEXT_LENGTH}; ${DEFAULT_TEXT_MAX_LENGTH} when absent)`,
  });

/** The documented and enforced shape of one task in a creation request. */
export const taskInputSchema = z
  .strictObject({
    type: z.enum(TASK_TYPES),
    content: z
      .string()
      .min(1)
      .max(MAX_CONTENT_LENGTH, { error: `content is at most ${MAX_CONTENT_LENGTH} characters` }),
    options: taskOptionsSchema,
    locale: localeSchema.default('en'),
    maxCents: maxCentsSchema.default(DEFAULT_MAX_CENTS),
    projectId: projectIdSchema.nullish().transform((id) => id ?? null),
    validationsNeeded: validationsNeededSchema.default(DEFAULT_VALIDATIONS_NEEDED),
    answerKind: answerKindSchema.default(DEFAULT_ANSWER_KIND),
    allowEmpty: allowEmptySchema,
    candidates: candidatesSchema.optional(),
    allowTie: allowTieSchema,
    group: groupSchema,
    maxLength: maxLengthSchema,
    deadline: deadlineSchema.optional(),
    priority: prioritySchema.default(DEFAULT_PRIORITY),
  })
  .superRefine(checkKind)
  .meta({ id: 'TaskInput' });

/** A valid task: `options` always set (a pairwise task's from allowTie, by withKindOptions). */
export type TaskInput = Omit<z.output<typeof taskInputSchema>, 'options'> & { options: string[] };

/** A parsed task with its options: a pairwise task's are A, B (and tie), the others' their own. */
function withKindOptions<T extends { options?: string[] | undefined; answerKind: AnswerKind; allowTie?: boolean | undefined }>(
  task: T,
): Omit<T, 'options'> & { options: string[] } {
  return { ...task, options: task.options ?? (task.answerKind === 'text' ? [] : pairOptions(task.allowTie === true)) };
}

export interface TaskRuleError {
  code: 'MISSING_FIELDS' | 'INVALID_TYPE' | 'OPTIONS_REQUIRED' | 'VALIDATION_ERROR';
  message: string;
  details?: Record<string, unknown>;
}

export type TaskValidation = { ok: true; task: TaskInput } | { ok: false; error: TaskRuleError };

const isBlank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

type Validation<T> = { ok: true; task: T } | { ok: false; error: TaskRuleError };

function invalid(issues: Array<{ path: string; message: string }>): { ok: false; error: TaskRuleError } {
  return {
    ok: false,
    error: { code: 'VALIDATION_ERROR', message: `Invalid task: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, details: { issues } },
  };
}

/** The spec's staged checks, then the schema's own rules. */
function validateStaged<S extends z.ZodType>(raw: unknown, schema: S): Validation<z.output<S>> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { ok: false, error: { code: 'VALIDATION_ERROR', message: 'A task must be a JSON object' } };
  }
  const input = raw as Record<string, unknown>;
  const pairwise = input.answerKind === 'pairwise';
  const required = input.answerKind === 'text' ? (['type', 'content'] as const) : (['type', 'content', pairwise ? 'candidates' : 'options'] as const);
  const missing = required.filter((field) => isBlank(input[field]));
  if (missing.length > 0) {
    return { ok: false, error: { code: 'MISSING_FIELDS', message: `Missing required fields: ${missing.join(', ')}`, details: { fields: missing } } };
  }
  if (typeof input.type !== 'string' || !(TASK_TYPES as readonly string[]).includes(input.type)) {
    return {
      ok: false,
      error: { code: 'INVALID_TYPE', message: `Unknown task type ${JSON.stringify(input.type)}; expected one of ${TASK_TYPES.join(', ')}` },
    };
  }
  if (!pairwise && input.answerKind !== 'text' && Array.isArray(input.options) && input.options.length < MIN_OPTIONS) {
    return { ok: false, error: { code: 'OPTIONS_REQUIRED', message: `A task needs at least ${MIN_OPTIONS} options` } };
  }
  const parsed = schema.safeParse(input);
  if (!parsed.success) return invalid(describeZodError(parsed.error));
  return { ok: true, task: parsed.data };
}

/**
 * Validates one task; `priceCents` is the lowest acceptable budget (a task must afford its price), and a
 * task that names no budget gets the larger of the default and the price (PRICE_CENTS may exceed 20).
 */
export function validateTaskInput(raw: unknown, basePriceCents: number, now: Date = new Date()): TaskValidation {
  const staged = validateStaged(raw, taskInputSchema);
  if (!staged.ok) return staged;
  const late = staged.task.deadline === undefined ? null : deadlineProblem(staged.task.deadline, now);
  if (late) return invalid([{ path: 'deadline', message: late }]);
  const result: TaskValidation = { ok: true, task: withKindOptions(staged.task) };
  const priceCents = kindPriceCents(result.task.answerKind, basePriceCents);
  const budgetGiven = typeof raw === 'object' && raw !== null && (raw as Record<string, unknown>).maxCents !== undefined;
  if (result.ok && !budgetGiven) result.task.maxCents = Math.max(result.task.maxCents, priceCents);
  if (result.ok && result.task.maxCents < priceCents) {
    return invalid([{ path: 'maxCents', message: `must be at least the task price of ${priceCents} cents` }]);
  }
  return result;
}

/** What an annotator answers: one option; for a multi-select task the set of options chosen, as a list or joined by |. */
export const answerValueSchema = z.union([z.string(), z.array(z.string().max(MAX_OPTION_LENGTH)).max(MAX_MULTI_OPTIONS)]);
export type AnswerValue = z.output<typeof answerValueSchema>;

/** A set of options in the task's option order: how a multi-select answer and result are stored and shown. */
export const inOptionOrder = (options: readonly string[], chosen: readonly string[]): string[] => options.filter((option) => chosen.includes(option));

/** A set as one text: its options in the task's option order joined by SET_SEPARATOR ('' for the empty set). */
export const joinSet = (options: readonly string[], chosen: readonly string[]): string => inOptionOrder(options, chosen).join(SET_SEPARATOR);

/** A multi-select answer as a list: given as one, or as its options joined by | ('' is the empty set). */
export const answerChoices = (answer: AnswerValue): string[] => (Array.isArray(answer) ? answer : answer === '' ? [] : answer.split(SET_SEPARATOR));

/**
 * An answer as it is stored (SQL's task_answer stores regular answers the same way): one option as it is;
 * a multi-select set as the JSON array of its options in the task's option order, so equal sets are equal texts.
 */
export function storedAnswer(task: { options: readonly string[]; answerKind: AnswerKind }, answer: AnswerValue): string {
  return task.answerKind === 'multi' ? JSON.stringify(inOptionOrder(task.options, answerChoices(answer))) : String(answer);
}

/** A stored multi-select answer or result (storedAnswer) as the list of its options. */
export const storedChoices = (stored: string): string[] => JSON.parse(stored) as string[];

/** A stored answer or result as the API shows it: one option as it is; a multi-select set as its options joined by |. */
export const shownAnswer = (answerKind: AnswerKind, stored: string): string => (answerKind === 'multi' ? storedChoices(stored).join(SET_SEPARATOR) : stored);

/** Whether an answer fits the task: one of its options, or (multi) distinct options, empty only where allowed. */
export function answerFits(
  task: { options?: readonly string[] | undefined; answerKind: AnswerKind; allowEmpty?: boolean | undefined; allowTie?: boolean | undefined },
  answer: AnswerValue,
): boolean {
  const options = task.options ?? (task.answerKind === 'pairwise' ? pairOptions(task.allowTie === true) : []);
  if (task.answerKind !== 'multi') return typeof answer === 'string' && options.includes(answer);
  const chosen = answerChoices(answer);
  if (new Set(chosen).size !== chosen.length) return false;
  return chosen.every((option) => options.includes(option)) && (chosen.length > 0 || task.allowEmpty === true);
}

/** A golden task: a task without budget or answer count, plus the known answer (one of the options; a set of them for multi). */
export const goldenTaskInputSchema = z
  .strictObject({
    type: z.enum(TASK_TYPES),
    content: taskInputSchema.shape.content,
    options: taskOptionsSchema,
    goldenAnswer: z
      .union([z.string().trim().max(MAX_OPTION_LENGTH), z.array(z.string().trim().min(1).max(MAX_OPTION_LENGTH)).max(MAX_MULTI_OPTIONS)])
      .meta({ description: 'One of the options; for a multi-select golden task the set, as a list or joined by |; for a pairwise one A, B or tie' }),
    locale: localeSchema.default('en'),
    projectId: projectIdSchema.nullish().transform((id) => id ?? null),
    answerKind: answerKindSchema.default(DEFAULT_ANSWER_KIND),
    allowEmpty: allowEmptySchema,
    candidates: candidatesSchema.optional(),
    allowTie: allowTieSchema,
  })
  .superRefine(checkKind)
  .refine((task) => task.answerKind !== 'text', {
    error: 'a golden task cannot be a text task: a written answer has no one right answer to score it by',
    path: ['answerKind'],
  })
  .refine((task) => task.answerKind === 'text' || answerFits(task, task.goldenAnswer), {
    error:
      'goldenAnswer must be one of the options (for a multi-select task: distinct options, as a list or joined by |, empty only with allowEmpty; for a pairwise task A, B, or tie with allowTie)',
    path: ['goldenAnswer'],
  })
  .meta({ id: 'GoldenTaskInput' });

export type GoldenTaskInputValues = Omit<z.output<typeof goldenTaskInputSchema>, 'options'> & { options: string[] };

export function validateGoldenTaskInput(raw: unknown): Validation<GoldenTaskInputValues> {
  const staged = validateStaged(raw, goldenTaskInputSchema);
  return staged.ok ? { ok: true, task: withKindOptions(staged.task) } : staged;
}
