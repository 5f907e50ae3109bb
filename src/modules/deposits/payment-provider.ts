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
