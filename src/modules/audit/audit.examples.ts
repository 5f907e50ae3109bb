// OpenAPI examples of the audit log, by operationId (checked against the routes' schemas by
// test/unit/openapi-document.test.ts).
import type { EndpointExamples } from '../../lib/endpoint.ts';
import { EXAMPLE } from '../../lib/openapi-examples.ts';

const person = { kind: 'member', accountId: EXAMPLE.buyerId, email: EXAMPLE.buyerEmail, apiKeyId: null, apiKeyName: null, apiKeyPrefix: null };

export const auditExamples: Record<string, EndpointExamples> = {
  listAuditLog: {
    response: {
      entries: [
        {
          id: 'aud_cm3q7wbj2000glk08w5x6y7z8',
          at: EXAMPLE.updatedAt,
          actor: person,
          ip: '203.0.113.24',
          action: 'updateProject',
          target: { type: 'project', id: EXAMPLE.projectId },
          before: { targetConfidence: null },
          after: { targetConfidence: 0.97 },
        },
        {
          id: 'aud_cm3q7wbj2000hlk08a9b0c1d2',
          at: EXAMPLE.later,
          actor: { kind: 'apiKey', accountId: null, email: null, apiKeyId: EXAMPLE.apiKeyId, apiKeyName: 'Production ingest', apiKeyPrefix: 'cnc_test_4fQx9' },
          ip: '198.51.100.7',
          action: 'createTaskBatch',
          target: { type: 'tasks', id: null },
          before: null,
          after: { created: 250, totalCostCents: 5000, projectIds: [EXAMPLE.projectId] },
        },
      ],
      nextCursor: null,
      hasMore: false,
    },
  },
};
