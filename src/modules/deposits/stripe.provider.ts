// Stripe Checkout behind the PaymentProvider interface. A deposit opens a Checkout Session (one line
// item of the deposit's amount, in USD) carrying the deposit id; Stripe's webhook events decide it:
// checkout.session.completed with payment_status paid, or async_payment_succeeded → SUCCEEDED;
// async_payment_failed → FAILED; expired → CANCELLED. Signatures are checked with Stripe's own helper.
import Stripe from 'stripe';
import { InvalidSignatureError, type Checkout, type CheckoutRequest, type Confirmation, type PaymentProvider } from './payment-provider.ts';

export class StripeProvider implements PaymentProvider {
  readonly name = 'stripe' as const;
  private readonly stripe: Stripe;

  constructor(
    secretKey: string,
    private readonly webhookSecret: string,
    private readonly publicUrl: string,
  ) {
    this.stripe = new Stripe(secretKey);
  }

  async createCheckout(request: CheckoutRequest): Promise<Checkout> {
    const session = await this.stripe.checkout.sessions.create({
      mode: 'payment',
      client_reference_id: request.depositId,
      metadata: { depositId: request.depositId },
      payment_intent_data: { metadata: { depositId: request.depositId } },
      ...(request.buyerEmail ? { customer_email: request.buyerEmail } : {}),
      line_items: [
        {
          quantity: 1,
          price_data: { currency: 'usd', unit_amount: request.amountCents, product_data: { name: 'Concord credit' } },
        },
      ],
      // Back to the deposit's status page (GET /checkout/:checkoutId) either way; the webhook decides it.
      success_url: `${this.publicUrl}/checkout/${request.checkoutId}`,
      cancel_url: `${this.publicUrl}/checkout/${request.checkoutId}`,
    });
    if (!session.url) throw new Error('Stripe returned a Checkout Session without a URL');
    return { checkoutUrl: session.url, providerRef: session.id };
  }

  parseConfirmation(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): Confirmation {
    const signature = headers['stripe-signature'];
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(rawBody, typeof signature === 'string' ? signature : '', this.webhookSecret);
    } catch (error) {
      throw new InvalidSignatureError(error instanceof Error ? error.message : 'Invalid Stripe signature');
    }
    const status = statusFor(event);
    if (!status) return { kind: 'ignored', reason: `event type ${event.type}` };
    const session = event.data.object as Stripe.Checkout.Session;
    const depositId = session.metadata?.depositId ?? session.client_reference_id;
    if (!depositId) return { kind: 'ignored', reason: 'no deposit id on the session' };
    return { kind: 'decision', depositId, status, providerRef: session.id };
  }
}

function statusFor(event: Stripe.Event): 'SUCCEEDED' | 'CANCELLED' | 'FAILED' | null {
  switch (event.type) {
    case 'checkout.session.completed':
      // Delayed methods complete the session unpaid and confirm later with async_payment_succeeded.
      return event.data.object.payment_status === 'paid' ? 'SUCCEEDED' : null;
    case 'checkout.session.async_payment_succeeded':
      return 'SUCCEEDED';
    case 'checkout.session.async_payment_failed':
      return 'FAILED';
    case 'checkout.session.expired':
      return 'CANCELLED';
    default:
      return null;
  }
}
