import { MAX_DEPOSIT_CENTS, MIN_DEPOSIT_CENTS } from '@concord/contract';
import { z } from 'zod';
import type { DepositsService } from './deposits.service.ts';
import { defineEndpoint } from '../../lib/endpoint.ts';
import { cursorSchema, idParams, limitSchema, pageInfo, timestamp } from '../../lib/schemas.ts';
import type { DepositRecord } from './deposits.repository.ts';
import { depositExamples } from './deposits.examples.ts';

export const depositSchema = z
  .object({
    id: z.string(),
    status: z.enum(['PENDING', 'SUCCEEDED', 'CANCELLED', 'FAILED']),
    amountCents: z.number().int(),
    bonusCents: z.number().int().meta({ description: '5 % from 50 000 cents, 10 % from 200 000, rounded down; credited with the deposit' }),
    method: z.enum(['card', 'mobile_money']),
    checkoutUrl: z.string().meta({ description: "Where the buyer pays: the provider's checkout page" }),
    createdAt: timestamp,
    decidedAt: timestamp.nullable(),
  })
  .meta({ id: 'Deposit' });

const createBody = z.strictObject({
  amountCents: z.number().int().min(MIN_DEPOSIT_CENTS).max(MAX_DEPOSIT_CENTS),
  method: z.enum(['card', 'mobile_money']),
});

export const toDeposit = (deposit: DepositRecord) => ({
  id: deposit.id,
  status: deposit.status,
  amountCents: deposit.amountCents,
  bonusCents: deposit.bonusCents,
  method: deposit.method,
  checkoutUrl: deposit.checkoutUrl,
  createdAt: deposit.createdAt.toISOString(),
  decidedAt: deposit.decidedAt?.toISOString() ?? null,
});

export function depositEndpoints({ deposits }: { deposits: DepositsService }) {
  return [
    defineEndpoint({
      method: 'post',
      idempotent: 'router',
      path: '/billing/deposits',
      operationId: 'createDeposit',
      examples: depositExamples.createDeposit,
      tag: 'Billing',
      summary: "Start a top-up: returns the provider's checkoutUrl",
      access: 'buyer',
      permission: 'money:write',
      body: createBody,
      status: 201,
      response: depositSchema,
      handler: async ({ actor, body }) => toDeposit(await deposits.create(actor, body)),
    }),
    defineEndpoint({
      method: 'get',
      path: '/billing/deposits',
      operationId: 'listDeposits',
      examples: depositExamples.listDeposits,
      tag: 'Billing',
      summary: "The buyer's deposits, newest first",
      access: 'buyer',
      permission: 'money:read',
      query: z.strictObject({ limit: limitSchema, cursor: cursorSchema }),
      response: z.object({ deposits: z.array(depositSchema), ...pageInfo }),
      handler: async ({ principal, query }) => {
        const page = await deposits.list(principal.buyerId, query.limit, query.cursor);
        return { ...page, deposits: page.deposits.map(toDeposit) };
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/billing/deposits/:id',
      operationId: 'getDeposit',
      examples: depositExamples.getDeposit,
      notFound: 'DEPOSIT_NOT_FOUND',
      tag: 'Billing',
      summary: 'One deposit',
      access: 'buyer',
      permission: 'money:read',
      params: idParams,
      response: depositSchema,
      errors: { 404: 'DEPOSIT_NOT_FOUND' },
      handler: async ({ principal, params }) => toDeposit(await deposits.get(principal.buyerId, params.id)),
    }),
    defineEndpoint({
      method: 'post',
      path: '/billing/providers/:provider/webhook',
      operationId: 'receivePaymentWebhook',
      examples: depositExamples.receivePaymentWebhook,
      notFound: 'NOT_FOUND',
      tag: 'Billing',
      summary: "The payment provider's signed confirmation (Stripe: stripe-signature; sandbox: x-sandbox-signature)",
      access: 'public',
      bodyBytes: true,
      params: z.strictObject({ provider: z.string().min(1).max(32) }),
      rawBody: z.unknown().meta({ description: "The provider's event, verified against its exact bytes" }),
      response: z.object({ received: z.literal(true), result: z.enum(['applied', 'duplicate', 'ignored']) }),
      errors: { 400: 'INVALID_SIGNATURE (nothing changes)', 404: 'NOT_FOUND (not the configured provider)' },
      handler: async ({ params, req }) => {
        const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        return { received: true, result: await deposits.confirm(params.provider, raw, req.headers) };
      },
    }),
  ];
}
