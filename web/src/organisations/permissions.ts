// What the caller's role in the organisation lets them do, read from the contract's permission table
// (ROLE_PERMISSIONS / roleHas, the one the service enforces): which pages the navigation offers, why a
// button is unavailable, which roles an owner or an admin may give, and where a switch of organisation
// lands. Pure, so every rule is tested without a browser.
import { MEMBER_ROLES, PERMISSIONS, roleHas, type MemberRole, type Permission } from '@concord/contract';

export type { MemberRole, Permission };

const isMemberRole = (value: unknown): value is MemberRole => typeof value === 'string' && (MEMBER_ROLES as readonly string[]).includes(value);
const isPermission = (value: unknown): value is Permission => typeof value === 'string' && (PERMISSIONS as readonly string[]).includes(value);

export { isMemberRole, isPermission };

/** A role as a person reads it in a sentence ("an admin"). */
export const ROLE_LABELS: Readonly<Record<MemberRole, string>> = {
  owner: 'Owner',
  admin: 'Admin',
  member: 'Member',
  billing: 'Billing',
  viewer: 'Viewer',
};

/** What each role may do, in one line (the members page's role choices and its table). */
export const ROLE_SUMMARIES: Readonly<Record<MemberRole, string>> = {
  owner: 'Everything, including making, changing and removing owners.',
  admin: 'Everything but owners: tasks, webhooks, money, API keys and members.',
  member: 'Tasks, projects, golden tasks, imports, exports and webhooks; no money, API keys or members.',
  billing: 'The balance, ledger, deposits, top-ups and spending caps; no task content.',
  viewer: 'Reads tasks, projects, reports, webhooks and money; changes nothing.',
};

/** Each permission as what it lets a person do ("it takes … (tasks:write)"). */
export const PERMISSION_WORDS: Readonly<Record<Permission, string>> = {
  'tasks:read': 'seeing tasks, projects, golden tasks, events and exports',
  'tasks:write': 'creating, importing, changing and deleting tasks, projects and golden tasks',
  'webhooks:write': 'adding, changing and deleting webhooks',
  'money:read': 'seeing the ledger, spending, deposits and spending caps',
  'money:write': 'adding credits and setting spending caps',
  'keys:write': 'managing API keys',
  'members:write': 'inviting, changing and removing members',
  'audit:read': 'reading the audit log',
  'organisation:own': 'an owner’s rights: making, changing or removing owners',
};

const PLURALS: Readonly<Record<MemberRole, string>> = { owner: 'owners', admin: 'admins', member: 'members', billing: 'billing members', viewer: 'viewers' };

/** "a, b and c". */
function listWords(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1] ?? ''}`;
}

/** The roles that hold a permission, in words: "owners, admins and members". */
export const rolesWith = (permission: Permission): string => listWords(MEMBER_ROLES.filter((role) => roleHas(role, permission)).map((role) => PLURALS[role]));

/**
 * Why a role cannot do something, naming the role and the permission it lacks: "Your role here (viewer)
 * does not allow this: it takes creating, importing, changing and deleting tasks, … (tasks:write), which
 * owners, admins and members have."
 */
export function deniedReason(role: MemberRole | string, permission: Permission): string {
  return `Your role here (${role}) does not allow this: it takes ${PERMISSION_WORDS[permission]} (${permission}), which ${rolesWith(permission)} have.`;
}

export interface Allowance {
  allowed: boolean;
  /** Said where the action would be (a tooltip, a note): empty when allowed. */
  reason: string;
}

/** Whether a role (undefined while unknown: nothing is allowed yet) may do what a permission covers. */
export function allowance(role: MemberRole | undefined, permission: Permission): Allowance {
  if (role === undefined) return { allowed: false, reason: '' };
  return roleHas(role, permission) ? { allowed: true, reason: '' } : { allowed: false, reason: deniedReason(role, permission) };
}

/**
 * The permission each page of the buyer's dashboard needs to open, by its first path segment: the
 * permission of the API's routes it cannot show anything without. The overview and the account are
 * everyone's (the overview shows each role what it may see).
 */
export const PAGE_PERMISSIONS: Readonly<Record<string, Permission>> = {
  tasks: 'tasks:read',
  import: 'tasks:write',
  projects: 'tasks:read',
  'golden-tasks': 'tasks:read',
  exports: 'tasks:read',
  webhooks: 'tasks:read',
  'api-keys': 'keys:write',
  billing: 'money:read',
  members: 'members:write',
  'audit-log': 'audit:read',
};

const firstSegment = (pathname: string) => pathname.split('/').find((part) => part !== '') ?? '';

/** The permission a path of the buyer's dashboard needs, or undefined when every role may open it. */
export const pagePermission = (pathname: string): Permission | undefined => PAGE_PERMISSIONS[firstSegment(pathname)];

export interface NavItem {
  to: string;
  label: string;
  end?: boolean;
}

/** The buyer's navigation, every page; `buyerNav` keeps those a role may open. */
export const BUYER_PAGES: readonly NavItem[] = [
  { to: '/', label: 'Overview', end: true },
  { to: '/tasks', label: 'Tasks' },
  { to: '/import', label: 'Import' },
  { to: '/projects', label: 'Projects' },
  { to: '/golden-tasks', label: 'Golden tasks' },
  { to: '/exports', label: 'Exports' },
  { to: '/webhooks', label: 'Webhooks' },
  { to: '/api-keys', label: 'API keys' },
  { to: '/billing', label: 'Billing' },
  { to: '/members', label: 'Members' },
  { to: '/audit-log', label: 'Audit log' },
];

/** The pages a role may open, in the navigation's order (only the overview while the role is unknown). */
export function buyerNav(role: MemberRole | undefined): NavItem[] {
  return BUYER_PAGES.filter((item) => {
    const permission = pagePermission(item.to);
    return permission === undefined || (role !== undefined && roleHas(role, permission));
  });
}

/**
 * Where the dashboard goes after acting for another organisation: the list the page belongs to (an open
 * project, webhook, deposit or task is the former organisation's), or the overview when the role there
 * may not open it.
 */
export function landingAfterSwitch(pathname: string, role: MemberRole): string {
  const segment = firstSegment(pathname);
  if (segment === '' || segment === 'account') return segment === '' ? '/' : '/account';
  const permission = PAGE_PERMISSIONS[segment];
  if (permission === undefined || !roleHas(role, permission)) return '/';
  return `/${segment}`;
}

export interface MemberLike {
  role: MemberRole;
  founder: boolean;
}

/** The roles an actor may give: an owner every one, an admin every one but owner. */
export const assignableRoles = (actor: MemberRole): MemberRole[] => MEMBER_ROLES.filter((role) => role !== 'owner' || roleHas(actor, 'organisation:own'));

export interface MemberChoice {
  /** Whether the actor may change the member's role. */
  editable: boolean;
  /** The roles offered (the member's own first among them in the table's order). */
  options: MemberRole[];
  /** Why the role cannot be changed, when it cannot. */
  reason: string;
}

export const FOUNDER_REASON = 'The founder stays an owner: the organisation was created with their account.';
export const OWNER_ONLY_REASON = 'Only an owner can change or remove an owner.';

/** What an actor may do with one member's role, as the service decides it (FOUNDER_STAYS_OWNER, organisation:own). */
export function memberChoice(actor: MemberRole, member: MemberLike): MemberChoice {
  if (member.founder) return { editable: false, options: [member.role], reason: FOUNDER_REASON };
  if (member.role === 'owner' && !roleHas(actor, 'organisation:own')) return { editable: false, options: [member.role], reason: OWNER_ONLY_REASON };
  return { editable: true, options: assignableRoles(actor), reason: '' };
}

/** Whether an actor may remove a member, and why not. */
export function removal(actor: MemberRole, member: MemberLike): Allowance {
  if (member.founder) return { allowed: false, reason: FOUNDER_REASON };
  if (member.role === 'owner' && !roleHas(actor, 'organisation:own')) return { allowed: false, reason: OWNER_ONLY_REASON };
  return { allowed: true, reason: '' };
}
