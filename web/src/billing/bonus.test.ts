// The top-up form's bonus preview against the bonus the service credits (src/modules/deposits), fed the
// tiers GET /meta returns.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEPOSIT_BONUS_TIERS, depositBonusCents } from '../../../src/modules/deposits/payment-provider.ts';
import { amountProblem, bonusCents, MAX_DEPOSIT_CENTS, MIN_DEPOSIT_CENTS, nextTier, tierFor } from './bonus';

const amount = fc.oneof(
  fc.integer({ min: MIN_DEPOSIT_CENTS, max: MAX_DEPOSIT_CENTS }),
  // The cents around each tier's threshold, where rounding and "at least" matter.
  fc.constantFrom(...DEPOSIT_BONUS_TIERS.flatMap((tier) => [tier.minCents - 1, tier.minCents, tier.minCents + 1])),
);

describe('bonusCents', () => {
  it('previews exactly the bonus the service credits, whatever order /meta lists the tiers in', () => {
    fc.assert(
      fc.property(amount, fc.boolean(), (cents, reversed) => {
        const tiers = reversed ? [...DEPOSIT_BONUS_TIERS].reverse() : DEPOSIT_BONUS_TIERS;
        expect(bonusCents(cents, tiers)).toBe(depositBonusCents(cents));
      }),
      { numRuns: 5000 },
    );
  });

  it('names the tier reached and the next one', () => {
    const [first, second] = DEPOSIT_BONUS_TIERS;
    expect(tierFor(MIN_DEPOSIT_CENTS, DEPOSIT_BONUS_TIERS)).toBeUndefined();
    expect(nextTier(MIN_DEPOSIT_CENTS, DEPOSIT_BONUS_TIERS)).toEqual(first);
    expect(tierFor(second?.minCents ?? 0, DEPOSIT_BONUS_TIERS)).toEqual(second);
    expect(nextTier(second?.minCents ?? 0, DEPOSIT_BONUS_TIERS)).toBeUndefined();
  });
});

describe('amountProblem', () => {
  const cents = (n: number) => `$${(n / 100).toFixed(2)}`;
  it('refuses what the API refuses (500 to 10 000 000 cents)', () => {
    expect(amountProblem(null, cents)).toMatch(/Enter an amount/);
    expect(amountProblem(null, cents, '-50')).toMatch(/must be positive/);
    expect(amountProblem(MIN_DEPOSIT_CENTS - 1, cents)).toBe('The smallest top-up is $5.00.');
    expect(amountProblem(MIN_DEPOSIT_CENTS, cents)).toBeNull();
    expect(amountProblem(MAX_DEPOSIT_CENTS, cents)).toBeNull();
    expect(amountProblem(MAX_DEPOSIT_CENTS + 1, cents)).toMatch(/largest/);
  });
});
