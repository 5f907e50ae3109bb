// Result review in the dashboard: when the drawer offers to reject a result and why it does not, the
// reason read as the service reads it, what the form and the drawer say before and after, the recent
// events' words, and the project's share of rejected results with the service's own rounding.
import { MAX_REJECTION_REASON_LENGTH, raisedTargetConfidence as raisedTarget, REVIEW_WINDOW_DAYS } from '@concord/contract';
import { describe, expect, it } from 'vitest';
import { ApiError, describeError } from '../api/errors';
import {
  readReason,
  rejectConsequences,
  rejectedEventWords,
  rejectedOutcome,
  rejectedWords,
  rejectFormErrors,
  rejectionWords,
  rejectOffer,
  revisionNote,
  windowEnd,
  windowWords,
  WINDOW_RULE,
} from './review';

const DECIDED = '2026-03-14T09:00:00.000Z';
const HOUR = 3_600_000;
const after = (ms: number) => new Date(Date.parse(DECIDED) + ms);
const completed = { status: 'COMPLETED', revision: 1, reviewOf: undefined, validatedAt: DECIDED } as const;

describe('whether a result can be rejected', () => {
  it('is offered for a completed task within the window, until the window ends', () => {
    expect(REVIEW_WINDOW_DAYS).toBe(7);
    expect(windowEnd(DECIDED)).toBe('2026-03-21T09:00:00.000Z');
    expect(rejectOffer(completed, after(HOUR))).toEqual({ offered: true, until: '2026-03-21T09:00:00.000Z' });
    expect(rejectOffer(completed, after(7 * 24 * HOUR - 60_000))).toEqual({ offered: true, until: '2026-03-21T09:00:00.000Z' });
    expect(windowWords('2026-03-21T09:00:00.000Z', after(HOUR))).toBe('until 21 Mar 2026, 09:00 UTC (6 days 23 h left)');
    expect(windowWords('2026-03-21T09:00:00.000Z', after(7 * 24 * HOUR - 30_000))).toBe('until 21 Mar 2026, 09:00 UTC (less than a minute left)');
  });

  it('says why not once the window has closed, for a result decided again and for a review task', () => {
    expect(rejectOffer(completed, after(7 * 24 * HOUR))).toEqual({
      offered: false,
      why: `${WINDOW_RULE} This one was decided on 14 Mar 2026, 09:00 UTC.`,
    });
    expect(WINDOW_RULE).toBe('Results can be rejected within 7 days of their decision.');
    expect(rejectOffer({ ...completed, revision: 2 }, after(HOUR))).toMatchObject({ offered: false, why: expect.stringContaining('rejected only once') });
    expect(rejectOffer({ ...completed, reviewOf: 'text-1' }, after(HOUR))).toMatchObject({
      offered: false,
      why: expect.stringContaining('reject the text task’s result'),
    });
  });

  it('says nothing for a task with no result to send back', () => {
    for (const status of ['PENDING', 'VALIDATING', 'FAILED'] as const) expect(rejectOffer({ ...completed, status, validatedAt: null }, after(HOUR))).toBeNull();
    expect(rejectOffer({ ...completed, status: 'VALIDATING', revision: 2, validatedAt: null }, after(HOUR))).toBeNull();
  });
});

describe('the reason', () => {
  it('is trimmed, required and at most the contract’s length', () => {
    expect(readReason('  Sarcasm: the review is negative \n')).toEqual({ value: 'Sarcasm: the review is negative' });
    expect(readReason('   ')).toEqual({ value: undefined, error: 'Say what is wrong with this result: a reason is required.' });
    expect(readReason(` ${'x'.repeat(MAX_REJECTION_REASON_LENGTH)} `)).toEqual({ value: 'x'.repeat(MAX_REJECTION_REASON_LENGTH) });
    expect(readReason('x'.repeat(MAX_REJECTION_REASON_LENGTH + 5))).toEqual({
      value: undefined,
      error: 'The reason has 1,005 characters; the most is 1,000. Shorten it by 5.',
    });
  });

  it('takes the service’s refusal of it next to the field, anything else for the form', () => {
    const invalid = new ApiError(400, {
      error: 'Invalid body',
      code: 'VALIDATION_ERROR',
      details: { issues: [{ path: ['reason'], message: 'Too small: expected string to have >=1 characters' }] },
    });
    expect(rejectFormErrors(invalid)).toEqual({ fields: { reason: 'Give a reason of 1 to 1,000 characters.' }, general: null });
    const closed = new ApiError(409, { error: 'A result can be rejected within 7 days', code: 'REVIEW_WINDOW_CLOSED' });
    expect(rejectFormErrors(closed)).toEqual({ fields: {}, general: closed });
  });
});

describe('the service’s refusals in words', () => {
  it('says each 409 by its code', () => {
    expect(describeError(new ApiError(409, { error: 'x', code: 'REVIEW_WINDOW_CLOSED' }))).toBe(
      'Results can be rejected within 7 days of their decision: this one’s window has closed.',
    );
    expect(describeError(new ApiError(409, { error: 'x', code: 'ALREADY_REJECTED' }))).toMatch(/^This task’s result was rejected already/);
    expect(describeError(new ApiError(409, { error: 'x', code: 'TASK_NOT_COMPLETED' }))).toMatch(/^Only a completed task’s result can be rejected/);
  });

  it('says a 402 with its figures', () => {
    const credits = new ApiError(402, { error: 'x', code: 'INSUFFICIENT_CREDITS', details: { requiredCents: 60, availableCents: 25 } });
    expect(describeError(credits)).toBe('This needs $0.60 but only $0.25 is available.');
  });
});

describe('what a rejection does', () => {
  const task = { costCents: 20, targetConfidence: 0.95, answerKind: undefined, validationsNeeded: 3 };

  it('raises the target halfway to 1, as the service does', () => {
    expect(raisedTarget(0.95)).toBe(0.975);
    expect(raisedTarget(0.9)).toBe(0.95);
    expect(raisedTarget(0.999)).toBe(0.9995);
  });

  it('is said before: the refund now, the higher target, the next result charged as usual', () => {
    expect(rejectConsequences(task)).toBe(
      'The $0.20 charged is refunded now, and the task is decided again at a higher target (95.0 % → 97.5 %), with up to 3 more answers. ' +
        'Its next result is charged as usual, whether it confirms this one or not; nothing is charged if it fails.',
    );
    expect(rejectConsequences({ ...task, answerKind: 'text' })).toMatch(
      /^The \$0\.20 charged for the writing and the \$0\.20 for its review are refunded now, and its review task opens again/,
    );
  });

  it('is said after, from the task as it was and as it reopened', () => {
    expect(rejectedOutcome(task, { targetConfidence: 0.975 })).toBe(
      'Result rejected and $0.20 refunded. The task is being decided again at a target of 97.5 %; it is charged when it completes.',
    );
    expect(rejectedOutcome({ costCents: 40, answerKind: 'text' }, { targetConfidence: 0.975 })).toMatch(/^Result rejected and \$0\.80 refunded/);
  });
});

describe('a rejected result beside the current one', () => {
  const rejection = { result: 'positive', confidence: 0.9807, reason: 'Sarcasm', rejectedAt: '2026-03-15T10:30:00.000Z' };

  it('reads the rejected result in the words of its kind, with its confidence and when', () => {
    expect(rejectionWords(rejection, undefined)).toEqual({ result: 'positive (confidence 98.1 %)', when: '15 Mar 2026, 10:30 UTC' });
    expect(rejectionWords({ ...rejection, result: 'B', confidence: null }, 'pairwise').result).toBe('B is better');
    expect(rejectionWords({ ...rejection, result: 'cat|dog' }, 'multi').result).toBe('cat, dog (confidence 98.1 %)');
  });

  it('says the current result is decided again, being decided again, or failed after the rejection', () => {
    expect(revisionNote({ revision: 1, status: 'COMPLETED' })).toBeNull();
    expect(revisionNote({ revision: 2, status: 'COMPLETED' })).toBe('decided again: revision 2');
    expect(revisionNote({ revision: 2, status: 'VALIDATING' })).toBe('being decided again after the rejection');
    expect(revisionNote({ revision: 2, status: 'FAILED' })).toBe('not decided again: it failed after the rejection');
  });

  it('names a task.rejected event by the result sent back and the refund', () => {
    expect(rejectedEventWords({ rejectedResult: 'positive', refundedCents: 20 })).toBe('“positive” rejected, $0.20 refunded');
    expect(rejectedEventWords({ rejectedResult: 'A reply '.repeat(20) })).toMatch(/^“A reply A reply .*…” rejected$/);
    expect(rejectedEventWords({})).toBe('The result rejected');
  });
});

describe('the project’s rejected results', () => {
  it('says how many results were sent back, of how many delivered', () => {
    expect(rejectedWords({ delivered: 0, rejected: 0, rejectedShare: null })).toBe('No result delivered yet.');
    expect(rejectedWords({ delivered: 450, rejected: 0, rejectedShare: 0 })).toBe('None of the 450 results delivered.');
    expect(rejectedWords({ delivered: 450, rejected: 2, rejectedShare: 0.0044 })).toBe('2 of 450 results (0.4 %).');
  });
});
