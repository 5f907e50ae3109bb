// OpenAPI examples of GET /meta (checked against its schema by test/unit/openapi-document.test.ts).
import type { EndpointExamples } from '../../lib/endpoint.ts';

export const metaExamples: Record<string, EndpointExamples> = {
  getMeta: {
    response: {
      environment: 'production',
      paymentProvider: 'stripe',
      priceCents: 20,
      defaultTargetConfidence: 0.95,
      lowBalanceThresholdCents: 500,
      depositBonusTiers: [
        { minCents: 50000, percent: 5 },
        { minCents: 200000, percent: 10 },
      ],
      localAdmin: null,
    },
  },
};
