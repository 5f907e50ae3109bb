// The API's errors (spec and contract §0): the body every error answer has, and every code it may carry
// with the HTTP status that goes with it. The service can only throw a code listed here (its error classes
// take an ErrorCode), the dashboard words every one (its sentences are a Record over them), and the SDK
// names them in its types.
import { z } from 'zod';

/** Every code of an error answer, with its HTTP status. */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  INVALID_JSON: 400,
  /** Answered by the HTTP server itself, before routing: a request that is not HTTP, or past its timeout, or with headers over 16 KB. */
  BAD_REQUEST: 400,
  REQUEST_TIMEOUT: 408,
  HEADERS_TOO_LARGE: 431,
  MISSING_FIELDS: 400,
  INVALID_TYPE: 400,
  OPTIONS_REQUIRED: 400,
  INVALID_TASK: 400,
  BATCH_TOO_LARGE: 400,
  MISSING_FILE: 400,
  INVALID_CSV: 400,
  INVALID_PROJECT: 400,
  INVALID_CURSOR: 400,
  INVALID_FORMAT: 400,
  INVALID_RATIOS: 400,
  INVALID_ANSWER: 400,
  INVALID_SIGNATURE: 400,
  INVALID_TOKEN: 400,
  /** An organisation invitation's token that is unknown, used, revoked or expired. */
  INVITATION_INVALID: 400,
  LIMIT_EXCEEDED: 400,
  PAYOUT_TOO_SMALL: 400,
  INSUFFICIENT_EARNINGS: 400,
  INVALID_CURRENT_PASSWORD: 400,
  TASK_NOT_PENDING: 400,
  UNAUTHORIZED: 401,
  INVALID_CREDENTIALS: 401,
  INSUFFICIENT_CREDITS: 402,
  /** A project's budget cap or the organisation's monthly cap would be passed. */
  BUDGET_CAP_REACHED: 402,
  FORBIDDEN: 403,
  ANNOTATOR_SUSPENDED: 403,
  NOT_FOUND: 404,
  TASK_NOT_FOUND: 404,
  PROJECT_NOT_FOUND: 404,
  WEBHOOK_NOT_FOUND: 404,
  DELIVERY_NOT_FOUND: 404,
  API_KEY_NOT_FOUND: 404,
  GOLDEN_TASK_NOT_FOUND: 404,
  ANNOTATOR_NOT_FOUND: 404,
  DEPOSIT_NOT_FOUND: 404,
  DEVELOPER_NOT_FOUND: 404,
  BUYER_NOT_FOUND: 404,
  PAYOUT_NOT_FOUND: 404,
  EVENT_NOT_FOUND: 404,
  MEMBER_NOT_FOUND: 404,
  INVITATION_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  EMAIL_TAKEN: 409,
  TASK_CLOSED: 409,
  ALREADY_ANSWERED: 409,
  NO_ASSIGNMENT: 409,
  PROJECT_HAS_TASKS: 409,
  TASK_IS_REVIEW: 409,
  /** A task held by its project's budget cap: raise the cap to release it, or delete it. */
  TASK_HELD: 409,
  /** Result review: only a COMPLETED task's result can be rejected. */
  TASK_NOT_COMPLETED: 409,
  /** Result review: a result can be rejected within REVIEW_WINDOW_DAYS of its decision. */
  REVIEW_WINDOW_CLOSED: 409,
  /** Result review: a task's result is rejected at most once. */
  ALREADY_REJECTED: 409,
  /** The founder of an organisation (whose account it was created with) stays one of its owners. */
  FOUNDER_STAYS_OWNER: 409,
  ALREADY_MEMBER: 409,
  PAYOUT_NOT_PENDING: 409,
  IDEMPOTENCY_KEY_REUSED: 409,
  PAYLOAD_TOO_LARGE: 413,
  FILE_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  NOT_READY: 503,
  SERVER_BUSY: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const isErrorCode = (code: unknown): code is ErrorCode => typeof code === 'string' && Object.hasOwn(ERROR_STATUS, code);

/** The body of every error answer. */
export const errorSchema = z
  .object({
    error: z.string().meta({ description: 'Human-readable message' }),
    code: z.string().meta({ description: 'Stable machine-readable code' }),
    details: z.record(z.string(), z.unknown()).optional(),
    taskIndex: z.number().int().optional().meta({ description: 'Zero-based index of the invalid item (INVALID_TASK only)' }),
  })
  .meta({ id: 'Error' });

export type ErrorBody = z.output<typeof errorSchema>;
