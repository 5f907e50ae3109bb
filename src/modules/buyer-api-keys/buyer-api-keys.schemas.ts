import { API_KEY_ACCESS, API_KEY_MAX_PROJECTS, API_KEY_NAME_MAX_LENGTH } from '@concord/contract';
import { z } from 'zod';
import { timestamp } from '../../lib/schemas.ts';

export const createApiKeyBody = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1)
    .max(API_KEY_NAME_MAX_LENGTH)
    .meta({ description: `What the key is for (1–${API_KEY_NAME_MAX_LENGTH} characters), e.g. "Production ingest"` }),
  access: z
    .enum(API_KEY_ACCESS)
    .default('write')
    .meta({ description: '`write` (default): every buyer route but account management; `read`: what a viewer reads (every write is 403)' }),
  projectIds: z.array(z.string().min(1).max(64)).min(1).max(API_KEY_MAX_PROJECTS).optional().meta({
    description:
      'Limit the key to these projects of the organisation (400 INVALID_PROJECT for one that is not): it sees and creates only their tasks, lists are filtered, and routes that reach the whole organisation (events, webhooks, money, golden tasks, creating projects) are 403. Absent: the whole organisation',
  }),
  expiresAt: timestamp.optional().meta({ description: 'When the key stops working (401 saying when), at least a minute ahead; absent: never' }),
});

export const buyerApiKeySchema = z
  .object({
    id: z.string().meta({ description: '`key_…`' }),
    name: z.string(),
    prefix: z.string().meta({ description: 'The first characters of the secret (`cnc_live_AbCdE`), to tell keys apart' }),
    createdAt: timestamp,
    lastUsedAt: timestamp.nullable().meta({ description: 'Last authenticated use, recorded at most about once a minute; null: never used' }),
    access: z.enum(API_KEY_ACCESS),
    projectIds: z.array(z.string()).nullable().meta({ description: 'The projects the key is limited to; null: the whole organisation' }),
    expiresAt: timestamp.nullable().meta({ description: 'When it stops working; null: never' }),
    createdBy: z.string().nullable().meta({ description: 'The e-mail of the member who created it; null for keys made before this was kept' }),
  })
  .meta({ id: 'BuyerApiKey' });

export const createdApiKeySchema = buyerApiKeySchema
  .extend({
    secret: z.string().meta({
      description: 'The key itself (`cnc_live_…` with Stripe, `cnc_test_…` with the sandbox): shown in this response only, stored as a SHA-256 digest',
    }),
  })
  .meta({ id: 'BuyerApiKeyWithSecret' });
