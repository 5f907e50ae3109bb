// What a payment provider does for Concord: open a checkout for a deposit, and turn its signed
// confirmation (the raw webhook request) into a decision about that deposit. The sandbox and Stripe
// Checkout sit behind this one interface; the deposit service never knows which one it talks to.
export type ProviderName = 'sandbox' | 'stripe';

export interface CheckoutRequest {
  depositId: string;
  /** The deposit's unguessable checkout id: the only key to its checkout pages (contract §6). */
  checkoutId: string;
  amountCents: number;
  method: 'card' | 'mobile_money';
  buyerEmail: string | null;
}

export interface Checkout {
  checkoutUrl: string;
  /** The provider's own id for the checkout (a Stripe Checkout Session id), if it has one. */
  providerRef: string | null;
}

/** What a verified confirmation says about a deposit; `ignored` for events that decide nothing. */
export type Confirmation =
  { kind: 'decision'; depositId: string; status: 'SUCCEEDED' | 'CANCELLED' | 'FAILED'; providerRef: string | null } | { kind: 'ignored'; reason: string };

export class InvalidSignatureError extends Error {
  constructor(message = 'The confirmation signature does not verify') {
    super(message);
    this.name = 'InvalidSignatureError';
  }
}

export interface PaymentProvider {
  readonly name: ProviderName;
  createCheckout(request: CheckoutRequest): Promise<Checkout>;
  /** Verifies the signature over the exact body bytes; throws InvalidSignatureError when it does not hold. */
  parseConfirmation(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): Confirmation;
}

/** contract §6: a deposit of at least `minCents` earns `percent` % bonus (the highest tier reached applies). */
export const DEPOSIT_BONUS_TIERS: ReadonlyArray<{ readonly minCents: number; readonly percent: number }> = Object.freeze([
  Object.freeze({ minCents: 50_000, percent: 5 }),
  Object.freeze({ minCents: 200_000, percent: 10 }),
]);

/** The bonus of a deposit: its tier's percentage, rounded down to whole cents; below every tier, 0. */
export function depositBonusCents(amountCents: number): number {
  const tier = DEPOSIT_BONUS_TIERS.findLast((candidate) => amountCents >= candidate.minCents);
  return tier ? Math.floor((amountCents * tier.percent) / 100) : 0;
}
