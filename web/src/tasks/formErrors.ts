// The API's answer to a task form (POST /tasks, PATCH /tasks/:id), split into sentences next to the fields
// they name and what is left for the form as a whole. Codes come in the spec's order: MISSING_FIELDS,
// INVALID_TYPE, OPTIONS_REQUIRED, then VALIDATION_ERROR per field, then INVALID_PROJECT, then 402.
import { ApiError, describeError } from '../api/errors';

export type TaskField = 'type' | 'content' | 'options' | 'locale' | 'maxCents' | 'validationsNeeded' | 'projectId';

const FIELD_RULES: Record<TaskField, string> = {
  type: 'Choose one of the five task types.',
  content: 'Give the content to label: 1 to 100 000 characters.',
  options: 'Give 2 to 50 distinct options, one per line, each at most 500 characters.',
  locale: 'Choose one of the six locales.',
  maxCents: 'Give a budget between $0.20 and $1,000.00, at least the task price.',
  validationsNeeded: 'Give a whole number of answers from 1 to 25.',
  projectId: 'Choose one of your projects, or none.',
};

const MISSING: Partial<Record<TaskField, string>> = {
  type: 'Choose a task type.',
  content: 'Give the content to label.',
  options: 'Give at least two options, one per line.',
};

/** zod's generic messages say less than our rule for the field; the service's own messages say more. */
const GENERIC = /^(too (small|big)|invalid|expected|unrecognized|required)/i;

export interface TaskFormErrors {
  fields: Partial<Record<TaskField, string>>;
  /** An error that belongs to no single field (shown above the submit button), or null. */
  general: unknown;
}

export function taskFormErrors(error: unknown): TaskFormErrors {
  if (!(error instanceof ApiError)) return { fields: {}, general: error ?? null };
  const fields: Partial<Record<TaskField, string>> = {};
  switch (error.code) {
    case 'MISSING_FIELDS': {
      const named = Array.isArray(error.details?.fields) ? (error.details.fields as string[]) : ['type', 'content', 'options'];
      for (const field of named) if (field in MISSING) fields[field as TaskField] = MISSING[field as TaskField];
      return { fields, general: Object.keys(fields).length ? null : error };
    }
    case 'INVALID_TYPE':
      return { fields: { type: FIELD_RULES.type }, general: null };
    case 'OPTIONS_REQUIRED':
      return { fields: { options: 'Give at least two distinct options, one per line.' }, general: null };
    case 'INVALID_PROJECT':
      return { fields: { projectId: 'That project is not one of yours (it may have been deleted). Choose another.' }, general: null };
    case 'INSUFFICIENT_CREDITS':
      return { fields: { maxCents: describeError(error) }, general: null };
    case 'VALIDATION_ERROR': {
      const byField = error.fieldErrors();
      let other = false;
      for (const [key, message] of Object.entries(byField)) {
        if (key in FIELD_RULES) {
          const field = key as TaskField;
          fields[field] = GENERIC.test(message) ? FIELD_RULES[field] : `${capitalise(message)}.`.replace(/\.\.$/, '.');
        } else {
          other = true;
        }
      }
      return { fields, general: other || Object.keys(fields).length === 0 ? new ApiError(error.status, { error: error.message, code: 'VALIDATION_DETAIL' }) : null };
    }
    default:
      return { fields: {}, general: error };
  }
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
