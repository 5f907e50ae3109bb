// Deadlines and priority in the dashboard's words (docs/organisations.md, "Deadlines and priority"): a
// deadline typed in the person's own time (a datetime-local field) sent as ISO 8601 with its zone, checked
// by the contract's own rule (deadlineProblem: a minute to 366 days ahead) before it is sent; a priority
// typed as a whole number from MIN_PRIORITY to MAX_PRIORITY (prioritySchema); how far a deadline is
// ("in 25 min", "passed"), what a priority does, and what the at-risk list says of its median and of how
// much of it is loaded. Pure, so every rule and sentence is tested without a browser.
import {
  DEFAULT_PRIORITY,
  deadlineProblem,
  MAX_DEADLINE_LEAD_DAYS,
  MAX_PRIORITY,
  MIN_DEADLINE_LEAD_MS,
  MIN_PRIORITY,
  PRIORITY_MINUTES_PER_POINT,
  prioritySchema,
} from '@concord/contract';
import { mapFieldErrors, type FieldMessages, type FormErrors } from '../api/fieldErrors';
import { sentence } from '../api/issueWords';
import { formatCount } from '../ui/format';
import { formatDuration } from './taskFormat';

/** A number as a person reads it, with a true minus sign: "−10", "+5", "0". */
export const signed = (n: number): string => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0');

export const DEADLINE_RULE = `Give a date and a time from a minute to ${MAX_DEADLINE_LEAD_DAYS} days ahead, or leave the field empty for no deadline.`;
export const PRIORITY_RULE = `Give a whole number from ${signed(MIN_PRIORITY)} to ${signed(MAX_PRIORITY)}: higher is served sooner among your own tasks (${DEFAULT_PRIORITY} by default).`;

const pad = (n: number) => String(n).padStart(2, '0');

/** A time as a datetime-local field holds it, in the browser's own zone, to the minute: "2026-03-14T09:30". */
export function localDateTimeValue(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A datetime-local field's value ("2026-03-14T09:30", seconds optional) as the instant it names in the browser's zone, or null. */
export function parseLocalDateTime(typed: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?$/.exec(typed.trim());
  if (!match) return null;
  const [year, month, day, hours, minutes, seconds] = match.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  const date = new Date(year, month - 1, day, hours, minutes, seconds);
  // Not a day of the calendar (31 April) when the date rolled over.
  if (date.getFullYear() !== year || date.getMonth() !== month - 1 || date.getDate() !== day) return null;
  return date;
}

/** The browser's zone at a time, as the deadline field's hint says it: "UTC", "UTC+01:00", "UTC−05:00". */
export function zoneWords(at: Pick<Date, 'getTimezoneOffset'>): string {
  const offset = -at.getTimezoneOffset();
  return offset === 0 ? 'UTC' : `UTC${offset > 0 ? '+' : '−'}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
}

/** The contract's words for a deadline it refuses ("must be at least a minute ahead") as a sentence about the field. */
export const deadlineSentence = (problem: string): string => sentence(`The deadline ${problem}`);

/**
 * A deadline as typed in a datetime-local field: null when empty (no deadline), else the instant as ISO
 * 8601 in UTC (with its zone, Z), or why the service would refuse it — the contract's deadlineProblem at
 * `now`, so the form refuses exactly what the service refuses.
 */
export function readDeadline(typed: string, now: Date): { value: string | null; error?: string } {
  if (typed.trim() === '') return { value: null };
  const at = parseLocalDateTime(typed);
  if (!at) return { value: null, error: DEADLINE_RULE };
  const iso = at.toISOString();
  const problem = deadlineProblem(iso, now);
  return problem ? { value: null, error: deadlineSentence(problem) } : { value: iso };
}

/** The earliest and latest a deadline field offers its picker (the service is the judge: see readDeadline). */
export function deadlineBounds(now: Date): { min: string; max: string } {
  return {
    min: localDateTimeValue(new Date(now.getTime() + MIN_DEADLINE_LEAD_MS + 60_000)),
    max: localDateTimeValue(new Date(now.getTime() + MAX_DEADLINE_LEAD_DAYS * 86_400_000)),
  };
}

/**
 * A priority as typed ("5", "+5", "-3", "−3"): undefined when empty and not required (the service's
 * default, 0), else a whole number the contract's prioritySchema accepts, or its rule.
 */
export function readPriority(typed: string, { required }: { required: boolean }): { value: number | undefined; error?: string } {
  const text = typed.trim().replace(/^[−–]/, '-');
  if (text === '') return required ? { value: undefined, error: PRIORITY_RULE } : { value: undefined };
  const n = /^[+-]?\d+$/.test(text) ? Number(text) : Number.NaN;
  return prioritySchema.safeParse(n).success ? { value: n } : { value: undefined, error: PRIORITY_RULE };
}

/** A span of time, rounded down to what matters for a deadline: "25 min", "3 h 10 min", "2 days 4 h", "12 days". */
export function spanWords(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 && days < 7 ? `${days} days ${hours % 24} h` : `${days} days`;
}

/** How far a deadline is from `now`: "in 25 min", "in less than a minute", "passed", "passed 3 min ago". */
export function untilWords(deadline: string, now: Date): string {
  const ms = Date.parse(deadline) - now.getTime();
  if (ms <= 0) return ms > -60_000 ? 'passed' : `passed ${spanWords(-ms)} ago`;
  if (ms < 60_000) return 'in less than a minute';
  return `in ${spanWords(ms)}`;
}

/** What a priority does, in the drawer: "+5: served as if created 50 min earlier, among your own tasks". */
export function priorityWords(priority: number): string {
  if (priority === DEFAULT_PRIORITY) return `${signed(priority)} (the default)`;
  const shift = spanWords(Math.abs(priority) * PRIORITY_MINUTES_PER_POINT * 60_000);
  return `${signed(priority)}: served as if created ${shift} ${priority > 0 ? 'earlier' : 'later'}, among your own tasks`;
}

/**
 * The at-risk list's median: its time, and, while no task of the project (of those without a project, for
 * a task without one) has completed, that it is the service's default.
 */
export function medianWords(task: { medianCompletionMs: number; medianKnown: boolean }): { time: string; note: string | null } {
  return { time: formatDuration(task.medianCompletionMs), note: task.medianKnown ? null : 'The default: no task completed yet' };
}

/** What the at-risk list says under its rows: how many, and whether more are at risk than it shows. */
export function atRiskSummary(shown: number, hasMore: boolean): string {
  if (!hasMore) return `${formatCount(shown)} open task${shown === 1 ? ' is' : 's are'} at risk.`;
  return `Showing the ${formatCount(shown)} nearest deadlines; more tasks are at risk.`;
}

export type ScheduleField = 'deadline' | 'priority';

/** The service's word on a deadline: its own ("must be at least a minute ahead") as a sentence, zod's as the rule. */
const deadlineRule = (message: string): string => (/^must be (at least|at most)/.test(message.trim()) ? deadlineSentence(message.trim()) : DEADLINE_RULE);

/** The fields' rules for taskFormErrors and the drawer's schedule form. */
export const SCHEDULE_RULES = { deadline: deadlineRule, priority: PRIORITY_RULE } as const;

/** The API's refusal of the drawer's deadline and priority, next to the field it names. */
export const scheduleFormErrors = (error: unknown): FormErrors<ScheduleField> =>
  mapFieldErrors(error, { fields: ['deadline', 'priority'], rules: SCHEDULE_RULES });

export interface ScheduleChanges {
  deadline?: string | null;
  priority?: number;
}

/**
 * The drawer's deadline and priority as typed, against the task's: only what changed (a deadline left as
 * it was shown is not sent again, so a deadline now less than a minute ahead is not refused for being
 * kept; an emptied one is removed), and what is wrong with it.
 */
export function readScheduleChanges(
  task: { deadline: string | null; priority: number },
  typed: { deadline: string; priority: string },
  shownDeadline: string,
  now: Date,
): { changes: ScheduleChanges; errors: FieldMessages<ScheduleField> } {
  const changes: ScheduleChanges = {};
  const errors: FieldMessages<ScheduleField> = {};
  if (typed.deadline.trim() !== shownDeadline) {
    const deadline = readDeadline(typed.deadline, now);
    if (deadline.error) errors.deadline = deadline.error;
    else if (deadline.value !== null || task.deadline !== null) changes.deadline = deadline.value;
  }
  const priority = readPriority(typed.priority, { required: true });
  if (priority.error) errors.priority = priority.error;
  else if (priority.value !== undefined && priority.value !== task.priority) changes.priority = priority.value;
  return { changes, errors };
}
