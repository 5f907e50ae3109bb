// OpenAPI examples of the billing routes, by operationId (checked against the routes' schemas by
// test/unit/openapi-document.test.ts).
import type { EndpointExamples } from '../../lib/endpoint.ts';
import { EXAMPLE, EXAMPLE_CURSOR } from '../../lib/openapi-examples.ts';

export const billingExamples: Record<string, EndpointExamples> = {
  listLedgerEntries: {
    response: {
      entries: [
        {
          id: EXAMPLE.ledgerEntryId,
          type: 'TASK_CHARGE',
          amountCents: -20,
          balanceAfterCents: 48200,
          taskId: EXAMPLE.taskId,
          reason: null,
          createdAt: EXAMPLE.later,
        },
        {
          id: 'cm3q7w5d5000alk08x0y1z2a3',
          type: 'DEPOSIT',
          amountCents: 45000,
          balanceAfterCents: 48220,
          taskId: null,
          reason: null,
          createdAt: EXAMPLE.createdAt,
        },
      ],
      nextCursor: EXAMPLE_CURSOR,
      hasMore: true,
    },
  },
  getSpend: {
    response: {
      days: [
        { date: '2026-03-13', chargedCents: 3180, depositedCents: 47250, adjustedCents: 0, completedTasks: 159 },
        { date: '2026-03-14', chargedCents: 2960, depositedCents: 0, adjustedCents: 2500, completedTasks: 148 },
      ],
      totalChargedCents: 6140,
      totalDepositedCents: 47250,
      totalAdjustedCents: 2500,
    },
  },
};
