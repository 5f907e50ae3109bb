// The dashboard's role gating follows the contract's permission table: the pages each role is offered,
// why an action is unavailable, which roles an owner or an admin may give, where a switch lands.
import { MEMBER_ROLES, roleHas } from '@concord/contract';
import { describe, expect, it } from 'vitest';
import {
  allowance,
  assignableRoles,
  BUYER_PAGES,
  buyerNav,
  deniedReason,
  FOUNDER_REASON,
  landingAfterSwitch,
  memberChoice,
  OWNER_ONLY_REASON,
  pagePermission,
  removal,
  rolesWith,
} from './permissions';

const labels = (role: Parameters<typeof buyerNav>[0]) => buyerNav(role).map((item) => item.label);

describe('buyerNav', () => {
  it('offers owners and admins every page', () => {
    expect(labels('owner')).toEqual(BUYER_PAGES.map((item) => item.label));
    expect(labels('admin')).toEqual(BUYER_PAGES.map((item) => item.label));
  });

  it('shows billing no task pages: the overview and billing only', () => {
    expect(labels('billing')).toEqual(['Overview', 'Billing']);
  });

  it('shows a viewer what it may read, and nothing that only changes things', () => {
    expect(labels('viewer')).toEqual(['Overview', 'Tasks', 'Projects', 'Golden tasks', 'Exports', 'Webhooks', 'Billing']);
  });

  it('shows a member the task pages and webhooks, no billing, API keys or members', () => {
    expect(labels('member')).toEqual(['Overview', 'Tasks', 'Import', 'Projects', 'Golden tasks', 'Exports', 'Webhooks']);
  });

  it('offers the audit log, after Members, to owners and admins only', () => {
    expect(labels('owner').slice(-2)).toEqual(['Members', 'Audit log']);
    expect(labels('admin')).toContain('Audit log');
    for (const role of ['member', 'billing', 'viewer'] as const) expect(labels(role), role).not.toContain('Audit log');
  });

  it('offers only the overview while the role is unknown', () => {
    expect(labels(undefined)).toEqual(['Overview']);
  });

  it('never offers a page whose permission the role lacks (every page, every role)', () => {
    for (const role of MEMBER_ROLES) {
      for (const item of buyerNav(role)) {
        const permission = pagePermission(item.to);
        if (permission) expect(roleHas(role, permission), `${role} ${item.to}`).toBe(true);
      }
    }
  });
});

describe('pagePermission', () => {
  it('reads the first segment of a path, detail pages included', () => {
    expect(pagePermission('/projects/p1')).toBe('tasks:read');
    expect(pagePermission('/billing/deposits/d1')).toBe('money:read');
    expect(pagePermission('/members')).toBe('members:write');
    expect(pagePermission('/audit-log')).toBe('audit:read');
    expect(pagePermission('import')).toBe('tasks:write');
    expect(pagePermission('/')).toBeUndefined();
    expect(pagePermission('/account')).toBeUndefined();
  });
});

describe('deniedReason and allowance', () => {
  it('names the role, what the permission is for, the permission and who has it', () => {
    const reason = deniedReason('viewer', 'tasks:write');
    expect(reason).toContain('(viewer)');
    expect(reason).toContain('(tasks:write)');
    expect(reason).toContain('owners, admins and members have');
    expect(deniedReason('member', 'money:write')).toContain('owners, admins and billing members');
  });

  it('lists the roles that hold a permission from the table', () => {
    expect(rolesWith('organisation:own')).toBe('owners');
    expect(rolesWith('tasks:read')).toBe('owners, admins, members and viewers');
  });

  it('allows what the role holds, refuses the rest with the reason, and allows nothing while the role is unknown', () => {
    expect(allowance('member', 'tasks:write')).toEqual({ allowed: true, reason: '' });
    expect(allowance('member', 'keys:write')).toEqual({ allowed: false, reason: deniedReason('member', 'keys:write') });
    expect(allowance(undefined, 'tasks:read').allowed).toBe(false);
  });
});

describe('landingAfterSwitch', () => {
  it('goes to the list a detail page belongs to, without its query', () => {
    expect(landingAfterSwitch('/projects/p1', 'member')).toBe('/projects');
    expect(landingAfterSwitch('/webhooks/w1', 'viewer')).toBe('/webhooks');
    expect(landingAfterSwitch('/billing/deposits/d1', 'billing')).toBe('/billing');
  });

  it('goes to the overview where the role there may not open the page', () => {
    expect(landingAfterSwitch('/tasks', 'billing')).toBe('/');
    expect(landingAfterSwitch('/members', 'member')).toBe('/');
    expect(landingAfterSwitch('/api-keys', 'viewer')).toBe('/');
  });

  it('stays on the overview and the account page', () => {
    expect(landingAfterSwitch('/', 'viewer')).toBe('/');
    expect(landingAfterSwitch('/account', 'billing')).toBe('/account');
  });
});

describe('member roles', () => {
  it('offers the owner role to owners only', () => {
    expect(assignableRoles('owner')).toEqual(['owner', 'admin', 'member', 'billing', 'viewer']);
    expect(assignableRoles('admin')).toEqual(['admin', 'member', 'billing', 'viewer']);
  });

  it('never lets the founder be changed or removed, whoever asks', () => {
    const founder = { role: 'owner' as const, founder: true };
    expect(memberChoice('owner', founder)).toEqual({ editable: false, options: ['owner'], reason: FOUNDER_REASON });
    expect(removal('owner', founder)).toEqual({ allowed: false, reason: FOUNDER_REASON });
  });

  it("leaves another owner's role and removal to owners", () => {
    const owner = { role: 'owner' as const, founder: false };
    expect(memberChoice('admin', owner)).toMatchObject({ editable: false, reason: OWNER_ONLY_REASON });
    expect(removal('admin', owner)).toEqual({ allowed: false, reason: OWNER_ONLY_REASON });
    expect(memberChoice('owner', owner)).toMatchObject({ editable: true, options: assignableRoles('owner') });
    expect(removal('owner', owner).allowed).toBe(true);
  });

  it('lets an admin change and remove members below owner, without offering owner', () => {
    const viewer = { role: 'viewer' as const, founder: false };
    expect(memberChoice('admin', viewer)).toEqual({ editable: true, options: ['admin', 'member', 'billing', 'viewer'], reason: '' });
    expect(removal('admin', viewer).allowed).toBe(true);
  });
});
