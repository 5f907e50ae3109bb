// The dashboard's task vocabulary is the service's: the same five types and the contract's six locales.
import { describe, expect, it } from 'vitest';
import { LOCALES as SERVICE_LOCALES, TASK_TYPES as SERVICE_TYPES } from '../../../src/modules/tasks/task-rules.ts';
import { isLocale, isStatus, isTaskType, LOCALES, STATUSES, TASK_TYPES, typeLabel } from './vocabulary';

describe('task vocabulary', () => {
  it('offers exactly the service’s task types and locales', () => {
    expect(TASK_TYPES.map((t) => t.value).sort()).toEqual([...SERVICE_TYPES].sort());
    expect(LOCALES.map((l) => l.value).sort()).toEqual([...SERVICE_LOCALES].sort());
    expect(LOCALES).toHaveLength(6);
  });

  it('lists the statuses in the order a task goes through them', () => {
    expect(STATUSES.map((s) => s.value)).toEqual(['PENDING', 'VALIDATING', 'COMPLETED', 'FAILED']);
  });

  it('recognises only its own values, even inherited property names', () => {
    expect(isTaskType('BINARY_CHOICE')).toBe(true);
    expect(isLocale('ar')).toBe(true);
    expect(isStatus('FAILED')).toBe(true);
    for (const value of ['toString', 'constructor', '', null, 'EN']) {
      expect(isTaskType(value)).toBe(false);
      expect(isLocale(value)).toBe(false);
      expect(isStatus(value)).toBe(false);
    }
    expect(typeLabel('UNKNOWN')).toBe('UNKNOWN');
  });
});
