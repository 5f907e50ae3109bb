// The audit log in words, pure: each action (an operationId of the contract's AUDITED_ACTIONS) as what a
// person reads ("Changed project"), each target type as a noun, who made a change (an e-mail, an API
// key's name and prefix, or Concord's operator), what the change was made to (a name the entry's
// settings carry, or its id) and where the dashboard shows that thing.
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES, type AuditAction, type AuditTargetType } from '@concord/contract';
import type { Schemas } from '../api/schemas';
import { taskListPath } from '../links';
import { formatCents, formatCount } from '../ui/format';

export type AuditEntry = Schemas['AuditEntry'];
export type AuditActor = Schemas['AuditActor'];
export type { AuditAction, AuditTargetType };

/** Every audited action as what happened, in the past tense. */
export const ACTION_LABELS: Readonly<Record<AuditAction, string>> = {
  updateMember: 'Changed a member’s role',
  deleteMember: 'Removed a member',
  createInvitation: 'Invited someone',
  revokeInvitation: 'Revoked an invitation',
  acceptInvitation: 'Joined through an invitation',
  createApiKey: 'Created an API key',
  revokeApiKey: 'Revoked an API key',
  createProject: 'Created project',
  updateProject: 'Changed project',
  deleteProject: 'Deleted project',
  createTask: 'Created a task',
  createTaskBatch: 'Created tasks in a batch',
  importTasksCsv: 'Imported tasks from a CSV file',
  updateTask: 'Changed a task',
  rejectTaskResult: 'Rejected a task’s result',
  deleteTask: 'Deleted a task',
  createGoldenTask: 'Added a golden task',
  deleteGoldenTask: 'Deleted a golden task',
  createWebhookConfig: 'Added a webhook',
  updateWebhookConfig: 'Changed a webhook',
  deleteWebhookConfig: 'Deleted a webhook',
  rotateWebhookSecret: 'Rotated a webhook’s secret',
  sendWebhookTest: 'Sent a webhook test event',
  redeliverWebhookDelivery: 'Redelivered a webhook delivery',
  createDeposit: 'Started a deposit',
  setMonthlyCap: 'Set the monthly spending cap',
  setProjectBudgetCap: 'Set a project’s budget cap',
  adjustBuyerCredits: 'Adjusted the credit balance',
};

/** Every target type as a noun, capitalised (a column's value, a filter's option). */
export const TARGET_TYPE_LABELS: Readonly<Record<AuditTargetType, string>> = {
  organisation: 'Organisation',
  member: 'Member',
  invitation: 'Invitation',
  apiKey: 'API key',
  project: 'Project',
  task: 'Task',
  tasks: 'Tasks',
  goldenTask: 'Golden task',
  webhook: 'Webhook',
  webhookDelivery: 'Webhook delivery',
  deposit: 'Deposit',
};

/** The action filter's choices: every action, labelled, in the contract's order. */
export const ACTION_OPTIONS: readonly { value: AuditAction; label: string }[] = AUDIT_ACTIONS.map((value) => ({ value, label: ACTION_LABELS[value] }));

/** The target type filter's choices. */
export const TARGET_TYPE_OPTIONS: readonly { value: AuditTargetType; label: string }[] = AUDIT_TARGET_TYPES.map((value) => ({
  value,
  label: TARGET_TYPE_LABELS[value],
}));

/** What the audit log calls the service's operator (an administrator of Concord, not of the organisation). */
export const OPERATOR = 'Concord operator';

export interface ActorWords {
  /** Who: an e-mail, a key's name, or Concord's operator. */
  name: string;
  /** What kind of actor, as a badge says it. */
  kind: 'Member' | 'API key' | 'Concord';
  /** A key's visible prefix ("cnc_live_AbCdE…"), to tell two keys of one name apart. */
  detail?: string;
  /** The id the actor filter takes (an account's or a key's), when the entry has one. */
  id?: string;
}

/** Who made a change: the e-mail of a member, the name and prefix of an API key, or Concord's operator. */
export function describeActor(actor: AuditActor): ActorWords {
  if (actor.kind === 'admin') return { name: OPERATOR, kind: 'Concord' };
  if (actor.kind === 'apiKey') {
    return {
      name: actor.apiKeyName ?? 'An API key',
      kind: 'API key',
      ...(actor.apiKeyPrefix ? { detail: `${actor.apiKeyPrefix}…` } : {}),
      ...(actor.apiKeyId ? { id: actor.apiKeyId } : {}),
    };
  }
  return { name: actor.email ?? 'A former member', kind: 'Member', ...(actor.accountId ? { id: actor.accountId } : {}) };
}

/** The actor in one line: "ml-ops@acme.example", "Production ingest (API key cnc_live_AbCdE…)", "Concord operator". */
export function actorText(actor: AuditActor): string {
  const words = describeActor(actor);
  if (words.kind === 'API key') return `${words.name} (API key${words.detail ? ` ${words.detail}` : ''})`;
  return words.name;
}

const stringField = (settings: AuditEntry['before'], key: string): string | undefined => {
  const value = settings?.[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
};
const numberField = (settings: AuditEntry['before'], key: string): number | undefined => {
  const value = settings?.[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
};

/**
 * What the change was made to, in words, from what the entry's settings record of it: a project's or a
 * key's name, a member's or an invitation's e-mail, a webhook's URL, a batch's size, an amount; undefined
 * when the entry records nothing that names it (a task: its content is never recorded).
 */
export function targetName(entry: Pick<AuditEntry, 'action' | 'target' | 'before' | 'after'>): string | undefined {
  const { after, before } = entry;
  const pick = (key: string) => stringField(after, key) ?? stringField(before, key);
  switch (entry.target.type) {
    case 'project':
    case 'apiKey':
      return pick('name');
    case 'member':
    case 'invitation':
      return pick('email');
    case 'webhook':
      return pick('url');
    case 'tasks': {
      const created = numberField(after, 'created');
      return created === undefined ? undefined : `${formatCount(created)} ${created === 1 ? 'task' : 'tasks'}`;
    }
    case 'deposit': {
      const amount = numberField(after, 'amountCents');
      return amount === undefined ? undefined : formatCents(amount);
    }
    case 'organisation': {
      // The operator's adjustment names its amount; a cap's change shows in its settings.
      const amount = entry.action === 'adjustBuyerCredits' ? numberField(after, 'amountCents') : undefined;
      if (amount === undefined) return undefined;
      return `${amount < 0 ? '−' : '+'}${formatCents(Math.abs(amount))}`;
    }
    default:
      return undefined;
  }
}

/** The target types an entry names by the resource's own name, e-mail or URL (not by an amount or a count). */
const NAMED_TYPES: ReadonlySet<AuditTargetType> = new Set(['project', 'apiKey', 'member', 'invitation', 'webhook']);

/**
 * The names the entries record of their targets, by target id, the newest entry's first: an update records
 * only what it changed, so "Changed project" is named by the project's creation or another change of it.
 */
export function recordedNames(entries: readonly Pick<AuditEntry, 'action' | 'target' | 'before' | 'after'>[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const entry of entries) {
    const id = entry.target.id;
    if (!id || names.has(id) || !NAMED_TYPES.has(entry.target.type)) continue;
    const name = targetName(entry);
    if (name) names.set(id, name);
  }
  return names;
}

/**
 * Where the dashboard shows what an entry changed, or undefined where it has no page for it: a project, a
 * task (in the task list's drawer), a webhook and a deposit by their id; members, invitations, API keys
 * and golden tasks in their lists; a batch's tasks in the task list, filtered by its project when it went
 * to one. An entry that removed its target (nothing after it) links nowhere.
 */
export function targetPath(entry: Pick<AuditEntry, 'target' | 'after'>): string | undefined {
  if (entry.after === null) return undefined;
  const id = entry.target.id;
  switch (entry.target.type) {
    case 'project':
      return id ? `/projects/${encodeURIComponent(id)}` : undefined;
    case 'task':
      return id ? taskListPath({ task: id }) : undefined;
    case 'webhook':
      return id ? `/webhooks/${encodeURIComponent(id)}` : undefined;
    case 'deposit':
      return id ? `/billing/deposits/${encodeURIComponent(id)}` : undefined;
    case 'member':
    case 'invitation':
      return '/members';
    case 'apiKey':
      return '/api-keys';
    case 'goldenTask':
      return '/golden-tasks';
    case 'tasks': {
      const projects = entry.after.projectIds;
      const only = Array.isArray(projects) && projects.length === 1 && typeof projects[0] === 'string' ? projects[0] : undefined;
      return taskListPath({ projectId: only });
    }
    case 'organisation':
      return '/billing';
    default:
      return undefined;
  }
}

const localDateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** An entry's time in the reader's own time zone (the exact ISO goes in the element's title). */
export const formatLocalDateTime = (iso: string): string => localDateTime.format(new Date(iso));
