// Durations as the task pages say them: no zero part ("about 5 min", not "about 5 min 0 s").
import { describe, expect, it } from 'vitest';
import { formatDuration } from './taskFormat';

describe('formatDuration', () => {
  it('drops a zero part and never shows 60 seconds', () => {
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(4_200)).toBe('4.2 s');
    expect(formatDuration(300_000)).toBe('5 min');
    expect(formatDuration(312_000)).toBe('5 min 12 s');
    expect(formatDuration(359_700)).toBe('6 min');
    expect(formatDuration(7_200_000)).toBe('2 h');
    expect(formatDuration(7_500_000)).toBe('2 h 5 min');
  });
});
