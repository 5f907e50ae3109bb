// A row as the service would take it, checked here before it is sent, so that one bad row never costs its
// whole batch: POST /tasks/batch is all or nothing. The rules are the service's own (@concord/contract):
// the request screen first (a string holding a NUL or an unpaired surrogate makes the service refuse the
// whole request), then the task rules in the spec's order (MISSING_FIELDS, INVALID_TYPE, OPTIONS_REQUIRED,
// then every other rule as VALIDATION_ERROR).
import { screenValue, validateTaskInput, type TaskRuleError } from '@concord/contract';

export type RowCheck = { ok: true; task: Record<string, unknown> } | { ok: false; code: TaskRuleError['code']; message: string };

/**
 * Checks one task as the service would. `priceCents` is the service's price (GET /meta): a task's
 * maxCents may not be below it. The task is returned as given (the service applies the defaults).
 */
export function checkTask(raw: unknown, priceCents: number): RowCheck {
  const unsafe = screenValue(raw, '');
  if (unsafe) return { ok: false, code: 'VALIDATION_ERROR', message: `Invalid task: ${unsafe.path.replace(/^\./, '')}: ${unsafe.message}` };
  const checked = validateTaskInput(raw, priceCents);
  if (!checked.ok) return { ok: false, code: checked.error.code, message: checked.error.message };
  return { ok: true, task: raw as Record<string, unknown> };
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
