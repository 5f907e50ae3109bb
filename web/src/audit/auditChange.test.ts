// An entry's change as rows: an update's touched settings old → new, a creation's values, a deletion's
// last values, a setting that stayed as it was; each value in words.
import { describe, expect, it } from 'vitest';
import { changeRows, changeSummary, formatSetting } from './auditChange';

describe('changeRows', () => {
  it('shows an update as each setting old → new', () => {
    expect(changeRows({ targetConfidence: null, maxResponses: 5 }, { targetConfidence: 0.97, maxResponses: 7 })).toEqual([
      { key: 'targetConfidence', before: 'none', after: '0.97', kind: 'changed' },
      { key: 'maxResponses', before: '5', after: '7', kind: 'changed' },
    ]);
  });

  it('keeps a setting that stayed as it was, marked so', () => {
    expect(changeRows({ email: 'a@b.example', role: 'member' }, { email: 'a@b.example', role: 'admin' })).toEqual([
      { key: 'email', before: 'a@b.example', after: 'a@b.example', kind: 'same' },
      { key: 'role', before: 'member', after: 'admin', kind: 'changed' },
    ]);
  });

  it('reads a setting only one side has as none on the other, after before’s own order', () => {
    expect(changeRows({ events: ['task.completed'] }, { secretRotated: true, events: ['task.completed', 'task.failed'] })).toEqual([
      { key: 'events', before: 'task.completed', after: 'task.completed, task.failed', kind: 'changed' },
      { key: 'secretRotated', before: 'none', after: 'yes', kind: 'changed' },
    ]);
  });

  it('shows a creation’s values and a deletion’s last values alone', () => {
    expect(changeRows(null, { name: 'Search relevance', description: null })).toEqual([
      { key: 'name', after: 'Search relevance', kind: 'set' },
      { key: 'description', after: 'none', kind: 'set' },
    ]);
    expect(changeRows({ name: 'CI', access: 'read' }, null)).toEqual([
      { key: 'name', before: 'CI', kind: 'removed' },
      { key: 'access', before: 'read', kind: 'removed' },
    ]);
  });

  it('has no row when nothing was recorded', () => {
    expect(changeRows(null, null)).toEqual([]);
    expect(changeRows({}, {})).toEqual([]);
  });
});

describe('changeSummary', () => {
  it('counts what changed, what a creation recorded, what a deletion removed', () => {
    expect(changeSummary({ a: 1, b: 2 }, { a: 1, b: 3 })).toBe('1 setting changed');
    expect(changeSummary({ a: 1, b: 2 }, { a: 2, b: 3 })).toBe('2 settings changed');
    expect(changeSummary(null, { a: 1, b: 2, c: 3 })).toBe('3 values recorded');
    expect(changeSummary({ a: 1 }, null)).toBe('1 value as they were');
    expect(changeSummary({}, {})).toBe('No settings recorded');
    expect(changeSummary({ a: 1 }, { a: 1 })).toBe('Nothing changed');
  });
});

describe('formatSetting', () => {
  it('words nulls, booleans, numbers and empty text', () => {
    expect(formatSetting('targetConfidence', null)).toBe('none');
    expect(formatSetting('isActive', false)).toBe('no');
    expect(formatSetting('isActive', true)).toBe('yes');
    expect(formatSetting('maxResponses', 7)).toBe('7');
    expect(formatSetting('targetConfidence', 0.975)).toBe('0.975');
    expect(formatSetting('description', '')).toBe('(empty)');
  });

  it('gives amounts of a …Cents setting in dollars', () => {
    expect(formatSetting('totalCostCents', 5000)).toBe('$50.00');
    expect(formatSetting('maxCents', 12)).toBe('$0.12');
  });

  it('gives an ISO time as a time, any other text as it is', () => {
    expect(formatSetting('expiresAt', '2026-06-01T23:59:59.999Z')).toBe('1 Jun 2026, 23:59 UTC');
    expect(formatSetting('url', 'https://hooks.example/2026-06-01T00:00')).toBe('https://hooks.example/2026-06-01T00:00');
  });

  it('joins a list, and gives an object as JSON', () => {
    expect(formatSetting('projectIds', ['p1', 'p2'])).toBe('p1, p2');
    expect(formatSetting('projectIds', [])).toBe('none');
    expect(formatSetting('scale', { levels: [1, 2] })).toBe('{"levels":[1,2]}');
  });
});
