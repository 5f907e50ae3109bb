// The top-up form's amount rule, in the form's words.
import { MAX_DEPOSIT_CENTS, MIN_DEPOSIT_CENTS } from '@concord/contract';
import { describe, expect, it } from 'vitest';
import { amountProblem } from './bonus';

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
