// The pure parts of the audit log and the spending caps: what an update's entry keeps, how a client's
// address is written, and which new tasks a holding project's cap holds.
import { describe, expect, it } from 'vitest';
import { clientAddress } from '../../src/lib/endpoint.ts';
import { pick, settingsChange } from '../../src/modules/audit/audit-change.ts';
import { commitmentOf, tasksToHold } from '../../src/modules/billing/spending-caps.service.ts';

describe('settingsChange', () => {
  it('keeps only the settings that changed, each with its old value', () => {
    const before = { name: 'Old', targetConfidence: null, maxResponses: 5, tags: ['a'] };
    const after = { name: 'New', targetConfidence: null, maxResponses: 5, tags: ['a', 'b'] };
    expect(settingsChange('p1', before, after)).toEqual({
      targetId: 'p1',
      before: { name: 'Old', tags: ['a'] },
      after: { name: 'New', tags: ['a', 'b'] },
    });
  });

  it('compares dates and missing values as JSON: an unchanged date is no change, a new key was null before', () => {
    const at = new Date('2026-11-28T10:00:00.000Z');
    expect(settingsChange('k', { expiresAt: at }, { expiresAt: new Date(at), secretReplaced: true })).toEqual({
      targetId: 'k',
      before: { secretReplaced: null },
      after: { secretReplaced: true },
    });
    expect(settingsChange('k', { a: 1 }, { a: 1 })).toEqual({ targetId: 'k', before: {}, after: {} });
  });

  it('pick keeps the named keys only', () => {
    expect(pick({ name: 'x', content: 'secret text', maxCents: 20 }, ['name', 'maxCents'])).toEqual({ name: 'x', maxCents: 20 });
  });
});

describe('clientAddress', () => {
  it('writes an IPv4 client of a dual-stack socket as IPv4, and leaves every other address as it is', () => {
    expect(clientAddress('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddress('::FFFF:10.0.0.1')).toBe('10.0.0.1');
    expect(clientAddress('2001:db8::1')).toBe('2001:db8::1');
    expect(clientAddress('::ffff:abcd')).toBe('::ffff:abcd');
    expect(clientAddress(undefined)).toBeNull();
  });
});

describe('tasksToHold', () => {
  const tasks = [
    { id: 'a', projectId: 'p', maxCents: 20 },
    { id: 'x', projectId: 'other', maxCents: 20 },
    { id: 'b', projectId: 'p', maxCents: 30 },
    { id: 'c', projectId: 'p', maxCents: 10 },
  ];

  it('admits the project’s tasks in order while they fit, and holds the first that does not and every one after it', () => {
    expect(tasksToHold(tasks, 'p', 45)).toEqual(['b', 'c']);
    expect(tasksToHold(tasks, 'p', 60)).toEqual([]);
    expect(tasksToHold(tasks, 'p', 0)).toEqual(['a', 'b', 'c']);
  });

  it('commitmentOf sums budgets per project and in all', () => {
    const commitment = commitmentOf([...tasks, { id: 'n', projectId: null, maxCents: 5 }]);
    expect(Object.fromEntries(commitment.byProject)).toEqual({ p: 60, other: 20 });
    expect(commitment.totalCents).toBe(85);
  });
});

describe('the retention the database enforces', () => {
  it('is AUDIT_RETENTION_DAYS, the figure the sweep and the docs use', async () => {
    const { readFile } = await import('node:fs/promises');
    const { AUDIT_RETENTION_DAYS } = await import('@concord/contract');
    const trigger = await readFile(new URL('../../prisma/functions/audit_log_append_only.sql', import.meta.url), 'utf8');
    expect(trigger).toContain(`interval '${AUDIT_RETENTION_DAYS} days'`);
  });
});
