// The API's refusal of a form, split into a message next to each field it names and what is left for the
// form as a whole. Every form maps its errors through here, so a code reads the same on every page; and
// zod's wording ("Too small: expected string to have >=1 characters") is said in plain words here, the one
// place that knows it, for forms, import rows and batch items alike.
import { ApiError, describeCode, describeError } from './errors';
import { LOCALES } from '../tasks/vocabulary';

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

const sentence = (text: string) => {
  const capitalised = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capitalised) ? capitalised : `${capitalised}.`;
};

const figure = (n: string) => Number(n).toLocaleString('en-US');
const KIND_WORDS: Record<string, string> = {
  string: 'a text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
};
const LOCALE_LIST = LOCALES.map((locale) => locale.label).join(', ');
const LOCALE_CODES = new Set<string>(LOCALES.map((locale) => locale.value));

/** The values of zod's "expected one of \"a\"|\"b\"", in words (the six locales by their names). */
function choiceWords(list: string): string {
  const values = list.split('|').map((value) => value.trim().replace(/^"|"$/g, ''));
  if (values.length === LOCALE_CODES.size && values.every((value) => LOCALE_CODES.has(value))) return `one of the six locales: ${LOCALE_LIST}`;
  return `one of ${values.join(', ')}`;
}

/** zod's messages (v4) as the rest of a sentence about the field ("must have at most 2,048 characters"). */
const ZOD_WORDINGS: [RegExp, (...groups: string[]) => string][] = [
  [/^Too small: expected string to have >=?1 characters?$/, () => 'must not be empty'],
  [/^Too small: expected string to have >=?(\d+) characters?$/, (n = '') => `must have at least ${figure(n)} characters`],
  [/^Too big: expected string to have <=?(\d+) characters?$/, (n = '') => `must have at most ${figure(n)} characters`],
  [/^Too small: expected number to be >(\d+)$/, (n = '') => `must be more than ${figure(n)}`],
  [/^Too small: expected number to be >=(\d+)$/, (n = '') => `must be at least ${figure(n)}`],
  [/^Too big: expected number to be <(\d+)$/, (n = '') => `must be less than ${figure(n)}`],
  [/^Too big: expected number to be <=(\d+)$/, (n = '') => `must be at most ${figure(n)}`],
  [/^Too small: expected array to have >=?(\d+) items?$/, (n = '') => `must hold at least ${figure(n)} ${n === '1' ? 'item' : 'items'}`],
  [/^Too big: expected array to have <=?(\d+) items?$/, (n = '') => `must hold at most ${figure(n)} items`],
  [/^Invalid option: expected one of (.+)$/, (list = '') => `must be ${choiceWords(list)}`],
  [/^Invalid input: expected (\w+), received (undefined|null)$/, () => 'is required'],
  [/^Invalid input: expected (\w+), received \w+$/, (kind = '') => `must be ${KIND_WORDS[kind] ?? kind}`],
  [/^Invalid (email address|e-mail address)$/i, () => 'must be an e-mail address'],
  [/^Invalid URL$/i, () => 'must be a web address (https://…)'],
  [/^(Unknown field|Unrecognized keys?.*)$/i, () => 'is not a field the service knows'],
];

/**
 * An issue's message as the rest of a sentence about its field: zod's wording in plain words, or the
 * service's own (already plain: "must be at least the task price of 35 cents") as it is.
 */
export function plainPhrase(message: string): string {
  for (const [pattern, words] of ZOD_WORDINGS) {
    const match = pattern.exec(message.trim());
    if (match) return words(...match.slice(1));
  }
  return message.trim();
}

/** An issue's message as a sentence next to its field ("Must have at most 200 characters."). */
export const plainSentence = (message: string): string => sentence(plainPhrase(message));

/** How a field path reads in a sentence: "options.2" is "option 3". */
function fieldWords(path: string, labels: Record<string, string>): string {
  const [head = '', index] = path.split('.');
  const label = labels[head] ?? head;
  if (index !== undefined && /^\d+$/.test(index)) return `${label.replace(/s$/, '')} ${Number(index) + 1}`;
  return label;
}

/** The words of the API's task fields in sentences (JSON batch items, CSV rows). */
export const TASK_FIELD_WORDS: Record<string, string> = {
  type: 'the type',
  content: 'the content',
  options: 'options',
  locale: 'the locale',
  maxCents: 'the budget (maxCents)',
  validationsNeeded: 'the answers needed (validationsNeeded)',
  projectId: 'the project (projectId)',
  goldenAnswer: 'the golden answer',
};

/** The words of every field the dashboard's forms send, for sentences with no field next to them. */
export const FIELD_WORDS: Record<string, string> = {
  ...TASK_FIELD_WORDS,
  email: 'the e-mail',
  password: 'the password',
  currentPassword: 'the current password',
  newPassword: 'the new password',
  companyName: 'the company name',
  name: 'the name',
  description: 'the description',
  targetConfidence: 'the target confidence',
  maxResponses: 'the most answers per task',
  url: 'the URL',
  events: 'the events',
  secret: 'the secret',
  appName: 'the app name',
  appUrl: 'the app URL',
  amountCents: 'the amount',
  method: 'the payment method',
  reason: 'the reason',
  note: 'the note',
  seed: 'the seed',
  q: 'the search',
  tasks: 'the tasks',
  'Idempotency-Key': 'the Idempotency-Key header',
};

/**
 * One issue as a whole sentence naming its field, for places with no field to put it next to (a CSV
 * row, a batch item, a form's general note): "The locale must be one of the six locales: …".
 */
export function issueSentence(path: string, message: string, labels: Record<string, string> = TASK_FIELD_WORDS): string {
  const phrase = plainPhrase(message);
  const field = path && path !== '(root)' ? fieldWords(path, labels) : '';
  // The service's own messages often name the field already ("options must be distinct").
  if (!field || phrase.toLowerCase().startsWith(field.toLowerCase()) || phrase.toLowerCase().startsWith((path.split('.')[0] ?? '').toLowerCase())) return sentence(phrase);
  return sentence(/^(must|is|are)\b/.test(phrase) ? `${field} ${phrase}` : `${field}: ${phrase}`);
}

/** The issues of a row's or an item's message "Invalid task: locale: Invalid option…; maxCents: Too small…". */
export function issuesOfMessage(message: string): { path: string; message: string }[] {
  const body = message.replace(/^Invalid task:\s*/, '');
  return body
    .split('; ')
    .map((part) => {
      const match = /^([A-Za-z][\w.]*): (.+)$/.exec(part);
      return match ? { path: match[1] ?? '', message: match[2] ?? '' } : { path: '', message: part };
    })
    .filter((issue) => issue.message.trim() !== '');
}

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
    return `${names.length === 1 ? `The ${names[0]} field is` : `The ${names.join(' and ')} fields are`} empty: type, content and options are required.`;
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

