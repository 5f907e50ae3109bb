// Result review in the dashboard's words (README, "Result review"): whether a task's result may be sent
// back now (POST /tasks/:id/reject: a COMPLETED task, not a review task, once, within REVIEW_WINDOW_DAYS of
// its decision) and, when not, why; the reason as the service reads it (trimmed, 1 to
// MAX_REJECTION_REASON_LENGTH characters); what a rejection does, before and after it; the rejected
// result beside the current one; and the project's share of rejected results. Pure, so every rule and
// sentence is tested without a browser.
import { MAX_REJECTION_REASON_LENGTH, raisedTargetConfidence, REVIEW_WINDOW_DAYS } from '@concord/contract';
import { mapFieldErrors, type FormErrors } from '../api/fieldErrors';
import { formatCents, formatCount, formatDateTime, formatPercent } from '../ui/format';
import { tooLong } from '../ui/limits';
import { spanWords } from './deadlines';
import { excerpt, formatConfidence, formatResult } from './taskFormat';
import type { Task } from './vocabulary';

const DAY_MS = 86_400_000;

/** Said where the button would be once a result's window has closed. */
export const WINDOW_RULE = `Results can be rejected within ${REVIEW_WINDOW_DAYS} days of their decision.`;

export type RejectOffer =
  /** The button is offered, until `until` (ISO). */
  | { offered: true; until: string }
  /** A completed result that cannot be sent back, and why. */
  | { offered: false; why: string };

type Reviewable = Pick<Task, 'status' | 'revision' | 'reviewOf' | 'validatedAt'>;

/** When a result decided at `validatedAt` can no longer be rejected. */
export const windowEnd = (validatedAt: string): string => new Date(Date.parse(validatedAt) + REVIEW_WINDOW_DAYS * DAY_MS).toISOString();

/**
 * Whether the drawer offers "Reject result" for a task at `now`: only for a COMPLETED one (null for any
 * other: there is no result to send back); a review task, a result decided again and one past its window
 * are said why not, as the service would refuse them (TASK_IS_REVIEW, ALREADY_REJECTED, REVIEW_WINDOW_CLOSED).
 */
export function rejectOffer(task: Reviewable, now: Date): RejectOffer | null {
  if (task.status !== 'COMPLETED' || !task.validatedAt) return null;
  if (task.reviewOf) {
    return { offered: false, why: 'A review task’s result is rejected with its text task: reject the text task’s result, and both are decided again.' };
  }
  if (task.revision > 1) {
    return { offered: false, why: 'This result was decided again after its first one was rejected: a task’s result can be rejected only once.' };
  }
  const until = windowEnd(task.validatedAt);
  if (Date.parse(until) <= now.getTime()) {
    return { offered: false, why: `${WINDOW_RULE} This one was decided on ${formatDateTime(task.validatedAt)}.` };
  }
  return { offered: true, until };
}

/** How long the window stays open, beside the button: "until 21 Mar 2026, 10:00 UTC (6 days 23 h left)". */
export function windowWords(until: string, now: Date): string {
  const left = Date.parse(until) - now.getTime();
  return `until ${formatDateTime(until)} (${left < 60_000 ? 'less than a minute' : spanWords(left)} left)`;
}

/** The reason as typed, as the service reads it: trimmed, required, at most MAX_REJECTION_REASON_LENGTH characters. */
export function readReason(typed: string): { value: string | undefined; error?: string } {
  const reason = typed.trim();
  if (reason === '') return { value: undefined, error: 'Say what is wrong with this result: a reason is required.' };
  const problem = tooLong(reason, MAX_REJECTION_REASON_LENGTH, 'The reason');
  return problem ? { value: undefined, error: problem } : { value: reason };
}

/** The API's refusal of the reject form: a VALIDATION_ERROR on the reason next to it, anything else for the form. */
export const rejectFormErrors = (error: unknown): FormErrors<'reason'> =>
  mapFieldErrors(error, { fields: ['reason'], rules: { reason: `Give a reason of 1 to ${formatCount(MAX_REJECTION_REASON_LENGTH)} characters.` } });

type Priced = Pick<Task, 'costCents' | 'targetConfidence' | 'answerKind' | 'validationsNeeded'>;

/** What the form says will happen, in two sentences. */
export function rejectConsequences(task: Priced): string {
  const cost = formatCents(task.costCents);
  const next = 'Its next result is charged as usual, whether it confirms this one or not; nothing is charged if it fails.';
  if (task.answerKind === 'text') {
    return `The ${cost} charged for the writing and the ${cost} for its review are refunded now, and its review task opens again, so more reviewers choose among the same written answers at a higher target. ${next}`;
  }
  return `The ${cost} charged is refunded now, and the task is decided again at a higher target (${formatConfidence(task.targetConfidence)} → ${formatConfidence(
    raisedTargetConfidence(task.targetConfidence),
  )}), with up to ${task.validationsNeeded} more answers. ${next}`;
}

/** Said once the service answered 200 with the reopened task (`rejected`: the task as it was before). */
export function rejectedOutcome(rejected: Pick<Task, 'costCents' | 'answerKind'>, reopened: Pick<Task, 'targetConfidence'>): string {
  const refunded = formatCents(rejected.answerKind === 'text' ? 2 * rejected.costCents : rejected.costCents);
  return `Result rejected and ${refunded} refunded. The task is being decided again at a target of ${formatConfidence(reopened.targetConfidence)}; it is charged when it completes.`;
}

type Rejected = NonNullable<Task['rejection']>;

/**
 * The rejected result as the drawer shows it: "positive (confidence 98.1 %) — Sarcasm: the review is
 * negative, 14 Mar 2026, 09:31 UTC" — the result in the words of the task's kind.
 */
export function rejectionWords(rejection: Rejected, answerKind: string | undefined): { result: string; when: string } {
  const confidence = rejection.confidence === null ? '' : ` (confidence ${formatConfidence(rejection.confidence)})`;
  return { result: `${formatResult(rejection.result, answerKind)}${confidence}`, when: formatDateTime(rejection.rejectedAt) };
}

/** What the drawer adds to the result of a task whose first result was rejected: decided again, or being decided again. */
export function revisionNote(task: Pick<Task, 'revision' | 'status'>): string | null {
  if (task.revision < 2) return null;
  if (task.status === 'COMPLETED') return 'decided again: revision 2';
  if (task.status === 'FAILED') return 'not decided again: it failed after the rejection';
  return 'being decided again after the rejection';
}

/** The tag of a task decided (or being decided) again, in the list, and its words on hover. */
export const REVISION_TAG = 'Decided again';
export const REVISION_TAG_TITLE = 'Its first result was rejected: this is its second decision (revision 2).';

type Quality = { rejected: number; delivered: number; rejectedShare: number | null };

/** The quality card's line: "2 of 450 results (0.4 %)". */
export function rejectedWords(quality: Quality): string {
  if (quality.rejectedShare === null) return 'No result delivered yet.';
  if (quality.rejected === 0) return `None of the ${formatCount(quality.delivered)} results delivered.`;
  return `${formatCount(quality.rejected)} of ${formatCount(quality.delivered)} results (${formatPercent(quality.rejectedShare, 1)}).`;
}

/**
 * A task.rejected event in the recent events: the start of the result sent back, quoted (the event carries
 * no answerKind to word it by, and a written result is long), and the refund: "“positive” rejected, $0.20 refunded".
 */
export function rejectedEventWords(payload: Record<string, unknown>): string {
  const result = typeof payload.rejectedResult === 'string' ? `“${excerpt(payload.rejectedResult, 60)}”` : 'The result';
  const refunded = typeof payload.refundedCents === 'number' ? `, ${formatCents(payload.refundedCents)} refunded` : '';
  return `${result} rejected${refunded}`;
}
