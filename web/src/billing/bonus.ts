// The top-up amount as the API checks it (contract §6), in words. The bonus itself is the contract's
// depositBonusCents, fed GET /meta's tiers, so the preview is what the service credits.
import { MAX_DEPOSIT_CENTS, MIN_DEPOSIT_CENTS } from '@concord/contract';

/** The amount field's problem in words, checked as the API checks it; null when it is fine. `typed` is the text as entered. */
export function amountProblem(amountCents: number | null, formatCents: (cents: number) => string, typed = ''): string | null {
  if (amountCents === null && /^\s*[-−]/.test(typed)) return 'The amount must be positive: enter what you want to add, such as 100.';
  if (amountCents === null) return 'Enter an amount in dollars, such as 100 or 250.50.';
  if (amountCents < MIN_DEPOSIT_CENTS) return `The smallest top-up is ${formatCents(MIN_DEPOSIT_CENTS)}.`;
  if (amountCents > MAX_DEPOSIT_CENTS) return `The largest top-up is ${formatCents(MAX_DEPOSIT_CENTS)}.`;
  return null;
}
