// The charts' arithmetic: round ticks that reach the highest bar, and time-axis labels that stay apart.
import { describe, expect, it } from 'vitest';
import { formatAxisCents, valueTicks, xLabelSlots } from './chartScale';

describe('valueTicks', () => {
  it('climbs in round steps from 0 to the first tick at or above the highest value', () => {
    expect(valueTicks(88_000)).toEqual([0, 25_000, 50_000, 75_000, 100_000]);
    expect(valueTicks(4_780)).toEqual([0, 2_000, 4_000, 6_000]);
    expect(valueTicks(100)).toEqual([0, 25, 50, 75, 100]);
    expect(valueTicks(7)).toEqual([0, 2, 4, 6, 8]);
  });

  it('keeps integer values on integer steps, and has an axis for nothing', () => {
    expect(valueTicks(3)).toEqual([0, 1, 2, 3]);
    expect(valueTicks(0.3, 4, false)).toEqual([0, 0.1, 0.2, 0.3]);
    expect(valueTicks(0)).toEqual([0, 1]);
  });
});

describe('xLabelSlots', () => {
  it('labels about six bars counted back from the last, every other one minor', () => {
    expect(xLabelSlots(30)).toEqual([
      { index: 4, minor: true },
      { index: 9, minor: false },
      { index: 14, minor: true },
      { index: 19, minor: false },
      { index: 24, minor: true },
      { index: 29, minor: false },
    ]);
    expect(xLabelSlots(3).map((slot) => slot.index)).toEqual([0, 1, 2]);
    expect(xLabelSlots(0)).toEqual([]);
  });

  it('never labels two neighbouring bars when the minor labels are dropped', () => {
    for (let bars = 1; bars <= 90; bars++) {
      const kept = xLabelSlots(bars).filter((slot) => !slot.minor);
      expect(kept.at(-1)?.index).toBe(bars - 1);
      for (let i = 1; i < kept.length; i++) expect((kept[i]?.index ?? 0) - (kept[i - 1]?.index ?? 0)).toBeGreaterThanOrEqual(bars / 6);
    }
  });
});

describe('formatAxisCents', () => {
  it('writes whole dollars without cents, and cents where a tick has them', () => {
    expect(formatAxisCents(0)).toBe('$0');
    expect(formatAxisCents(100_000)).toBe('$1,000');
    expect(formatAxisCents(25)).toBe('$0.25');
  });
});
