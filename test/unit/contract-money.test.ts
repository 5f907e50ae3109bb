// A top-up's bonus (contract §6): the highest tier reached, rounded down to whole cents, whatever order
// the tiers are listed in (the dashboard gets them from GET /meta).
import { bonusTierFor, DEPOSIT_BONUS_TIERS, depositBonusCents, MAX_DEPOSIT_CENTS, MIN_DEPOSIT_CENTS, nextBonusTier } from '@concord/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

describe('depositBonusCents', () => {
  it('is 0 below $500, 5 % from $500 and 10 % from $2 000, rounded down', () => {
    expect(depositBonusCents(49_999)).toBe(0);
    expect(depositBonusCents(50_000)).toBe(2_500);
    expect(depositBonusCents(50_019)).toBe(2_500);
    expect(depositBonusCents(199_999)).toBe(9_999);
    expect(depositBonusCents(200_000)).toBe(20_000);
    expect(depositBonusCents(MAX_DEPOSIT_CENTS)).toBe(1_000_000);
  });

  it('takes the highest tier reached, whatever order the tiers come in', () => {
    const reversed = [...DEPOSIT_BONUS_TIERS].reverse();
    fc.assert(
      fc.property(fc.integer({ min: MIN_DEPOSIT_CENTS, max: MAX_DEPOSIT_CENTS }), (cents) => {
        const percent = cents >= 200_000 ? 10 : cents >= 50_000 ? 5 : 0;
        expect(depositBonusCents(cents, reversed)).toBe(Math.floor((cents * percent) / 100));
        expect(depositBonusCents(cents, reversed)).toBe(depositBonusCents(cents));
      }),
      { numRuns: 2_000 },
    );
  });

  it('names the tier reached and the next one', () => {
    const [first, second] = DEPOSIT_BONUS_TIERS;
    expect(bonusTierFor(MIN_DEPOSIT_CENTS)).toBeUndefined();
    expect(nextBonusTier(MIN_DEPOSIT_CENTS)).toEqual(first);
    expect(bonusTierFor(second?.minCents ?? 0)).toEqual(second);
    expect(nextBonusTier(second?.minCents ?? 0)).toBeUndefined();
  });
});
