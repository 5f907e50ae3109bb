// The audit log's filters, from the URL that holds them (?action=&targetType=&actor=&target=&from=&to=,
// the API's own names) to GET /audit-log's query, in one place without React. The date range is whole
// days of the reader's own calendar: `from` is the first day's start, `to` the end of the last day (the
// API's `to` is exclusive), both sent as ISO instants.
import { AUDIT_TARGET_TYPES, isAuditAction, type AuditAction, type AuditTargetType } from '@concord/contract';
import type { operations } from '../../../sdk/src/generated/openapi';

/** Entries per page ("Load more" asks for the next as many). */
export const AUDIT_PAGE_SIZE = 20;

/** What the page reads from its URL. */
export const AUDIT_LOG_PARAMS = {
  action: 'action',
  targetType: 'targetType',
  actor: 'actor',
  target: 'target',
  from: 'from',
  to: 'to',
} as const;

export type AuditLogParam = keyof typeof AUDIT_LOG_PARAMS;

export interface AuditFilters {
  action?: AuditAction | undefined;
  targetType?: AuditTargetType | undefined;
  /** A member's account id or an API key's id. */
  actor?: string | undefined;
  /** The changed resource's id. */
  target?: string | undefined;
  /** The first day shown, YYYY-MM-DD in the reader's time zone. */
  from?: string | undefined;
  /** The last day shown (included), YYYY-MM-DD. */
  to?: string | undefined;
}

/** The query as the SDK's types have it, so a filter the API does not take fails the build. */
export type AuditLogQuery = NonNullable<operations['listAuditLog']['parameters']['query']>;

/** The URL's changes: a value sets its parameter, undefined (or '') removes it. */
export type AuditLogChanges = Partial<Record<AuditLogParam, string | undefined>>;

/** The API takes ids of 1 to 64 characters. */
const MAX_ID_LENGTH = 64;

const isTargetType = (value: string | null): value is AuditTargetType => value !== null && (AUDIT_TARGET_TYPES as readonly string[]).includes(value);

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The start of a calendar day (YYYY-MM-DD) in the reader's time zone, `plusDays` later; undefined for what is not a day. */
export function dayStart(day: string, plusDays = 0): Date | undefined {
  const match = DAY.exec(day);
  if (!match) return undefined;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const start = new Date(year, month - 1, date + plusDays);
  // 2026-02-31 is no day: Date would roll it into March.
  const check = new Date(year, month - 1, date);
  if (check.getFullYear() !== year || check.getMonth() !== month - 1 || check.getDate() !== date) return undefined;
  return start;
}

const isDay = (value: string | null): value is string => value !== null && dayStart(value) !== undefined;
const readId = (value: string | null): string | undefined => {
  const text = value?.trim();
  return text && text.length <= MAX_ID_LENGTH ? text : undefined;
};

/** The filters the URL names; values the API would refuse are ignored rather than sent. */
export function readAuditFilters(params: URLSearchParams): AuditFilters {
  const action = params.get(AUDIT_LOG_PARAMS.action);
  const targetType = params.get(AUDIT_LOG_PARAMS.targetType);
  const from = params.get(AUDIT_LOG_PARAMS.from);
  const to = params.get(AUDIT_LOG_PARAMS.to);
  return {
    action: action !== null && isAuditAction(action) ? action : undefined,
    targetType: isTargetType(targetType) ? targetType : undefined,
    actor: readId(params.get(AUDIT_LOG_PARAMS.actor)),
    target: readId(params.get(AUDIT_LOG_PARAMS.target)),
    from: isDay(from) ? from : undefined,
    to: isDay(to) ? to : undefined,
  };
}

/** The URL's parameters after `changes`; the others stay as they were. */
export function changeAuditParams(previous: URLSearchParams, changes: AuditLogChanges): URLSearchParams {
  const next = new URLSearchParams(previous);
  for (const [key, value] of Object.entries(changes) as [AuditLogParam, string | undefined][]) {
    const name = AUDIT_LOG_PARAMS[key];
    const text = value?.trim();
    if (text) next.set(name, text);
    else next.delete(name);
  }
  return next;
}

/** What "Clear filters" changes: every filter. */
export const CLEARED_AUDIT_FILTERS: AuditLogChanges = {
  action: undefined,
  targetType: undefined,
  actor: undefined,
  target: undefined,
  from: undefined,
  to: undefined,
};

export const hasAuditFilter = (filters: AuditFilters): boolean =>
  Boolean(filters.action || filters.targetType || filters.actor || filters.target || filters.from || filters.to);

/** One key per list: another key is another list, which starts afresh at the newest entry. */
export const auditFiltersKey = (filters: AuditFilters): string =>
  JSON.stringify([filters.action, filters.targetType, filters.actor, filters.target, filters.from, filters.to]);

/** What is wrong with the date range, or undefined: the API refuses a range that ends before it starts. */
export function dateRangeProblem(filters: Pick<AuditFilters, 'from' | 'to'>): string | undefined {
  if (filters.from && filters.to && filters.from > filters.to) return 'The last day comes before the first day: choose one on or after it.';
  return undefined;
}

/** GET /audit-log's query: one page of the filtered log, the days as the instants that bound them. */
export function auditLogQuery(filters: AuditFilters, cursor: string | undefined, limit = AUDIT_PAGE_SIZE): AuditLogQuery {
  const from = filters.from ? dayStart(filters.from) : undefined;
  // The last day is included: the range ends where the next day starts (the API's `to` is exclusive).
  const to = filters.to ? dayStart(filters.to, 1) : undefined;
  return {
    ...(filters.action ? { action: filters.action } : {}),
    ...(filters.targetType ? { targetType: filters.targetType } : {}),
    ...(filters.actor ? { actor: filters.actor } : {}),
    ...(filters.target ? { target: filters.target } : {}),
    ...(from ? { from: from.toISOString() } : {}),
    ...(to ? { to: to.toISOString() } : {}),
    limit,
    ...(cursor ? { cursor } : {}),
  };
}

/** The query string GET /audit-log is sent with (the API client builds the same from auditLogQuery). */
export function auditLogSearch(filters: AuditFilters, cursor?: string, limit = AUDIT_PAGE_SIZE): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(auditLogQuery(filters, cursor, limit))) query.set(name, String(value));
  return query.toString();
}

export interface ActorOption {
  value: string;
  label: string;
}

/** The actor select's value for "an id typed in": a former member's, a revoked key's. */
export const OTHER_ACTOR = 'other';

/**
 * The actor filter's choices: anyone, each member by e-mail, each live API key by name and prefix, and an
 * id typed in (a former member or a revoked key is in neither list, yet in the log).
 */
export function actorOptions(
  members: readonly { accountId: string; email: string }[],
  apiKeys: readonly { id: string; name: string; prefix: string }[],
): ActorOption[] {
  return [
    { value: '', label: 'Anyone' },
    ...members.map((member) => ({ value: member.accountId, label: `${member.email} (member)` })),
    ...apiKeys.map((key) => ({ value: key.id, label: `${key.name} (API key ${key.prefix}…)` })),
    { value: OTHER_ACTOR, label: 'Another id (a former member, a revoked key)…' },
  ];
}

/** What the actor select shows for the URL's actor: its option when listed, else "another id". */
export function actorChoice(actor: string | undefined, options: readonly ActorOption[]): string {
  if (!actor) return '';
  return options.some((option) => option.value === actor && option.value !== OTHER_ACTOR) ? actor : OTHER_ACTOR;
}
