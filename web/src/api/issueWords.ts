// zod's wording ("Too small: expected string to have >=1 characters") and the API's field names in plain
// words, the one place that knows them: for the sentences next to a form's fields (fieldErrors.ts), for
// import rows and batch items, and for an error's own sentence (errors.ts).
import { LOCALES } from '../tasks/vocabulary';

/** A text as a sentence: capitalised, with a full stop. */
export const sentence = (text: string) => {
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
  if (head === 'candidates' && (index === 'A' || index === 'B')) return `candidate ${index}`;
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
  answerKind: 'the answer kind (answerKind)',
  allowEmpty: 'allowEmpty',
  candidates: 'the candidates',
  allowTie: 'allowTie',
  group: 'the group',
  maxLength: 'the longest answer (maxLength)',
  deadline: 'the deadline',
  priority: 'the priority',
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
  defaultDeadlineHours: 'the default deadline (hours)',
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
  if (!field || phrase.toLowerCase().startsWith(field.toLowerCase()) || phrase.toLowerCase().startsWith((path.split('.')[0] ?? '').toLowerCase()))
    return sentence(phrase);
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
