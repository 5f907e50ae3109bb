// The API's error codes as sentences a person can act on (contract §0's table), and the per-field
// messages of a VALIDATION_ERROR, so a form can show each next to the field it names.

export interface ErrorBody {
  error: string;
  code: string;
  details?: Record<string, unknown>;
  taskIndex?: number;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;
  readonly taskIndex: number | undefined;

  constructor(status: number, body: ErrorBody) {
    super(body.error);
    this.status = status;
    this.code = body.code;
    this.details = body.details;
    this.taskIndex = body.taskIndex;
  }

  /** Messages of a VALIDATION_ERROR keyed by the first segment of each field path. */
  fieldErrors(): Record<string, string> {
    const issues = this.details?.issues;
    const fields: Record<string, string> = {};
    if (!Array.isArray(issues)) return fields;
    for (const issue of issues as { path?: unknown; message?: unknown }[]) {
      const path = Array.isArray(issue.path) ? issue.path.map(String).join('.') : String(issue.path ?? '');
      const key = path.split('.')[0] ?? '';
      if (!(key in fields)) fields[key] = typeof issue.message === 'string' ? issue.message : 'Invalid value';
    }
    return fields;
  }
}

const SENTENCES: Record<string, string> = {
  NETWORK: 'The service could not be reached. Check your connection and try again.',
  VALIDATION_ERROR: 'Some fields are not valid: see the messages next to them.',
  INVALID_JSON: 'The request was not valid JSON.',
  PAYLOAD_TOO_LARGE: 'That is too much data for one request (1 MB, or 10 MB for a task batch).',
  UNSUPPORTED_MEDIA_TYPE: 'The service does not accept that kind of content.',
  FILE_TOO_LARGE: 'The file is larger than 5 MB. Split it into smaller files.',
  MISSING_FILE: 'Choose a file to upload.',
  INVALID_CSV: 'The file is not a CSV the service can read.',
  UNAUTHORIZED: 'Your session has ended. Sign in again.',
  FORBIDDEN: 'This account is not allowed to do that.',
  INVALID_CREDENTIALS: 'That e-mail and password do not match an account.',
  INVALID_CURRENT_PASSWORD: 'The current password is not right.',
  EMAIL_TAKEN: 'An account with that e-mail already exists.',
  RATE_LIMITED: 'Too many attempts. Wait a few minutes and try again.',
  NOT_FOUND: 'That page of the API does not exist.',
  TASK_NOT_FOUND: 'That task does not exist (or belongs to another account).',
  PROJECT_NOT_FOUND: 'That project does not exist (or belongs to another account).',
  WEBHOOK_NOT_FOUND: 'That webhook does not exist.',
  DELIVERY_NOT_FOUND: 'That delivery does not exist.',
  GOLDEN_TASK_NOT_FOUND: 'That golden task does not exist.',
  ANNOTATOR_NOT_FOUND: 'That annotator does not exist.',
  DEPOSIT_NOT_FOUND: 'That deposit does not exist.',
  DEVELOPER_NOT_FOUND: 'That developer does not exist.',
  BUYER_NOT_FOUND: 'That buyer does not exist.',
  PAYOUT_NOT_FOUND: 'That payout does not exist.',
  EVENT_NOT_FOUND: 'That event does not exist or is older than 30 days.',
  PAYOUT_NOT_PENDING: 'That payout has already been decided.',
  INVALID_PROJECT: 'Choose one of your own projects.',
  TASK_NOT_PENDING: 'Only a task nobody has answered yet (PENDING) can be changed or deleted.',
  MISSING_FIELDS: 'Type, content and options are required.',
  INVALID_TYPE: 'Choose one of the task types.',
  OPTIONS_REQUIRED: 'Give at least two distinct options.',
  INSUFFICIENT_CREDITS: 'The available balance is too low for this.',
  INVALID_TASK: 'One task of the batch is not valid.',
  BATCH_TOO_LARGE: 'A batch holds 1 to 1 000 tasks.',
  INVALID_CURSOR: 'That page link is no longer valid. Start from the first page.',
  INVALID_FORMAT: 'Choose an export format.',
  INVALID_RATIOS: 'Give a train ratio alone, or train, validation and test ratios that add up to 1.',
  IDEMPOTENCY_KEY_REUSED: 'This request was already sent with different content.',
  PROJECT_HAS_TASKS: 'A project that still has tasks cannot be deleted.',
  INVALID_TOKEN: 'That invite link is unknown, used or expired.',
  LIMIT_EXCEEDED: 'You have reached the limit for this account.',
  INSUFFICIENT_EARNINGS: 'The annotator has not earned that much.',
  PAYOUT_TOO_SMALL: 'Payouts start at $5.00.',
  INTERNAL: 'Something went wrong on our side. Try again in a moment.',
};

/** The sentence for an error: the code's own sentence, else the API's message. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === 'INSUFFICIENT_CREDITS' && error.details) {
      const required = Number(error.details.requiredCents);
      const available = Number(error.details.availableCents);
      if (Number.isFinite(required) && Number.isFinite(available)) {
        return `This needs $${(required / 100).toFixed(2)} but only $${(available / 100).toFixed(2)} is available.`;
      }
    }
    return SENTENCES[error.code] ?? error.message;
  }
  return error instanceof Error ? error.message : 'Something went wrong.';
}
