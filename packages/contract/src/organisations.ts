// Organisations (docs/organisations.md): a buyer is an organisation, people are its members with one role
// each, and every buyer route needs one permission. The service enforces the table, the dashboard reads
// it to offer only what a member may do, and the permission test walks it for every operation and role.
import { z } from 'zod';

/** One role per membership, most powerful first. */
export const MEMBER_ROLES = ['owner', 'admin', 'member', 'billing', 'viewer'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];
export const memberRoleSchema = z.enum(MEMBER_ROLES);

/**
 * What a buyer route needs. `tasks:*` covers tasks, projects, golden tasks, their reports, events and
 * exports (task content); `money:*` the balance, ledger, deposits and spending; `organisation:own` what
 * only an owner may do (ownership, owners' roles, deleting the organisation).
 */
export const PERMISSIONS = [
  'tasks:read',
  'tasks:write',
  'webhooks:write',
  'money:read',
  'money:write',
  'keys:write',
  'members:write',
  'audit:read',
  'organisation:own',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const ALL: readonly Permission[] = PERMISSIONS;

/**
 * The permission table. `billing` sees no task content; `viewer` reads what tasks and money show but
 * manages nothing; `admin` is everything but ownership.
 */
export const ROLE_PERMISSIONS: Readonly<Record<MemberRole, readonly Permission[]>> = {
  owner: ALL,
  admin: ALL.filter((permission) => permission !== 'organisation:own'),
  member: ['tasks:read', 'tasks:write', 'webhooks:write'],
  billing: ['money:read', 'money:write'],
  viewer: ['tasks:read', 'money:read'],
};

export const roleHas = (role: MemberRole, permission: Permission): boolean => ROLE_PERMISSIONS[role].includes(permission);

/**
 * A buyer API key's permissions by its access: a write key works with tasks, webhooks and money as keys
 * always have, a read key reads what a viewer reads; neither manages keys or members, nor reads the audit log.
 */
export const API_KEY_PERMISSIONS: Readonly<Record<'read' | 'write', readonly Permission[]>> = {
  write: ['tasks:read', 'tasks:write', 'webhooks:write', 'money:read', 'money:write'],
  read: ['tasks:read', 'money:read'],
};

/** An invitation's link works once, for 7 days. */
export const INVITATION_LIFETIME_DAYS = 7;
/** Members and pending invitations of one organisation, together. */
export const MAX_ORGANISATION_SEATS = 200;
/** The organisations one person may belong to, their own included. */
export const MAX_ORGANISATIONS_PER_PERSON = 50;

/** The request header that names the organisation a person's token acts for (a buyer API key ignores it). */
export const ORGANISATION_HEADER = 'X-Concord-Organisation';
