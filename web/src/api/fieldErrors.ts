// The API's refusal of a form, split into a message next to each field it names and what is left for the
// form as a whole. Every form maps its errors through here, so a code reads the same on every page; and
// zod's wording ("Too small: expected string to have >=1 characters") is said in plain words here, the one
// place that knows it, for forms, import rows and batch items alike.
import { ApiError, describeCode, describeError } from './errors';
import { issueSentence, issuesOfMessage, plainSentence, sentence } from './issueWords';

export type FieldMessages<F extends string> = Partial<Record<F, string>>;

/** The form's own sentence for a field, or a function that words the API's message for it. */
export type FieldRule = string | ((apiMessage: string, error: ApiError) => string);

export interface FieldErrorOptions<F extends string> {
  /** The form's fields, named as the API names them. */
  fields: readonly F[];
  /**
   * Per field: the sentence shown when the API's message is zod's generic wording ("Too small: expected
   * number to be >=20"), or a function that words any message of that field.
   */
  rules?: Partial<Record<F, FieldRule>>;
  /** What a field named by MISSING_FIELDS says (default: "This field is required."). */
  missing?: FieldMessages<F>;
  /** Codes that name a field of this form besides the shared ones, with the field (INSUFFICIENT_CREDITS → maxCents). */
  codeFields?: Record<string, F>;
}

export interface FormErrors<F extends string> {
  fields: FieldMessages<F>;
  /** An error no field explains (shown once for the whole form), or null. */
  general: unknown;
}

/** Codes that always concern one field, wherever the form has it. */
const CODE_FIELDS: Record<string, string> = {
  INVALID_TYPE: 'type',
  OPTIONS_REQUIRED: 'options',
  INVALID_PROJECT: 'projectId',
  EMAIL_TAKEN: 'email',
  INVALID_CURRENT_PASSWORD: 'currentPassword',
};

/** zod's generic messages say less than a form's rule for the field; the service's own messages say more. */
const GENERIC = /^(too (small|big)|invalid|expected|unrecognized|required|unknown field)/i;

/**
 * Why one task of an import was refused (a CSV row's `error`, a batch item's message), in plain words:
 * each field's issue as a sentence, the spec's staged checks reworded, the service's other words as they are.
 */
export function taskErrorSentence(message: string, code: string): string {
  const text = message.replace(/^Task \d+ is invalid:\s*/, '').trim();
  if (code === 'VALIDATION_ERROR' && /^Invalid task:/.test(text)) {
    return issuesOfMessage(text)
      .map((issue) => issueSentence(issue.path, issue.message))
      .join(' ');
  }
  const type = /^Unknown task type (.*); expected one of (.+)$/.exec(text);
  if (type) return `${type[1] && type[1] !== '""' ? `The type ${type[1]} is` : 'That type is'} not a task type: use one of ${type[2]}.`;
  const missing = /^Missing required fields: (.+)$/.exec(text);
  if (missing) {
    const names = (missing[1] ?? '').split(', ');
    // A pairwise task's required fields are its candidates, not options.
    const required = names.includes('candidates') ? 'a pairwise task needs type, content and both candidates' : 'type, content and options are required';
    return `${names.length === 1 ? `The ${names[0]} field is` : `The ${names.join(' and ')} fields are`} empty: ${required}.`;
  }
  const cells = /^Expected (\d+) fields, found (\d+)$/.exec(text);
  if (cells) return `This row has ${cells[2]} cells where the header has ${cells[1]}: check its commas and quotes.`;
  if (code === 'INVALID_PROJECT') return describeCode(code);
  return sentence(text || describeCode(code));
}

/** A VALIDATION_ERROR's first message per field, each in plain words; empty for any other error. */
export function plainFieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || error.code !== 'VALIDATION_ERROR') return {};
  return Object.fromEntries(Object.entries(error.fieldErrors()).map(([field, message]) => [field, plainSentence(message)]));
}

function wordIssue(message: string, rule: FieldRule | undefined, error: ApiError): string {
  if (typeof rule === 'function') return rule(message, error);
  return rule !== undefined && GENERIC.test(message) ? rule : plainSentence(message);
}

/** Maps an error of a form's request to its fields; anything else, or anything left, is `general`. */
export function mapFieldErrors<F extends string>(error: unknown, options: FieldErrorOptions<F>): FormErrors<F> {
  if (!(error instanceof ApiError)) return { fields: {}, general: error ?? null };
  const known = new Set<string>(options.fields);
  const fields: FieldMessages<F> = {};
  const codeField = options.codeFields?.[error.code] ?? CODE_FIELDS[error.code];
  if (codeField !== undefined && known.has(codeField)) {
    const field = codeField as F;
    const rule = options.rules?.[field];
    fields[field] = typeof rule === 'function' ? rule(error.message, error) : describeError(error);
    return { fields, general: null };
  }
  if (error.code === 'MISSING_FIELDS') {
    const named = Array.isArray(error.details?.fields) ? (error.details.fields as unknown[]).map(String) : [];
    for (const name of named) if (known.has(name)) fields[name as F] = options.missing?.[name as F] ?? 'This field is required.';
    return { fields, general: Object.keys(fields).length === named.length && named.length > 0 ? null : error };
  }
  if (error.code === 'VALIDATION_ERROR') {
    let unplaced = false;
    for (const [name, message] of Object.entries(error.fieldErrors())) {
      if (known.has(name)) fields[name as F] = wordIssue(message, options.rules?.[name as F], error);
      else unplaced = true;
    }
    return { fields, general: unplaced || Object.keys(fields).length === 0 ? error : null };
  }
  return { fields, general: error };
}
