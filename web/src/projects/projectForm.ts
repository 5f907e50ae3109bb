// A project's name, description, default answer kind, default deadline and quality settings as the API
// accepts them (name 1–200 characters, description at most 5 000, empty meaning none; the default kind
// single choice, rating or multi-select, single choice sent as null; the default deadline a whole number
// of hours 1–8 760, empty meaning none; targetConfidence a decimal 0.5–0.999 and maxResponses a whole
// number 2–50, empty meaning the service's default), checked before the create and settings forms send them.
import {
  defaultDeadlineHoursSchema,
  MAX_DEFAULT_DEADLINE_HOURS,
  MAX_RESPONSES_MAX,
  MAX_RESPONSES_MIN,
  maxResponsesSchema,
  PROJECT_DEFAULT_KINDS,
  PROJECT_DESCRIPTION_MAX,
  PROJECT_NAME_MAX,
  TARGET_CONFIDENCE_MAX,
  TARGET_CONFIDENCE_MIN,
  targetConfidenceSchema,
  type ProjectDefaultKind,
} from '@concord/contract';
import { mapFieldErrors, type FieldMessages, type FormErrors } from '../api/fieldErrors';
import { formatCount } from '../ui/format';
import { tooLong } from '../ui/limits';

export const TARGET_CONFIDENCE_RULE = `Give a decimal from ${TARGET_CONFIDENCE_MIN} to ${TARGET_CONFIDENCE_MAX}, or leave it empty for the service default.`;
export const MAX_RESPONSES_RULE = `Give a whole number of answers from ${MAX_RESPONSES_MIN} to ${MAX_RESPONSES_MAX}, or leave it empty for the service default.`;

export const DEFAULT_KIND_RULE = 'Choose single choice, rating or multi-select: pairwise and written answers cannot be a default.';

const hoursFigure = (hours: number) => formatCount(hours).replace(/,/g, ' ');
export const DEFAULT_DEADLINE_RULE = `Give a whole number of hours from 1 to ${hoursFigure(MAX_DEFAULT_DEADLINE_HOURS)} (a year), or leave it empty for no default deadline.`;

export type ProjectField = 'name' | 'description' | 'defaultAnswerKind' | 'defaultDeadlineHours' | 'targetConfidence' | 'maxResponses';

export interface ProjectFields {
  name: string;
  description: string | null;
  /** null: the service's default (CONSENSUS_THRESHOLD). */
  targetConfidence: number | null;
  /** null: the service's default, max(10, 2 × answers needed). */
  maxResponses: number | null;
  /** The kind the project's tasks take when they name none; null: single choice. Left out by a form without the field. */
  defaultAnswerKind?: Exclude<ProjectDefaultKind, 'single'> | null;
  /** The deadline its tasks get when they name none, in hours after their creation; null: none. Left out by a form without the field. */
  defaultDeadlineHours?: number | null;
}

/** The default deadline as typed: empty is none (null), else a whole number of hours the contract's schema accepts. */
export function readDefaultDeadlineHours(typed: string): { value: number | null; error?: string } {
  const text = typed.trim();
  if (text === '') return { value: null };
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  return defaultDeadlineHoursSchema.safeParse(n).success ? { value: n } : { value: null, error: DEFAULT_DEADLINE_RULE };
}

/** "1 hour", "36 hours", "48 hours (2 days)". */
export function hoursWords(hours: number): string {
  const whole = `${hoursFigure(hours)} hour${hours === 1 ? '' : 's'}`;
  if (hours < 24 || hours % 24 !== 0) return whole;
  const days = hours / 24;
  return `${whole} (${hoursFigure(days)} day${days === 1 ? '' : 's'})`;
}

/** What a project's default deadline means for its new tasks, on its page. */
export const defaultDeadlineWords = (hours: number | null): string =>
  hours === null ? 'None: a task has a deadline only when it names one' : `${hoursWords(hours)} after a task is created, for tasks that name no deadline`;

/**
 * The default answer kind as the select holds it: rating or multi-select, anything else (the empty value,
 * "single") single choice, which is sent as null — the API's "no default".
 */
export function readDefaultKind(value: string): Exclude<ProjectDefaultKind, 'single'> | null {
  const kind = PROJECT_DEFAULT_KINDS.find((candidate) => candidate === value.trim());
  return kind === undefined || kind === 'single' ? null : kind;
}

/** The select's value for a project's default kind: the empty value (single choice) for null and "single". */
export const defaultKindValue = (kind: ProjectDefaultKind | null | undefined): string => (kind === 'rating' || kind === 'multi' ? kind : '');

/** A decimal as typed ("0.95", ".9", "1"), or null when it is not one. */
function parseDecimal(text: string): number | null {
  return /^(\d+(\.\d*)?|\.\d+)$/.test(text) ? Number(text) : null;
}

/** The quality settings as typed: empty is the service default (null), anything else must be in range. */
export function readQualitySettings(
  targetText: string,
  maxResponsesText: string,
): { values: Pick<ProjectFields, 'targetConfidence' | 'maxResponses'>; errors: FieldMessages<'targetConfidence' | 'maxResponses'> } {
  const errors: FieldMessages<'targetConfidence' | 'maxResponses'> = {};
  const target = targetText.trim();
  const answers = maxResponsesText.trim();
  let targetConfidence: number | null = null;
  let maxResponses: number | null = null;
  if (target !== '') {
    const n = parseDecimal(target);
    if (n === null || !targetConfidenceSchema.safeParse(n).success) errors.targetConfidence = TARGET_CONFIDENCE_RULE;
    else targetConfidence = n;
  }
  if (answers !== '') {
    const n = /^\d+$/.test(answers) ? Number(answers) : Number.NaN;
    if (!maxResponsesSchema.safeParse(n).success) errors.maxResponses = MAX_RESPONSES_RULE;
    else maxResponses = n;
  }
  return { values: { targetConfidence, maxResponses }, errors };
}

/** The form's values trimmed (an empty description is none, an empty setting the default), and what is wrong with them. */
export function readProjectFields(form: FormData): { values: ProjectFields; errors: FieldMessages<ProjectField> } {
  const name = String(form.get('name') ?? '').trim();
  const description = String(form.get('description') ?? '').trim();
  const quality = readQualitySettings(String(form.get('targetConfidence') ?? ''), String(form.get('maxResponses') ?? ''));
  const errors: FieldMessages<ProjectField> = { ...quality.errors };
  const nameTooLong = tooLong(name, PROJECT_NAME_MAX, 'The name');
  const descriptionTooLong = tooLong(description, PROJECT_DESCRIPTION_MAX, 'The description');
  if (!name) errors.name = 'Give the project a name.';
  else if (nameTooLong) errors.name = nameTooLong;
  if (descriptionTooLong) errors.description = descriptionTooLong;
  const kind = form.get('defaultAnswerKind');
  const hoursTyped = form.get('defaultDeadlineHours');
  const hours = hoursTyped === null ? null : readDefaultDeadlineHours(String(hoursTyped));
  if (hours?.error) errors.defaultDeadlineHours = hours.error;
  return {
    values: {
      name,
      description: description || null,
      ...(kind === null ? {} : { defaultAnswerKind: readDefaultKind(String(kind)) }),
      ...(hours === null ? {} : { defaultDeadlineHours: hours.value }),
      ...quality.values,
    },
    errors,
  };
}

/** The API's refusal of a project form, next to its fields. */
export const projectFormErrors = (error: unknown): FormErrors<ProjectField> =>
  mapFieldErrors(error, {
    fields: ['name', 'description', 'defaultAnswerKind', 'defaultDeadlineHours', 'targetConfidence', 'maxResponses'],
    rules: {
      defaultAnswerKind: DEFAULT_KIND_RULE,
      defaultDeadlineHours: DEFAULT_DEADLINE_RULE,
      targetConfidence: TARGET_CONFIDENCE_RULE,
      maxResponses: MAX_RESPONSES_RULE,
    },
  });
