// An audit entry's change as rows a person reads, pure: one row per setting the change touched, with its
// value before and after it. A creation has values after only, a deletion before only; an update's
// setting that kept its value (a member's e-mail beside the role that changed) is shown as it stayed.
import type { AuditEntry } from './auditWords';
import { formatCents, formatDateTime } from '../ui/format';

type Settings = AuditEntry['before'];

export type ChangeKind = 'changed' | 'same' | 'set' | 'removed';

export interface ChangeRow {
  /** The setting's name, as the API spells it (targetConfidence). */
  key: string;
  /** The value before the change; undefined when the setting did not exist before (a creation). */
  before?: string;
  /** The value after the change; undefined when the setting no longer exists (a deletion). */
  after?: string;
  kind: ChangeKind;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * One recorded value in words: none for null, yes/no, an amount in dollars for a `…Cents` setting, a time
 * for an ISO timestamp, a list's items joined, anything else as its JSON.
 */
export function formatSetting(key: string, value: unknown): string {
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') return /Cents$/.test(key) && Number.isInteger(value) ? formatCents(value) : String(value);
  if (typeof value === 'string') {
    if (value === '') return '(empty)';
    return ISO_TIME.test(value) && !Number.isNaN(Date.parse(value)) ? formatDateTime(value) : value;
  }
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))).join(', ');
  return JSON.stringify(value);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The rows of a change: the settings before's order first, then those only after has. */
export function changeRows(before: Settings, after: Settings): ChangeRow[] {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  return keys.map((key): ChangeRow => {
    if (before === null) return { key, after: formatSetting(key, after?.[key]), kind: 'set' };
    if (after === null) return { key, before: formatSetting(key, before[key]), kind: 'removed' };
    // A setting only one side has reads as none on the other.
    const old = Object.hasOwn(before, key) ? before[key] : null;
    const now = Object.hasOwn(after, key) ? after[key] : null;
    return { key, before: formatSetting(key, old), after: formatSetting(key, now), kind: same(old, now) ? 'same' : 'changed' };
  });
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What the expandable part of an entry says while closed: "1 setting changed", "5 values recorded" (a creation)… */
export function changeSummary(before: Settings, after: Settings): string {
  const rows = changeRows(before, after);
  if (rows.length === 0) return 'No settings recorded';
  if (before === null) return `${plural(rows.length, 'value', 'values')} recorded`;
  if (after === null) return `${plural(rows.length, 'value', 'values')} as they were`;
  const changed = rows.filter((row) => row.kind !== 'same').length;
  return changed === 0 ? 'Nothing changed' : `${plural(changed, 'setting', 'settings')} changed`;
}
