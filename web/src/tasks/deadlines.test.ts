// Deadlines and priority in the dashboard: a deadline typed in local time becomes an ISO instant checked by
// the contract's own rule, a priority is read as the contract reads it, and the at-risk list and the drawer
// say how far a deadline is, what a priority does and what the median is compared with.
import { deadlineProblem, MAX_DEADLINE_LEAD_DAYS } from '@concord/contract';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/errors';
import {
  atRiskSummary,
  DEADLINE_RULE,
  deadlineBounds,
  localDateTimeValue,
  medianWords,
  parseLocalDateTime,
  PRIORITY_RULE,
  priorityWords,
  readDeadline,
  readPriority,
  readScheduleChanges,
  scheduleFormErrors,
  signed,
  spanWords,
  untilWords,
  zoneWords,
} from './deadlines';

const NOW = new Date('2026-03-14T09:00:00.000Z');
const minutes = (n: number) => n * 60_000;
/** The datetime-local value of an instant `ms` after NOW, in the zone the tests run in. */
const typedIn = (ms: number) => localDateTimeValue(new Date(NOW.getTime() + ms));

describe('a deadline typed in local time', () => {
  it('round-trips through the datetime-local value, to the minute', () => {
    const at = new Date(2026, 2, 14, 9, 30);
    expect(localDateTimeValue(at)).toBe('2026-03-14T09:30');
    expect(parseLocalDateTime('2026-03-14T09:30')?.getTime()).toBe(at.getTime());
    expect(parseLocalDateTime('2026-03-14T09:30:15')?.getTime()).toBe(new Date(2026, 2, 14, 9, 30, 15).getTime());
  });

  it('is not a date when the calendar has no such day or the text is not a datetime-local value', () => {
    for (const typed of ['2026-04-31T10:00', '2026-03-14', '14/03/2026 09:30', 'soon', '2026-03-14T9:30']) expect(parseLocalDateTime(typed)).toBeNull();
  });

  it('is sent as ISO 8601 with its zone (UTC, Z), the instant the person chose', () => {
    const typed = typedIn(minutes(25));
    const read = readDeadline(typed, NOW);
    expect(read).toEqual({ value: new Date(NOW.getTime() + minutes(25)).toISOString() });
    expect(read.value).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(deadlineProblem(read.value ?? '', NOW)).toBeNull();
  });

  it('is none when left empty', () => {
    expect(readDeadline('  ', NOW)).toEqual({ value: null });
  });

  it('is refused as the contract refuses it: less than a minute ahead, or more than 366 days', () => {
    expect(readDeadline(typedIn(0), NOW).error).toBe('The deadline must be at least a minute ahead.');
    expect(readDeadline(typedIn(-minutes(60)), NOW).error).toBe('The deadline must be at least a minute ahead.');
    expect(readDeadline(typedIn(minutes(1)), NOW)).toEqual({ value: new Date(NOW.getTime() + minutes(1)).toISOString() });
    expect(readDeadline(typedIn((MAX_DEADLINE_LEAD_DAYS + 1) * 86_400_000), NOW).error).toBe(
      `The deadline must be at most ${MAX_DEADLINE_LEAD_DAYS} days ahead.`,
    );
    expect(readDeadline('next tuesday', NOW)).toEqual({ value: null, error: DEADLINE_RULE });
  });

  it('offers the picker from about two minutes to 366 days ahead', () => {
    expect(deadlineBounds(NOW)).toEqual({ min: typedIn(minutes(2)), max: typedIn(MAX_DEADLINE_LEAD_DAYS * 86_400_000) });
  });

  it('names the zone it is typed in by its offset from UTC', () => {
    const offset = (minutesBehind: number) => ({ getTimezoneOffset: () => minutesBehind });
    expect(zoneWords(offset(0))).toBe('UTC');
    expect(zoneWords(offset(-60))).toBe('UTC+01:00');
    expect(zoneWords(offset(300))).toBe('UTC−05:00');
    expect(zoneWords(offset(-330))).toBe('UTC+05:30');
  });
});

describe('a priority', () => {
  it('reads whole numbers from −10 to 10, signs and a true minus included', () => {
    expect(readPriority('5', { required: true })).toEqual({ value: 5 });
    expect(readPriority(' +10 ', { required: true })).toEqual({ value: 10 });
    expect(readPriority('-10', { required: true })).toEqual({ value: -10 });
    expect(readPriority('−3', { required: true })).toEqual({ value: -3 });
    expect(readPriority('0', { required: false })).toEqual({ value: 0 });
  });

  it('leaves an empty field to the default when it may, and refuses what the contract refuses', () => {
    expect(readPriority('', { required: false })).toEqual({ value: undefined });
    expect(readPriority('', { required: true }).error).toBe(PRIORITY_RULE);
    for (const typed of ['11', '-11', '2.5', 'high', '1e1']) expect(readPriority(typed, { required: false }).error).toBe(PRIORITY_RULE);
    expect(PRIORITY_RULE).toBe('Give a whole number from −10 to +10: higher is served sooner among your own tasks (0 by default).');
  });

  it('says what it does: ten minutes of age per point, among the buyer’s own tasks', () => {
    expect(priorityWords(0)).toBe('0 (the default)');
    expect(priorityWords(5)).toBe('+5: served as if created 50 min earlier, among your own tasks');
    expect(priorityWords(-10)).toBe('−10: served as if created 1 h 40 min later, among your own tasks');
    expect([signed(3), signed(-3), signed(0)]).toEqual(['+3', '−3', '0']);
  });
});

describe('how far a deadline is', () => {
  const at = (ms: number) => new Date(NOW.getTime() + ms).toISOString();

  it('counts down in minutes, hours and days, rounded down', () => {
    expect(untilWords(at(minutes(25) + 50_000), NOW)).toBe('in 25 min');
    expect(untilWords(at(30_000), NOW)).toBe('in less than a minute');
    expect(untilWords(at(minutes(190)), NOW)).toBe('in 3 h 10 min');
    expect(untilWords(at(minutes(120)), NOW)).toBe('in 2 h');
    expect(untilWords(at(minutes(60 * 52)), NOW)).toBe('in 2 days 4 h');
    expect(untilWords(at(minutes(60 * 24 * 12 + 30)), NOW)).toBe('in 12 days');
  });

  it('says when it has passed', () => {
    expect(untilWords(at(0), NOW)).toBe('passed');
    expect(untilWords(at(-20_000), NOW)).toBe('passed');
    expect(untilWords(at(-minutes(3)), NOW)).toBe('passed 3 min ago');
    expect(spanWords(-5)).toBe('0 min');
  });
});

describe('the at-risk list', () => {
  it('says the median, and that it is the default while no task of the project has completed', () => {
    expect(medianWords({ medianCompletionMs: 412_000, medianKnown: true })).toEqual({ time: '6 min 52 s', note: null });
    expect(medianWords({ medianCompletionMs: 300_000, medianKnown: false })).toEqual({ time: '5 min', note: 'The default: no task completed yet' });
  });

  it('says how many are at risk, and honestly when more are than it shows', () => {
    expect(atRiskSummary(1, false)).toBe('1 open task is at risk.');
    expect(atRiskSummary(7, false)).toBe('7 open tasks are at risk.');
    expect(atRiskSummary(1_250, false)).toBe('1,250 open tasks are at risk.');
    expect(atRiskSummary(10, true)).toBe('Showing the 10 nearest deadlines; more tasks are at risk.');
  });
});

describe('the drawer’s deadline and priority', () => {
  const task = { deadline: new Date(NOW.getTime() + minutes(4)).toISOString(), priority: 0 };
  const shown = localDateTimeValue(new Date(task.deadline));

  it('sends only what changed: a deadline left as shown is not sent again, even once it is under a minute away', () => {
    expect(readScheduleChanges(task, { deadline: shown, priority: '0' }, shown, new Date(NOW.getTime() + minutes(3.5)))).toEqual({ changes: {}, errors: {} });
    expect(readScheduleChanges(task, { deadline: shown, priority: '4' }, shown, NOW)).toEqual({ changes: { priority: 4 }, errors: {} });
    const later = typedIn(minutes(60 * 24));
    expect(readScheduleChanges(task, { deadline: later, priority: '0' }, shown, NOW).changes).toEqual({
      deadline: new Date(NOW.getTime() + minutes(60 * 24)).toISOString(),
    });
  });

  it('removes the deadline when the field is emptied, and sends nothing for a task that had none', () => {
    expect(readScheduleChanges(task, { deadline: '', priority: '0' }, shown, NOW).changes).toEqual({ deadline: null });
    expect(readScheduleChanges({ deadline: null, priority: 2 }, { deadline: '', priority: '2' }, '', NOW)).toEqual({ changes: {}, errors: {} });
  });

  it('refuses a deadline or a priority the service would refuse, next to its field', () => {
    const refused = readScheduleChanges(task, { deadline: typedIn(-minutes(5)), priority: '12' }, shown, NOW);
    expect(refused).toEqual({ changes: {}, errors: { deadline: 'The deadline must be at least a minute ahead.', priority: PRIORITY_RULE } });
  });

  it('puts the service’s refusal next to the field, in the form’s words', () => {
    const late = new ApiError(400, {
      error: 'deadline must be at least a minute ahead',
      code: 'VALIDATION_ERROR',
      details: { issues: [{ path: ['deadline'], message: 'must be at least a minute ahead' }] },
    });
    expect(scheduleFormErrors(late)).toEqual({ fields: { deadline: 'The deadline must be at least a minute ahead.' }, general: null });
    const zod = new ApiError(400, {
      error: 'Invalid',
      code: 'VALIDATION_ERROR',
      details: {
        issues: [
          { path: ['priority'], message: 'Too big: expected number to be <=10' },
          { path: ['deadline'], message: 'Invalid ISO datetime' },
        ],
      },
    });
    expect(scheduleFormErrors(zod).fields).toEqual({ priority: PRIORITY_RULE, deadline: DEADLINE_RULE });
    const closed = new ApiError(400, { error: 'Only an open task…', code: 'TASK_NOT_PENDING' });
    expect(scheduleFormErrors(closed)).toEqual({ fields: {}, general: closed });
  });
});
