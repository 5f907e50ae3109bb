// The project page's charts by kind: which kinds a project's completed tasks are of, a rating scale in its
// own order, a multi-select option's rate, pairwise results in words.
import { describe, expect, it } from 'vitest';
import {
  completedKinds,
  labelsNote,
  labelWords,
  mixesKinds,
  offeredTasks,
  optionRateWords,
  scaleBars,
  scaleMean,
  scaleWords,
  type KindCounts,
} from './distributionByKind';

const kinds = (counts: Partial<KindCounts>): KindCounts => ({ single: 0, rating: 0, multi: 0, pairwise: 0, text: 0, ...counts });

describe('completedKinds', () => {
  it('lists the kinds with completed tasks, the most first', () => {
    expect(completedKinds(kinds({ single: 12, rating: 40, multi: 3 }))).toEqual([
      { kind: 'rating', count: 40 },
      { kind: 'single', count: 12 },
      { kind: 'multi', count: 3 },
    ]);
    expect(mixesKinds(kinds({ single: 12, rating: 40 }))).toBe(true);
    expect(mixesKinds(kinds({ pairwise: 9 }))).toBe(false);
  });

  it('says a project mixes kinds only when two kinds have completed tasks', () => {
    expect(mixesKinds(kinds({ text: 2 }))).toBe(false);
    expect(mixesKinds(kinds({ single: 5, text: 2 }))).toBe(true);
  });
});

describe('labelWords', () => {
  it('words pairwise results where the project has pairwise tasks', () => {
    const pairs = kinds({ pairwise: 9 });
    expect(['A', 'B', 'tie'].map((label) => labelWords(label, pairs))).toEqual(['A is better', 'B is better', 'Tie']);
  });

  it('leaves the options of a project without pairwise tasks as they are', () => {
    expect(labelWords('A', kinds({ single: 3 }))).toBe('A');
  });
});

describe('labelsNote', () => {
  it('says how multi-select and text tasks count, and nothing for single choice', () => {
    expect(labelsNote(kinds({ single: 4 }))).toBe('');
    expect(labelsNote(kinds({ multi: 4 }))).toMatch(/once for each option/);
    expect(labelsNote(kinds({ text: 1, single: 1 }))).toMatch(/not labels/);
  });
});

describe('rating scales', () => {
  const scale = { levels: ['1', '2', '3', '4', '5'], counts: [0, 2, 5, 30, 13], tasks: 50 };

  it('keeps the scale’s order, lowest first, whatever the counts', () => {
    expect(scaleBars(scale).map((bar) => bar.level)).toEqual(['1', '2', '3', '4', '5']);
    expect(scaleBars(scale)[3]).toEqual({ level: '4', count: 30, share: 0.6 });
    expect(scaleBars({ levels: ['bad', 'good'], counts: [], tasks: 0 })).toEqual([
      { level: 'bad', count: 0, share: 0 },
      { level: 'good', count: 0, share: 0 },
    ]);
  });

  it('writes a short scale in full and a long one by its ends', () => {
    expect(scaleWords(scale.levels)).toBe('1 → 2 → 3 → 4 → 5');
    expect(scaleWords(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10'])).toBe('0 → 10, 11 levels');
    expect(scaleWords(['not at all relevant', 'somewhat relevant', 'highly relevant'])).toBe('not at all relevant → highly relevant, 3 levels');
  });

  it('gives the mean level of a numeric scale only', () => {
    expect(scaleMean(scale)).toBeCloseTo((2 * 2 + 3 * 5 + 4 * 30 + 5 * 13) / 50);
    expect(scaleMean({ levels: ['bad', 'ok', 'good'], counts: [1, 2, 3], tasks: 6 })).toBeNull();
    expect(scaleMean({ levels: ['1', '2'], counts: [0, 0], tasks: 0 })).toBeNull();
  });
});

describe('multi-select option rates', () => {
  it('knows the tasks exactly when every multi-select task offered the option', () => {
    expect(offeredTasks({ option: 'spam', count: 50, rate: 0.4167 }, 120)).toBe(120);
    expect(optionRateWords({ option: 'spam', count: 50, rate: 0.4167 }, 120)).toBe('42 % of 120 tasks');
    expect(optionRateWords({ option: 'ham', count: 0, rate: 0 }, 120)).toBe('0 % of 120 tasks');
  });

  it('reads the tasks from the rate when only some multi-select tasks offered it', () => {
    expect(offeredTasks({ option: 'pallet', count: 30, rate: 0.375 }, 120)).toBe(80);
    expect(optionRateWords({ option: 'pallet', count: 1, rate: 1 }, 120)).toBe('100 % of 1 task');
    expect(offeredTasks({ option: 'rare', count: 0, rate: 0 }, 0)).toBeNull();
    expect(optionRateWords({ option: 'rare', count: 0, rate: 0 }, 0)).toBe('never chosen');
  });
});
