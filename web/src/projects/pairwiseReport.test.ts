// The project page's pairwise report: win rates as heat-map cells and the annotators' position bias in words.
import { describe, expect, it } from 'vitest';
import { biasWords, formatSigned, hasPairwiseData, heatColor, summariseBias, winRateText } from './pairwiseReport';

describe('winRateText', () => {
  it('is a whole percentage, and a dash where two candidates were never compared', () => {
    expect(winRateText(0.6667)).toBe('67 %');
    expect(winRateText(0)).toBe('0 %');
    expect(winRateText(1)).toBe('100 %');
    expect(winRateText(null)).toBe('—');
  });
});

describe('heatColor', () => {
  it('is white at an even 50 %, green as the row wins more, red as it loses more, none when never compared', () => {
    expect(heatColor(0.5)).toBe('rgb(255, 255, 255)');
    expect(heatColor(1)).toBe('rgb(109, 189, 140)');
    expect(heatColor(0)).toBe('rgb(226, 144, 130)');
    expect(heatColor(null)).toBeNull();
  });

  it('deepens with the margin', () => {
    const green = (share: number) => Number(/rgb\((\d+)/.exec(heatColor(share) ?? '')?.[1]);
    expect(green(0.9)).toBeLessThan(green(0.7));
    expect(green(0.7)).toBeLessThan(green(0.55));
  });
});

describe('formatSigned and biasWords', () => {
  it('sign the bias with a true minus and say which side an annotator leans to beyond ±0.2', () => {
    expect(formatSigned(0.354)).toBe('+0.35');
    expect(formatSigned(-0.08)).toBe('−0.08');
    expect(formatSigned(-0.001)).toBe('0.00');
    expect(biasWords(0.35)).toBe('+0.35: leans to the first shown');
    expect(biasWords(-0.42)).toBe('−0.42: leans to the second shown');
    expect(biasWords(0.2)).toBe('+0.20: no clear lean');
    expect(biasWords(null)).toBe('Not measured yet');
  });
});

describe('summariseBias', () => {
  it('counts the annotators, those measured, and those leaning either way beyond the threshold', () => {
    expect(summariseBias([{ positionBias: 0.5 }, { positionBias: -0.3 }, { positionBias: 0.1 }, { positionBias: null }, { positionBias: 0.21 }])).toEqual({
      annotators: 5,
      measured: 4,
      leanFirst: 2,
      leanSecond: 1,
    });
  });
});

describe('hasPairwiseData', () => {
  it('shows the section only for a project with groups or pairwise annotators', () => {
    expect(hasPairwiseData(undefined)).toBe(false);
    expect(hasPairwiseData({ groups: [], annotators: [] })).toBe(false);
    expect(hasPairwiseData({ groups: [], annotators: [{ answers: 3, reliability: 0.9, positionBias: null }] })).toBe(true);
  });
});
