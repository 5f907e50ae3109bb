// The API key form's own logic, apart from the page: the body POST /api-keys gets from what was chosen
// (access, an optional project limit, an optional last day), the checks made before sending, and how a
// listed key's scope and expiry read.
import { API_KEY_MAX_PROJECTS, type ApiKeyAccess } from '@concord/contract';

/** What each access reaches, in one line each (the form's choices and the list's column). */
export const ACCESS_CHOICES: readonly { value: ApiKeyAccess; label: string; hint: string }[] = [
  { value: 'write', label: 'Write', hint: 'Reads and changes tasks, projects, golden tasks, exports, events, webhooks and money.' },
  { value: 'read', label: 'Read only', hint: 'Reads only: every change it attempts is refused (403).' },
];

/** The service wants an expiry at least a minute ahead. */
const MIN_AHEAD_MS = 60_000;

export interface KeyFormInput {
  name: string;
  access: ApiKeyAccess;
  /** The projects ticked; none: the whole organisation. */
  projectIds: readonly string[];
  /** The date input's value (YYYY-MM-DD), or '' for a key that never expires. */
  expiryDay: string;
}

export interface KeyBody {
  name: string;
  access: ApiKeyAccess;
  projectIds?: string[];
  expiresAt?: string;
}

/** The end of a day (YYYY-MM-DD) in UTC, as ISO; undefined for anything that is not a real day. */
export function endOfDayUtc(day: string): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return undefined;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const end = new Date(Date.UTC(year, month - 1, date, 23, 59, 59, 999));
  // 2026-02-31 would roll over into March: not a day.
  if (end.getUTCFullYear() !== year || end.getUTCMonth() !== month - 1 || end.getUTCDate() !== date) return undefined;
  return end.toISOString();
}

/** Today in UTC as the date input writes it: the earliest day a key may be given. */
export const todayUtc = (now = Date.now()): string => new Date(now).toISOString().slice(0, 10);

/** What is wrong with the chosen last day, or undefined (none chosen, or one still ahead). */
export function expiryProblem(day: string, now = Date.now()): string | undefined {
  if (day === '') return undefined;
  const end = endOfDayUtc(day);
  if (!end) return 'Give the last day as a date, e.g. 2027-03-31, or leave it empty for a key that never expires.';
  if (Date.parse(end) - now < MIN_AHEAD_MS) return 'The last day has passed: choose today or a later day, or leave it empty for a key that never expires.';
  return undefined;
}

/** What is wrong with the project limit, or undefined. */
export function projectsProblem(projectIds: readonly string[]): string | undefined {
  return projectIds.length > API_KEY_MAX_PROJECTS
    ? `A key may be limited to at most ${API_KEY_MAX_PROJECTS} projects (${projectIds.length} are ticked). Untick some, or tick none for the whole organisation.`
    : undefined;
}

/** The request body: projects and expiry only when chosen (none: the whole organisation, never expiring). */
export function keyBody(input: KeyFormInput): KeyBody {
  const body: KeyBody = { name: input.name.trim(), access: input.access };
  const projectIds = [...new Set(input.projectIds)];
  if (projectIds.length > 0) body.projectIds = projectIds;
  const expiresAt = input.expiryDay ? endOfDayUtc(input.expiryDay) : undefined;
  if (expiresAt) body.expiresAt = expiresAt;
  return body;
}

/** Whether a listed key has expired (it stays listed, and answers 401, until revoked). */
export const isExpired = (key: { expiresAt: string | null }, now = Date.now()): boolean => key.expiresAt !== null && Date.parse(key.expiresAt) <= now;

/**
 * The projects a key is limited to, by name (a project since deleted says so), or the whole organisation;
 * a count while the project names are loading.
 */
export function scopeWords(projectIds: readonly string[] | null, names: ReadonlyMap<string, string> | undefined): string {
  if (projectIds === null) return 'Whole organisation';
  if (!names) return projectIds.length === 1 ? '1 project' : `${projectIds.length} projects`;
  return projectIds.map((id) => names.get(id) ?? 'a deleted project').join(', ');
}

export const accessLabel = (access: ApiKeyAccess): string => (access === 'read' ? 'Read only' : 'Write');
