import { API_KEY_NAME_MAX_LENGTH } from '@concord/contract';
import { z } from 'zod';
import { timestamp } from '../../lib/schemas.ts';

export const createApiKeyBody = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1)
    .max(API_KEY_NAME_MAX_LENGTH)
    .meta({ description: `What the key is for (1–${API_KEY_NAME_MAX_LENGTH} characters), e.g. "Production ingest"` }),
});

export const buyerApiKeySchema = z
  .object({
    id: z.string().meta({ description: '`key_…`' }),
    name: z.string(),
    prefix: z.string().meta({ description: 'The first characters of the secret (`cnc_live_AbCdE`), to tell keys apart' }),
    createdAt: timestamp,
    lastUsedAt: timestamp.nullable().meta({ description: 'Last authenticated use, recorded at most about once a minute; null: never used' }),
  })
  .meta({ id: 'BuyerApiKey' });

export const createdApiKeySchema = buyerApiKeySchema
  .extend({
    secret: z.string().meta({
      description: 'The key itself (`cnc_live_…` with Stripe, `cnc_test_…` with the sandbox): shown in this response only, stored as a SHA-256 digest',
    }),
  })
  .meta({ id: 'BuyerApiKeyWithSecret' });
