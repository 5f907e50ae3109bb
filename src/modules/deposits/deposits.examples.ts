// OpenAPI examples of the deposit routes, by operationId (checked against the routes' schemas by
// test/unit/openapi-document.test.ts).
import type { EndpointExamples } from '../../lib/endpoint.ts';
import { EXAMPLE, EXAMPLE_CURSOR } from '../../lib/openapi-examples.ts';

const deposit = {
  id: EXAMPLE.depositId,
  status: 'PENDING',
  amountCents: 50000,
  bonusCents: 2500,
  method: 'card',
  checkoutUrl: 'https://checkout.stripe.com/c/pay/cs_live_a1B2c3D4e5F6g7H8i9J0',
  createdAt: EXAMPLE.createdAt,
  decidedAt: null,
};

export const depositExamples: Record<string, EndpointExamples> = {
  createDeposit: { request: { amountCents: 50000, method: 'card' }, response: deposit },
  listDeposits: { response: { deposits: [{ ...deposit, status: 'SUCCEEDED', decidedAt: EXAMPLE.later }], nextCursor: EXAMPLE_CURSOR, hasMore: true } },
  getDeposit: { response: { ...deposit, status: 'SUCCEEDED', decidedAt: EXAMPLE.later } },
  // The sandbox provider's confirmation (its Pay button sends it, signed in x-sandbox-signature).
  receivePaymentWebhook: { request: { type: 'deposit.succeeded', depositId: EXAMPLE.depositId }, response: { received: true, result: 'applied' } },
};
