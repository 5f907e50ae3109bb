// The dashboard's task vocabulary: its order and what it recognises (the values are the contract's, by type).
import { describe, expect, it } from 'vitest';
import { isLocale, isStatus, isTaskType, STATUSES, typeLabel } from './vocabulary';

describe('task vocabulary', () => {
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
