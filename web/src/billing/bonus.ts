// The top-up rules as the API applies them (contract §6), computed from GET /meta's tiers so the preview
// never drifts from what the service credits: the highest tier reached, rounded down to whole cents.

export const MIN_DEPOSIT_CENTS = 500;
export const MAX_DEPOSIT_CENTS = 10_000_000;

export interface Tier {
  minCents: number;
  percent: number;
}

const byThreshold = (tiers: readonly Tier[]) => [...tiers].sort((a, b) => a.minCents - b.minCents);

/** The tier an amount reaches, or undefined below the first. */
export function tierFor(amountCents: number, tiers: readonly Tier[]): Tier | undefined {
  return byThreshold(tiers)
    .filter((tier) => amountCents >= tier.minCents)
    .pop();
}

/** Bonus cents for a deposit: the reached tier's percent, rounded down. */
export function bonusCents(amountCents: number, tiers: readonly Tier[]): number {
  const tier = tierFor(amountCents, tiers);
  // Integer arithmetic first (amount × percent fits easily), so 5 % of 50 001 cents is 2 500, not 2 500.05.
  return tier ? Math.floor((amountCents * tier.percent) / 100) : 0;
}

/** The next tier above the amount, or undefined at the top. */
export function nextTier(amountCents: number, tiers: readonly Tier[]): Tier | undefined {
  return byThreshold(tiers).find((tier) => tier.minCents > amountCents);
}

/** The amount field's problem in words, checked as the API checks it; null when it is fine. `typed` is the text as entered. */
export function amountProblem(amountCents: number | null, formatCents: (cents: number) => string, typed = ''): string | null {
  if (amountCents === null && /^\s*[-−]/.test(typed)) return 'The amount must be positive: enter what you want to add, such as 100.';
  if (amountCents === null) return 'Enter an amount in dollars, such as 100 or 250.50.';
  if (amountCents < MIN_DEPOSIT_CENTS) return `The smallest top-up is ${formatCents(MIN_DEPOSIT_CENTS)}.`;
  if (amountCents > MAX_DEPOSIT_CENTS) return `The largest top-up is ${formatCents(MAX_DEPOSIT_CENTS)}.`;
  return null;
}
