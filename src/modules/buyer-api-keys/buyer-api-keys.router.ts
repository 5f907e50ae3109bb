// Buyer API keys: server-to-server credentials that act as their buyer on every buyer route.
// Managing them is account management: a password session only (sessionOnly), never a key itself.
import { z } from 'zod';
import type { BuyerApiKeysService } from './buyer-api-keys.service.ts';
import { defineEndpoint } from '../../lib/endpoint.ts';
import { cursorSchema, idParams, limitSchema, pageInfo } from '../../lib/schemas.ts';
import type { KeyWithCreator } from './buyer-api-keys.service.ts';
import { buyerApiKeySchema, createApiKeyBody, createdApiKeySchema } from './buyer-api-keys.schemas.ts';
import { MAX_LIVE_API_KEYS } from '@concord/contract';
import { buyerApiKeyExamples } from './buyer-api-keys.examples.ts';

const toApiKey = (key: KeyWithCreator) => ({
  id: key.id,
  name: key.name,
  prefix: key.prefix,
  createdAt: key.createdAt.toISOString(),
  lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
  access: key.access,
  projectIds: key.projectIds.length > 0 ? key.projectIds : null,
  expiresAt: key.expiresAt?.toISOString() ?? null,
  createdBy: key.creatorEmail,
});

export function buyerApiKeyEndpoints({ buyerApiKeys }: { buyerApiKeys: BuyerApiKeysService }) {
  return [
    defineEndpoint({
      method: 'post',
      idempotent: 'router',
      path: '/api-keys',
      operationId: 'createApiKey',
      examples: buyerApiKeyExamples.createApiKey,
      tag: 'API keys',
      summary: 'Create an API key (its secret is in this response only)',
      access: 'buyer',
      permission: 'keys:write',
      sessionOnly: true,
      body: createApiKeyBody,
      status: 201,
      response: z.object({ apiKey: createdApiKeySchema }),
      errors: {
        400: `VALIDATION_ERROR, INVALID_PROJECT (a projectId that is not one of the organisation's projects) or LIMIT_EXCEEDED (${MAX_LIVE_API_KEYS} live keys per buyer)`,
      },
      handler: async ({ principal, actor, body }) => {
        const { key, secret } = await buyerApiKeys.create(principal, actor, body);
        return { apiKey: { ...toApiKey(key), secret } };
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/api-keys',
      operationId: 'listApiKeys',
      examples: buyerApiKeyExamples.listApiKeys,
      tag: 'API keys',
      summary: "The buyer's live API keys, newest first (never their secrets)",
      access: 'buyer',
      permission: 'keys:write',
      sessionOnly: true,
      query: z.strictObject({ limit: limitSchema, cursor: cursorSchema }),
      response: z.object({ apiKeys: z.array(buyerApiKeySchema), ...pageInfo }),
      handler: async ({ principal, query }) => {
        const page = await buyerApiKeys.list(principal.buyerId, query.limit, query.cursor);
        return { ...page, apiKeys: page.apiKeys.map(toApiKey) };
      },
    }),
    defineEndpoint({
      method: 'delete',
      path: '/api-keys/:id',
      operationId: 'revokeApiKey',
      notFound: 'API_KEY_NOT_FOUND',
      tag: 'API keys',
      summary: 'Revoke an API key: refused at once by every server process',
      access: 'buyer',
      permission: 'keys:write',
      sessionOnly: true,
      params: idParams,
      status: 204,
      handler: ({ actor, params }) => buyerApiKeys.revoke(actor, params.id),
    }),
  ];
}
