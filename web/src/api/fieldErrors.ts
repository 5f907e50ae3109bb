// The API's refusal of a form, split into a message next to each field it names and what is left for the
// form as a whole. Every form maps its errors through here, so a code reads the same on every page.
import { ApiError, describeError } from './errors';

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
const GENERIC = /^(too (small|big)|invalid|expected|unrecognized|required)/i;

const sentence = (text: string) => {
  const capitalised = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capitalised) ? capitalised : `${capitalised}.`;
};

function wordIssue(message: string, rule: FieldRule | undefined, error: ApiError): string {
  if (typeof rule === 'function') return rule(message, error);
  return rule !== undefined && GENERIC.test(message) ? rule : sentence(message);
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

