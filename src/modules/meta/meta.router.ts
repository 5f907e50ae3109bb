import { z } from 'zod';
import type { MetaService } from './meta.service.ts';
import { defineEndpoint } from '../../lib/endpoint.ts';
import { noQuery } from '../../lib/schemas.ts';
import { DEPOSIT_BONUS_TIERS } from '@concord/contract';
import { metaExamples } from './meta.examples.ts';

const metaSchema = z
  .object({
    environment: z.enum(['development', 'test', 'production']),
    paymentProvider: z.enum(['sandbox', 'stripe']),
    priceCents: z.number().int().meta({ description: 'What a completed task costs' }),
    defaultTargetConfidence: z
      .number()
      .meta({ description: "The target confidence (CONSENSUS_THRESHOLD) of tasks whose project sets none (a project's targetConfidence is null)" }),
    lowBalanceThresholdCents: z.number().int().meta({ description: 'budget.low fires when the balance drops below this' }),
    depositBonusTiers: z
      .array(z.object({ minCents: z.number().int(), percent: z.number() }))
      .max(DEPOSIT_BONUS_TIERS.length)
      .meta({ description: 'A deposit of at least minCents earns percent % bonus; the highest tier reached applies' }),
    localAdmin: z
      .object({ email: z.string(), file: z.string().meta({ description: 'The file that holds its password, on the server' }) })
      .nullable()
      .meta({ description: 'In development only, when start-up created the local admin; the password is never sent' }),
  })
  .meta({ id: 'ServiceMeta' });

export function metaEndpoints({ meta }: { meta: MetaService }) {
  return [
    defineEndpoint({
      method: 'get',
      path: '/meta',
      operationId: 'getMeta',
      examples: metaExamples.getMeta,
      tag: 'Meta',
      summary: 'How this service runs: environment, payments, prices',
      access: 'public',
      query: noQuery,
      response: metaSchema,
      handler: () => meta.describe(),
    }),
  ];
}
