// OpenAPI examples of the buyer API key routes, by operationId (checked against the routes' schemas by
// test/unit/openapi-document.test.ts).
import type { EndpointExamples } from '../../lib/endpoint.ts';
import { EXAMPLE } from '../../lib/openapi-examples.ts';

// A sandbox (`cnc_test_`) key made up for the documentation: it authenticates nowhere.
const secret = 'cnc_test_4fQx9TzLm2WcVb7NpRk3YhJd8GsA6eUo1XiKq5BnMtZ';
const apiKey = {
  id: EXAMPLE.apiKeyId,
  name: 'Production ingest',
  prefix: secret.slice(0, 14),
  createdAt: EXAMPLE.createdAt,
  lastUsedAt: null,
  access: 'write',
  projectIds: [EXAMPLE.projectId],
  expiresAt: '2027-03-14T00:00:00.000Z',
  createdBy: EXAMPLE.buyerEmail,
};

export const buyerApiKeyExamples: Record<string, EndpointExamples> = {
  createApiKey: {
    request: { name: 'Production ingest', access: 'write', projectIds: [EXAMPLE.projectId], expiresAt: apiKey.expiresAt },
    response: { apiKey: { ...apiKey, secret } },
  },
  listApiKeys: { response: { apiKeys: [{ ...apiKey, lastUsedAt: EXAMPLE.updatedAt }], nextCursor: null, hasMore: false } },
};
