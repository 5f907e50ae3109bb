// Money the dashboard previews and the service books (contract §6), in whole cents: a top-up's bounds and
// the bonus it earns. The dashboard computes the bonus from the tiers GET /meta lists, so the preview is
// what the service credits.
import { z } from 'zod';

/** A top-up is $5.00 to $100 000.00. */
export const MIN_DEPOSIT_CENTS = 500;
export const MAX_DEPOSIT_CENTS = 10_000_000;

export interface DepositBonusTier {
  readonly minCents: number;
  readonly percent: number;
}

/** contract §6: a deposit of at least `minCents` earns `percent` % bonus (the highest tier reached applies). */
export const DEPOSIT_BONUS_TIERS: readonly DepositBonusTier[] = Object.freeze([
  Object.freeze({ minCents: 50_000, percent: 5 }),
  Object.freeze({ minCents: 200_000, percent: 10 }),
]);

const byThreshold = (tiers: readonly DepositBonusTier[]) => [...tiers].sort((a, b) => a.minCents - b.minCents);

/** The tier an amount reaches, whatever order the tiers are listed in; undefined below the first. */
export function bonusTierFor(amountCents: number, tiers: readonly DepositBonusTier[] = DEPOSIT_BONUS_TIERS): DepositBonusTier | undefined {
  return byThreshold(tiers).findLast((tier) => amountCents >= tier.minCents);
}

/** The next tier above the amount, or undefined at the top. */
export function nextBonusTier(amountCents: number, tiers: readonly DepositBonusTier[] = DEPOSIT_BONUS_TIERS): DepositBonusTier | undefined {
  return byThreshold(tiers).find((tier) => tier.minCents > amountCents);
}

/** The bonus of a deposit: its tier's percentage, rounded down to whole cents; below every tier, 0. */
export function depositBonusCents(amountCents: number, tiers: readonly DepositBonusTier[] = DEPOSIT_BONUS_TIERS): number {
  const tier = bonusTierFor(amountCents, tiers);
  // Integer arithmetic first (amount × percent fits easily), so 5 % of 50 001 cents is 2 500, not 2 500.05.
  return tier ? Math.floor((amountCents * tier.percent) / 100) : 0;
}

/**
 * Spending caps (docs/organisations.md): a project's budget cap (over its whole life) and the organisation's
 * monthly cap (over the tasks created in a calendar month, UTC). What counts against a cap is what is
 * committed: the budgets reserved for its open tasks plus what its decided tasks were charged.
 */
export const CAP_SCOPES = ['project', 'organisation'] as const;
export type CapScope = (typeof CAP_SCOPES)[number];
/** The largest cap one can set, in cents ($100 000 000). */
export const MAX_CAP_CENTS = 10_000_000_000;
export const capCentsSchema = z.number().int().min(0).max(MAX_CAP_CENTS).nullable();
/** What a task past its project's cap meets: refused (402 BUDGET_CAP_REACHED), or held until the cap is set again. */
export const CAP_ACTIONS = ['refuse', 'hold'] as const;
export type CapAction = (typeof CAP_ACTIONS)[number];
/** GET /billing/caps lists at most this many capped projects, by name (a bounded report, not a paged list). */
export const MAX_LISTED_CAPS = 1_000;
