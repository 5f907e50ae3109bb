// The API's error codes as sentences a person can act on (contract §0's table): the one place the
// dashboard words a code, for forms, import rows, batch items and page notes alike.
import { REVIEW_WINDOW_DAYS, type ErrorBody, type ErrorCode } from '@concord/contract';
import { deniedReason, isMemberRole, isPermission, type MemberRole, type Permission } from '../organisations/permissions';
import { formatCents } from '../ui/format';
import { FIELD_WORDS, issueSentence } from './issueWords';

export type { ErrorBody };

export interface ValidationIssue {
  path: string;
  message: string;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;
  readonly taskIndex: number | undefined;
  /** A 429's Retry-After, in seconds, when the service sent one. */
  readonly retryAfterSeconds: number | undefined;

  constructor(status: number, body: ErrorBody, retryAfterSeconds?: number) {
    super(body.error);
    this.status = status;
    this.code = body.code;
    this.details = body.details;
    this.taskIndex = body.taskIndex;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** The issues of a VALIDATION_ERROR, each with its field path joined by dots ("tasks.0.type"). */
  issues(): ValidationIssue[] {
    const issues = this.details?.issues;
    if (!Array.isArray(issues)) return [];
    return (issues as { path?: unknown; message?: unknown }[]).map((issue) => ({
      path: Array.isArray(issue.path) ? issue.path.map(String).join('.') : String(issue.path ?? ''),
      message: typeof issue.message === 'string' ? issue.message : 'Invalid value',
    }));
  }

  /** Messages of a VALIDATION_ERROR keyed by the first segment of each field path (the first one per field). */
  fieldErrors(): Record<string, string> {
    const fields: Record<string, string> = {};
    for (const issue of this.issues()) {
      const key = issue.path.split('.')[0] ?? '';
      if (!(key in fields)) fields[key] = issue.message;
    }
    return fields;
  }
}

/** A Retry-After header (seconds, or an HTTP date) as seconds from now; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null | undefined, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  return Number.isFinite(at) ? Math.max(0, Math.ceil((at - now) / 1000)) : undefined;
}

/** "2 minutes 5 seconds", "40 seconds", "1 hour 3 minutes". */
export function waitWords(seconds: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (seconds < 60) return plural(Math.max(1, seconds), 'second');
  const minutes = Math.ceil(seconds / 60);
  if (seconds < 600) {
    const whole = Math.floor(seconds / 60);
    const rest = seconds % 60;
    return rest ? `${plural(whole, 'minute')} ${plural(rest, 'second')}` : plural(whole, 'minute');
  }
  if (minutes < 60) return plural(minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  return minutes % 60 ? `${plural(hours, 'hour')} ${plural(minutes % 60, 'minute')}` : plural(hours, 'hour');
}

export const NETWORK_ERROR: ErrorBody = { error: 'The service could not be reached. Check your connection and try again.', code: 'NETWORK' };

// The codes a dashboard page can meet (the developer SDK's, such as ALREADY_ANSWERED, never reach it).
const SENTENCES: Partial<Record<ErrorCode | 'NETWORK', string>> = {
  NETWORK: NETWORK_ERROR.error,
  VALIDATION_ERROR: 'Some values are not valid.',
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
  EMAIL_TAKEN: 'An account with that e-mail already exists (a buyer, a developer or the administrator).',
  RATE_LIMITED: 'Too many attempts. Wait a few minutes and try again.',
  NOT_FOUND: 'That page of the API does not exist.',
  TASK_NOT_FOUND: 'That task does not exist (or belongs to another account).',
  PROJECT_NOT_FOUND: 'That project does not exist (or belongs to another account).',
  WEBHOOK_NOT_FOUND: 'That webhook does not exist.',
  API_KEY_NOT_FOUND: 'That API key does not exist or is already revoked. Reload the list.',
  DELIVERY_NOT_FOUND: 'That delivery does not exist.',
  GOLDEN_TASK_NOT_FOUND: 'That golden task does not exist.',
  ANNOTATOR_NOT_FOUND: 'That annotator does not exist (any more) for that app.',
  DEPOSIT_NOT_FOUND: 'That deposit does not exist.',
  DEVELOPER_NOT_FOUND: 'That developer does not exist (any more). Reload the list.',
  BUYER_NOT_FOUND: 'That buyer does not exist (any more). Reload the list.',
  PAYOUT_NOT_FOUND: 'That payout does not exist.',
  EVENT_NOT_FOUND: 'That event does not exist or is older than 30 days.',
  PAYOUT_NOT_PENDING: 'That payout has already been approved or rejected (perhaps by another administrator).',
  INVALID_PROJECT: 'That project is not one of yours (it may have been deleted). Choose another.',
  TASK_NOT_PENDING: 'Only a task nobody has answered yet (PENDING) can be changed or deleted.',
  TASK_IS_REVIEW: 'This is the review of a text task: it is decided with that task and cannot be changed or deleted.',
  MISSING_FIELDS: 'Type, content and options are required.',
  INVALID_TYPE: 'Choose one of the five task types.',
  OPTIONS_REQUIRED: 'Give at least two distinct options.',
  INSUFFICIENT_CREDITS: 'The available balance is too low for this.',
  BUDGET_CAP_REACHED: 'A spending cap refuses this: raise the cap on the Billing page, or lower what you create.',
  TASK_NOT_COMPLETED:
    'Only a completed task’s result can be rejected: this one is open or failed now (or its decision is still being settled: try again in a moment).',
  REVIEW_WINDOW_CLOSED: `Results can be rejected within ${REVIEW_WINDOW_DAYS} days of their decision: this one’s window has closed.`,
  ALREADY_REJECTED: 'This task’s result was rejected already (perhaps by someone else in your organisation): a result can be rejected only once.',
  TASK_HELD: "This task is held by its project's budget cap: raise the cap on the Billing page to release it, or delete it.",
  INVALID_TASK: 'One task of the batch is not valid.',
  BATCH_TOO_LARGE: 'A batch holds 1 to 1 000 tasks.',
  INVALID_CURSOR: 'That page link is no longer valid. Start from the first page.',
  INVALID_FORMAT: 'Choose an export format.',
  INVALID_RATIOS: 'Give a train ratio alone, or train, validation and test ratios that add up to 1.',
  IDEMPOTENCY_KEY_REUSED: 'This request was already sent with different content.',
  PROJECT_HAS_TASKS: 'A project that still has tasks cannot be deleted.',
  INVALID_TOKEN: 'That invite link is unknown, used or expired.',
  INVITATION_INVALID:
    'This invitation link no longer works: it was used already, revoked, replaced by a newer invitation, or is more than 7 days old. Ask whoever invited you to send a new one.',
  FOUNDER_STAYS_OWNER: 'The founder of an organisation stays one of its owners: their role cannot be changed and they cannot be removed.',
  ALREADY_MEMBER: 'That address is already a member of this organisation. Change their role in the members list instead.',
  MEMBER_NOT_FOUND: 'That person is no longer a member of this organisation (perhaps removed by someone else). Reload the list.',
  INVITATION_NOT_FOUND: 'That invitation is no longer pending: it was accepted, revoked or replaced, or it expired. Reload the list.',
  // 20 webhook configurations per buyer; the API keys page words the other cap (20 live keys) itself.
  LIMIT_EXCEEDED: 'You already have 20 webhooks, the most an account can have. Delete one you no longer use, then add this one.',
  INSUFFICIENT_EARNINGS: 'The annotator has not earned that much.',
  PAYOUT_TOO_SMALL: 'Payouts start at $5.00.',
  INTERNAL: 'Something went wrong on our side. Try again in a moment.',
};

/** The sentence for a code alone (an import row's or a batch item's), or the code itself when unknown. */
export const describeCode = (code: string): string => SENTENCES[code as ErrorCode] ?? code;

/**
 * A FORBIDDEN that says why: the caller's role lacks a permission (details {permission, role}), or the
 * request acts for an organisation the caller no longer belongs to (details {organisationId}).
 */
function forbiddenSentence(details: Record<string, unknown> | undefined): string | undefined {
  if (!details) return undefined;
  if (isPermission(details.permission) && isMemberRole(details.role)) {
    const ask = details.permission === 'organisation:own' ? 'Ask an owner.' : 'Ask an owner or an admin to change your role if you need it.';
    return `${deniedReason(details.role, details.permission)} ${ask}`;
  }
  if (typeof details.organisationId === 'string')
    return 'You are not a member of this organisation (any more): an owner or an admin may have removed you. Switch to another organisation, or log in again.';
  return undefined;
}

/**
 * The permission and role of a 403 that refused the caller's role (details {permission, role}): the role
 * changed since the page was offered. Undefined for any other error.
 */
export function permissionRefusal(error: unknown): { permission: Permission; role: MemberRole } | undefined {
  if (!(error instanceof ApiError) || error.status !== 403 || error.code !== 'FORBIDDEN') return undefined;
  const { permission, role } = error.details ?? {};
  return isPermission(permission) && isMemberRole(role) ? { permission, role } : undefined;
}

/** The sentence for an error: its code's sentence (with the figures it carries), else the API's message. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === 'INSUFFICIENT_CREDITS' && error.details) {
      const required = Number(error.details.requiredCents);
      const available = Number(error.details.availableCents);
      if (Number.isFinite(required) && Number.isFinite(available)) {
        return `This needs ${formatCents(required)} but only ${formatCents(available)} is available.`;
      }
      if (Number.isFinite(available)) return `${SENTENCES.INSUFFICIENT_CREDITS} Available: ${formatCents(available)}.`;
    }
    if (error.code === 'BUDGET_CAP_REACHED' && error.details) {
      const { scope, capCents, committedCents, requiredCents } = error.details;
      if ([capCents, committedCents, requiredCents].every((n) => typeof n === 'number')) {
        const which = scope === 'organisation' ? 'The monthly spending cap' : "This project's budget cap";
        return `${which} of ${formatCents(Number(capCents))} refuses this: ${formatCents(Number(committedCents))} is committed and this needs ${formatCents(Number(requiredCents))} more. Raise the cap on the Billing page.`;
      }
    }
    if (error.code === 'VALIDATION_ERROR') {
      // Shown where no field of the form could take the messages: say which values, in plain words.
      const issues = error.issues();
      if (issues.length > 0) return `${SENTENCES.VALIDATION_ERROR} ${issues.map((i) => issueSentence(i.path, i.message, FIELD_WORDS)).join(' ')}`;
      return error.message;
    }
    if (error.code === 'FORBIDDEN') {
      const forbidden = forbiddenSentence(error.details);
      if (forbidden) return forbidden;
    }
    if (error.code === 'RATE_LIMITED' && error.retryAfterSeconds !== undefined) {
      return `Too many attempts from this address. Try again in ${waitWords(error.retryAfterSeconds)}.`;
    }
    return SENTENCES[error.code as ErrorCode] ?? error.message;
  }
  return error instanceof Error ? error.message : 'Something went wrong.';
}
