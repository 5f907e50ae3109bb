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
export const TASK_FIELDS = ['type', 'content', 'options', 'locale', 'maxCents', 'projectId', 'validationsNeeded', 'answerKind'] as const;
export type TaskField = (typeof TASK_FIELDS)[number];

/**
 * What an annotator answers (docs/answer-kinds.md): `single`, one option (the default: every request that
 * names no kind); `rating`, one of the options read as ordered levels, lowest first, decided by a model
 * that knows a level one off is nearer than one far off.
 */
export const ANSWER_KINDS = ['single', 'rating'] as const;
export type AnswerKind = (typeof ANSWER_KINDS)[number];
export const DEFAULT_ANSWER_KIND: AnswerKind = 'single';
/** A rating scale has 2 to 11 levels (0–10 is the longest scale in common use). */
export const MAX_RATING_LEVELS = 11;
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
export const validationsNeededSchema = z.number().int().min(MIN_VALIDATIONS_NEEDED).max(MAX_VALIDATIONS_NEEDED);
export const localeSchema = z.enum(LOCALES);
export const projectIdSchema = z.string().min(1).max(MAX_PROJECT_ID_LENGTH);

/** Whether the options suit the answer kind: a rating scale has at most MAX_RATING_LEVELS levels. */
function fitsItsKind(task: { options: string[]; answerKind: AnswerKind }): boolean {
  return task.answerKind !== 'rating' || task.options.length <= MAX_RATING_LEVELS;
}
const ratingLevelsIssue = { error: `a rating task has at most ${MAX_RATING_LEVELS} levels (its options, lowest first)`, path: ['options'] };

/** The documented and enforced shape of one task in a creation request. */
export const taskInputSchema = z
  .strictObject({
    type: z.enum(TASK_TYPES),
    content: z
      .string()
      .min(1)
      .max(MAX_CONTENT_LENGTH, { error: `content is at most ${MAX_CONTENT_LENGTH} characters` }),
    options: optionsSchema,
    locale: localeSchema.default('en'),
    maxCents: maxCentsSchema.default(DEFAULT_MAX_CENTS),
    projectId: projectIdSchema.nullish().transform((id) => id ?? null),
    validationsNeeded: validationsNeededSchema.default(DEFAULT_VALIDATIONS_NEEDED),
    answerKind: answerKindSchema.default(DEFAULT_ANSWER_KIND),
  })
  .refine(fitsItsKind, ratingLevelsIssue)
  .meta({ id: 'TaskInput' });

export type TaskInput = z.output<typeof taskInputSchema>;

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
  const missing = (['type', 'content', 'options'] as const).filter((field) => isBlank(input[field]));
  if (missing.length > 0) {
    return { ok: false, error: { code: 'MISSING_FIELDS', message: `Missing required fields: ${missing.join(', ')}`, details: { fields: missing } } };
  }
  if (typeof input.type !== 'string' || !(TASK_TYPES as readonly string[]).includes(input.type)) {
    return {
      ok: false,
      error: { code: 'INVALID_TYPE', message: `Unknown task type ${JSON.stringify(input.type)}; expected one of ${TASK_TYPES.join(', ')}` },
    };
  }
  if (Array.isArray(input.options) && input.options.length < MIN_OPTIONS) {
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
export function validateTaskInput(raw: unknown, priceCents: number): TaskValidation {
  const result = validateStaged(raw, taskInputSchema);
  const budgetGiven = typeof raw === 'object' && raw !== null && (raw as Record<string, unknown>).maxCents !== undefined;
  if (result.ok && !budgetGiven) result.task.maxCents = Math.max(result.task.maxCents, priceCents);
  if (result.ok && result.task.maxCents < priceCents) {
    return invalid([{ path: 'maxCents', message: `must be at least the task price of ${priceCents} cents` }]);
  }
  return result;
}

/** A golden task: a task without budget or answer count, plus the known answer (one of the options). */
export const goldenTaskInputSchema = z
  .strictObject({
    type: z.enum(TASK_TYPES),
    content: taskInputSchema.shape.content,
    options: optionsSchema,
    goldenAnswer: z.string().trim().min(1).max(MAX_OPTION_LENGTH),
    locale: localeSchema.default('en'),
    projectId: projectIdSchema.nullish().transform((id) => id ?? null),
    answerKind: answerKindSchema.default(DEFAULT_ANSWER_KIND),
  })
  .refine((task) => task.options.includes(task.goldenAnswer), { error: 'goldenAnswer must be one of the options', path: ['goldenAnswer'] })
  .refine(fitsItsKind, ratingLevelsIssue)
  .meta({ id: 'GoldenTaskInput' });

export type GoldenTaskInputValues = z.output<typeof goldenTaskInputSchema>;

export function validateGoldenTaskInput(raw: unknown): Validation<GoldenTaskInputValues> {
  return validateStaged(raw, goldenTaskInputSchema);
}
