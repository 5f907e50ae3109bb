// The service's rules for one task (contract §4, the server's src/modules/tasks/task-rules.ts), checked
// here before a row is sent, so that one bad row never costs its whole batch: POST /tasks/batch is all
// or nothing. Same order and codes as the service: MISSING_FIELDS, INVALID_TYPE, OPTIONS_REQUIRED, then
// every other rule as VALIDATION_ERROR; a string holding a NUL or an unpaired surrogate is a
// VALIDATION_ERROR too (the service refuses the whole request for one). test/unit/cli-task-rules.test.ts
// holds this module to the service's own function, case by case.

export const TASK_TYPES = ['SENTIMENT_ANALYSIS', 'IMAGE_CLASSIFICATION', 'BINARY_CHOICE', 'AI_RESPONSE_RATING', 'RELEVANCE_RATING'] as const;
export const LOCALES = ['fr', 'en', 'de', 'zh', 'es', 'ar'] as const;
export const TASK_FIELDS = ['type', 'content', 'options', 'locale', 'maxCents', 'projectId', 'validationsNeeded'] as const;
const FIELDS: ReadonlySet<string> = new Set(TASK_FIELDS);
const TYPES: ReadonlySet<string> = new Set(TASK_TYPES);
const LOCALE_SET: ReadonlySet<string> = new Set(LOCALES);

export const MIN_MAX_CENTS = 20;
export const MAX_MAX_CENTS = 100_000;
export const MAX_CONTENT_LENGTH = 100_000;
export const MAX_OPTIONS = 50;
export const MAX_OPTION_LENGTH = 500;
export const MAX_PROJECT_ID_LENGTH = 64;

export type RowCode = 'MISSING_FIELDS' | 'INVALID_TYPE' | 'OPTIONS_REQUIRED' | 'VALIDATION_ERROR';

export type RowCheck = { ok: true; task: Record<string, unknown> } | { ok: false; code: RowCode; message: string };

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function unsafeString(value: string): string | undefined {
  if (value.includes('\u0000')) return 'must not contain a NUL character';
  if (UNPAIRED_SURROGATE.test(value)) return 'must not contain an unpaired UTF-16 surrogate';
  return undefined;
}

const isBlank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
const isInteger = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);

const invalid = (issues: string[]): RowCheck => ({ ok: false, code: 'VALIDATION_ERROR', message: `Invalid task: ${issues.join('; ')}` });

/** The first string of the row (key or value, at any depth) that the service could not store. */
function screen(value: unknown, where: string, depth = 0): string | undefined {
  if (typeof value === 'string') {
    const reason = unsafeString(value);
    return reason ? `${where}: ${reason}` : undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  if (depth > 32) return `${where}: nested too deeply`;
  for (const [key, child] of Object.entries(value)) {
    const reason = unsafeString(key);
    if (reason) return `${where}: has a key that ${reason}`;
    const found = screen(child, where ? `${where}.${key}` : key, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * Checks one task as the service would. `priceCents` is the service's price (GET /meta): a task's
 * maxCents may not be below it. The task is returned as given (the service applies the defaults).
 */
export function checkTask(raw: unknown, priceCents: number): RowCheck {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { ok: false, code: 'VALIDATION_ERROR', message: 'A task must be a JSON object' };
  }
  const unsafe = screen(raw, '');
  if (unsafe) return invalid([unsafe]);
  const task = raw as Record<string, unknown>;
  const missing = (['type', 'content', 'options'] as const).filter((field) => isBlank(task[field]));
  if (missing.length > 0) return { ok: false, code: 'MISSING_FIELDS', message: `Missing required fields: ${missing.join(', ')}` };
  if (typeof task.type !== 'string' || !TYPES.has(task.type)) {
    return { ok: false, code: 'INVALID_TYPE', message: `Unknown task type ${JSON.stringify(task.type)}; expected one of ${TASK_TYPES.join(', ')}` };
  }
  if (Array.isArray(task.options) && task.options.length < 2) return { ok: false, code: 'OPTIONS_REQUIRED', message: 'A task needs at least 2 options' };

  const issues: string[] = [];
  for (const key of Object.keys(task)) if (!FIELDS.has(key)) issues.push(`${key}: unknown field (accepted: ${TASK_FIELDS.join(', ')})`);
  if (typeof task.content !== 'string') issues.push('content: must be a string');
  else if (task.content.length > MAX_CONTENT_LENGTH) issues.push(`content: is at most ${MAX_CONTENT_LENGTH} characters`);
  if (!Array.isArray(task.options)) issues.push('options: must be an array of strings');
  else {
    if (task.options.length > MAX_OPTIONS) issues.push(`options: at most ${MAX_OPTIONS} options`);
    const seen = new Set<string>();
    let distinct = true;
    task.options.forEach((option, index) => {
      if (typeof option !== 'string') return issues.push(`options.${index}: must be a string`);
      const trimmed = option.trim();
      if (trimmed === '') issues.push(`options.${index}: options must not be blank`);
      else if (trimmed.length > MAX_OPTION_LENGTH) issues.push(`options.${index}: options are at most ${MAX_OPTION_LENGTH} characters`);
      if (seen.has(trimmed)) distinct = false;
      seen.add(trimmed);
      return undefined;
    });
    if (!distinct) issues.push('options: options must be distinct');
  }
  if (task.locale !== undefined && !(typeof task.locale === 'string' && LOCALE_SET.has(task.locale))) {
    issues.push(`locale: must be one of ${LOCALES.join(', ')}`);
  }
  if (task.maxCents !== undefined) {
    if (!isInteger(task.maxCents) || task.maxCents < MIN_MAX_CENTS || task.maxCents > MAX_MAX_CENTS) {
      issues.push(`maxCents: must be an integer from ${MIN_MAX_CENTS} to ${MAX_MAX_CENTS}`);
    } else if (task.maxCents < priceCents) issues.push(`maxCents: must be at least the task price of ${priceCents} cents`);
  }
  if (task.validationsNeeded !== undefined && !(isInteger(task.validationsNeeded) && task.validationsNeeded >= 1 && task.validationsNeeded <= 25)) {
    issues.push('validationsNeeded: must be an integer from 1 to 25');
  }
  if (task.projectId !== undefined && task.projectId !== null) {
    if (typeof task.projectId !== 'string' || task.projectId.length < 1 || task.projectId.length > MAX_PROJECT_ID_LENGTH) {
      issues.push(`projectId: must be a string of 1 to ${MAX_PROJECT_ID_LENGTH} characters`);
    }
  }
  if (issues.length > 0) return invalid(issues);
  return { ok: true, task };
}

/**
 * An upper bound of the row's size in the JSON body, without serialising it: every UTF-16 unit takes
 * at most 6 bytes in JSON (`\u001f`), plus the keys and punctuation.
 */
export function jsonSizeBound(task: Record<string, unknown>): number {
  let size = 2;
  for (const [key, value] of Object.entries(task)) {
    size += key.length + 4;
    if (typeof value === 'string') size += value.length * 6 + 2;
    else if (Array.isArray(value)) for (const item of value) size += (typeof item === 'string' ? item.length * 6 : 24) + 3;
    else size += 24;
  }
  return size;
}
