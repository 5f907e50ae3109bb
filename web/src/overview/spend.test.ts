// The overview chart's two series: money in and money out per day, never one read as the other.
import { describe, expect, it } from 'vitest';
import { spendBars, SPEND_SERIES } from './spend';

const day = (date: string, depositedCents: number, chargedCents: number, adjustedCents = 0) => ({ date, depositedCents, chargedCents, adjustedCents });

describe('spendBars', () => {
  it('gives each day its credits and its charges as two separate values, in series order', () => {
    expect(SPEND_SERIES.map((series) => series.name)).toEqual(['Credited', 'Charged']);
    expect(spendBars([day('2026-11-24', 0, 0), day('2026-11-25', 88_000, 4_780)], (date) => date.slice(5))).toEqual([
      { label: '11-24', values: [0, 0] },
      { label: '11-25', values: [88_000, 4_780] },
    ]);
  });

  it('counts a credit adjustment as money in and a debit as money out', () => {
    expect(spendBars([day('2026-11-24', 1_000, 200, 500), day('2026-11-25', 0, 300, -250)], String).map((bar) => bar.values)).toEqual([
      [1_500, 200],
      [0, 550],
    ]);
  });
});
