// The warning before a split download that leaves a file empty, with the service's own part sizes.
import { describe, expect, it } from 'vitest';
import { forecastSplit } from './splitWarning';

const usual = { train: 0.8, val: 0.1, test: 0.1 };

describe('forecastSplit', () => {
  it('names the empty part and the sizes that make it so', () => {
    expect(forecastSplit(3, usual)).toEqual({
      sizes: { train: 2, val: 0, test: 1 },
      empty: ['val'],
      warning: 'val will be empty: 3 tasks at 0.8/0.1/0.1 give train 2, val 0, test 1',
    });
  });

  it('names every empty part, in file order', () => {
    expect(forecastSplit(1, usual).warning).toBe('val and test will be empty: 1 task at 0.8/0.1/0.1 gives train 1, val 0, test 0');
    expect(forecastSplit(2, { train: 0, val: 0.5, test: 0.5 }).warning).toBe('train will be empty: 2 tasks at 0/0.5/0.5 give train 0, val 1, test 1');
    expect(forecastSplit(100, { train: 0.9, val: 0.1, test: 0 }).empty).toEqual(['test']);
  });

  it('stays quiet when every part gets a record, or when nothing is exported at all', () => {
    expect(forecastSplit(10, usual)).toEqual({ sizes: { train: 8, val: 1, test: 1 }, empty: [], warning: null });
    expect(forecastSplit(1_000, usual).warning).toBeNull();
    expect(forecastSplit(0, usual)).toEqual({ sizes: { train: 0, val: 0, test: 0 }, empty: ['train', 'val', 'test'], warning: null });
  });
});
