// The sandbox provider: the checkout is a page of this service (GET /sandbox/checkout/:checkoutId) whose Pay and
// Cancel buttons produce the same kind of signed confirmation a real provider sends to
// POST /api/v1/billing/providers/sandbox/webhook. The signature scheme follows Stripe's: header
// `x-sandbox-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, five minutes' tolerance.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { InvalidSignatureError, type Checkout, type CheckoutRequest, type Confirmation, type PaymentProvider } from './payment-provider.ts';

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';
const TOLERANCE_SECONDS = 300;

export interface SandboxEvent {
  type: 'deposit.succeeded' | 'deposit.cancelled';
  depositId: string;
}

const hmac = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('hex');

export class SandboxProvider implements PaymentProvider {
  readonly name = 'sandbox' as const;

  constructor(
    private readonly secret: string,
    private readonly publicUrl: string,
    private readonly nowSeconds: () => number = () => Math.floor(Date.now() / 1000),
  ) {}

  async createCheckout(request: CheckoutRequest): Promise<Checkout> {
    return { checkoutUrl: `${this.publicUrl}/sandbox/checkout/${request.checkoutId}`, providerRef: null };
  }

  /** The confirmation the Pay or Cancel button sends: the exact body and its signature header. */
  sign(event: SandboxEvent): { body: Buffer; signature: string } {
    const body = Buffer.from(JSON.stringify(event));
    const t = this.nowSeconds();
    return { body, signature: `t=${t},v1=${hmac(this.secret, `${t}.${body.toString('utf8')}`)}` };
  }

  parseConfirmation(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): Confirmation {
    const header = headers[SANDBOX_SIGNATURE_HEADER];
    const parts = new Map((typeof header === 'string' ? header : '').split(',').map((part) => part.trim().split('=', 2) as [string, string | undefined]));
    const t = Number(parts.get('t'));
    const given = parts.get('v1') ?? '';
    if (!Number.isInteger(t) || !/^[0-9a-f]{64}$/.test(given)) throw new InvalidSignatureError('Missing or malformed x-sandbox-signature');
    if (Math.abs(this.nowSeconds() - t) > TOLERANCE_SECONDS) throw new InvalidSignatureError('The signature timestamp is outside the tolerance');
    const expected = hmac(this.secret, `${t}.${rawBody.toString('utf8')}`);
    if (!timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(given, 'hex'))) throw new InvalidSignatureError();
    const event = JSON.parse(rawBody.toString('utf8')) as Partial<SandboxEvent>;
    if (typeof event.depositId !== 'string') return { kind: 'ignored', reason: 'no depositId' };
    if (event.type === 'deposit.succeeded') return { kind: 'decision', depositId: event.depositId, status: 'SUCCEEDED', providerRef: null };
    if (event.type === 'deposit.cancelled') return { kind: 'decision', depositId: event.depositId, status: 'CANCELLED', providerRef: null };
    return { kind: 'ignored', reason: `event type ${String(event.type)}` };
  }
}
