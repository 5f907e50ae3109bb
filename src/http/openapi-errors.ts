// Example error bodies for the OpenAPI document, one per error code: the message each code's route
// really sends (copied from where it is thrown), so an integrator sees what to expect. The document
// gives every error status of every operation an example of each code it names; a test checks every
// code named anywhere has one here and that each is a valid Error body.
import { isErrorCode, type ErrorCode } from '@concord/contract';
import { BudgetCapReachedError, InsufficientCreditsError } from '../lib/errors.ts';
import { notFoundMessage } from '../middleware/validate.ts';

export interface ErrorExample {
  error: string;
  code: string;
  details?: Record<string, unknown>;
  taskIndex?: number;
}

const insufficient = new InsufficientCreditsError(6_000, 4_180);
const capped = new BudgetCapReachedError({
  scope: 'project',
  projectId: 'cm3q7w0m10002lk08c5d6e7f8',
  capCents: 50_000,
  committedCents: 49_990,
  requiredCents: 400,
});

const EXAMPLES: Partial<Record<ErrorCode, Omit<ErrorExample, 'code'>>> = {
  VALIDATION_ERROR: {
    error: 'Invalid request: colour: Unknown field',
    details: { issues: [{ path: 'colour', message: 'Unknown field' }] },
  },
  INVALID_JSON: { error: 'The request body is not valid JSON' },
  PAYLOAD_TOO_LARGE: { error: 'The request body is larger than this route accepts (1048576 bytes)' },
  UNSUPPORTED_MEDIA_TYPE: { error: 'Send the body as application/json' },
  UNAUTHORIZED: { error: 'Invalid or expired token' },
  FORBIDDEN: { error: 'This credential may not call this route' },
  RATE_LIMITED: { error: 'Too many requests; retry after the time in the Retry-After header' },
  INTERNAL: { error: 'Internal error' },
  IDEMPOTENCY_KEY_REUSED: { error: 'This Idempotency-Key was already used with a different request' },
  NOT_FOUND: { error: 'No payment provider paypal is configured' },
  INVALID_CREDENTIALS: { error: 'Invalid e-mail or password' },
  INVALID_CURRENT_PASSWORD: { error: 'The current password is wrong' },
  EMAIL_TAKEN: { error: 'An account with this e-mail already exists' },
  INVALID_TOKEN: { error: 'The invite token is unknown, already used or expired' },
  INVITATION_INVALID: { error: 'This invitation link is unknown, already used, revoked or expired' },
  FOUNDER_STAYS_OWNER: { error: "The organisation's founder stays one of its owners: their account is the organisation's own" },
  ALREADY_MEMBER: { error: 'lena@acme-robotics.com is a member of this organisation already' },
  INSUFFICIENT_CREDITS: { error: insufficient.message, details: insufficient.details },
  BUDGET_CAP_REACHED: { error: capped.message, details: capped.details },
  MISSING_FIELDS: { error: 'Missing required fields: options', details: { fields: ['options'] } },
  INVALID_TYPE: {
    error: 'Unknown task type "SENTIMENT"; expected one of SENTIMENT_ANALYSIS, IMAGE_CLASSIFICATION, BINARY_CHOICE, AI_RESPONSE_RATING, RELEVANCE_RATING',
  },
  OPTIONS_REQUIRED: { error: 'A task needs at least 2 options' },
  INVALID_PROJECT: { error: 'projectId is not one of your projects' },
  INVALID_TASK: {
    error: 'Task 3 is invalid: A task needs at least 2 options',
    details: { code: 'OPTIONS_REQUIRED' },
    taskIndex: 2,
  },
  BATCH_TOO_LARGE: { error: 'A batch holds 1 to 1000 tasks; this one has 1200' },
  TASK_NOT_PENDING: { error: 'Only PENDING tasks can be changed; this task is VALIDATING' },
  TASK_HELD: { error: "This task is held by its project's budget cap: set the cap again (raised) to release it, or delete it" },
  TASK_NOT_COMPLETED: { error: "Only a COMPLETED task's result can be rejected; this task is VALIDATING" },
  REVIEW_WINDOW_CLOSED: { error: 'A result can be rejected within 7 days of its decision (2026-03-14T09:31:27.215Z)' },
  ALREADY_REJECTED: { error: 'This task’s result was rejected once already; a result is rejected at most once' },
  TASK_IS_REVIEW: { error: 'This is the review of text task cm3q7w1x9000clk08t3x4t5k6: it is decided with it, and cannot be changed or deleted' },
  INVALID_CURSOR: { error: 'The cursor was not produced by this API' },
  MISSING_FILE: { error: 'Send the CSV as a multipart/form-data part named "file"' },
  INVALID_CSV: { error: 'Missing required column: options' },
  FILE_TOO_LARGE: { error: 'The file is larger than 5242880 bytes (5 MB)' },
  PROJECT_HAS_TASKS: { error: 'The project still has tasks; delete or move them first' },
  LIMIT_EXCEEDED: { error: 'A buyer has at most 20 webhook configurations' },
  INVALID_FORMAT: { error: 'format must be one of json, jsonl, csv, openai, huggingface, alpaca' },
  INVALID_RATIOS: { error: 'The ratios add up to 0.9, not 1.0' },
  ANNOTATOR_SUSPENDED: { error: 'This annotator is suspended; an administrator can reinstate them' },
  INVALID_ANSWER: {
    error: "The answer must be one of the task's options: positive, negative, neutral",
    details: {
      issues: [{ path: 'answer', message: "The answer must be one of the task's options: positive, negative, neutral" }],
      accepted: ['positive', 'negative', 'neutral'],
    },
  },
  ALREADY_ANSWERED: { error: 'This annotator already answered this task' },
  NO_ASSIGNMENT: { error: 'This annotator holds no live assignment of this task; call GET /sdk/tasks/next first' },
  TASK_CLOSED: { error: 'The task is already COMPLETED' },
  PAYOUT_TOO_SMALL: { error: 'A payout is at least 500 cents' },
  INSUFFICIENT_EARNINGS: {
    error: 'Insufficient earnings: 2500 cents requested, 1840 cents available',
    details: { requestedCents: 2_500, availableCents: 1_840 },
  },
  PAYOUT_NOT_PENDING: { error: 'The payout is already PAID' },
  INVALID_SIGNATURE: { error: 'The confirmation signature does not verify' },
  SERVER_BUSY: { error: 'This server process holds as many event streams as it may; retry after the time in the Retry-After header' },
};

/** The codes a description names: upper-case words joined by underscores (`TASK_NOT_FOUND`). */
export function codesIn(description: string): string[] {
  return [...new Set(description.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g) ?? [])];
}

/** The example body of one code, or undefined when none is written (a `…_NOT_FOUND` code always has one). */
export function errorExample(code: string): ErrorExample | undefined {
  const example = isErrorCode(code) ? EXAMPLES[code] : undefined;
  if (example) return { code, ...example };
  if (code.endsWith('NOT_FOUND')) return { error: notFoundMessage(code), code };
  return undefined;
}
