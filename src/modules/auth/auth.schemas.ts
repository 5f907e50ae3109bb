import { COMPANY_NAME_MAX_LENGTH, EMAIL_MAX_LENGTH } from '@concord/contract';
import { z } from 'zod';
import { MEMBER_ROLES } from '@concord/contract';
import { emailSchema, passwordSchema, timestamp } from '../../lib/schemas.ts';

export const registerBody = z.strictObject({
  email: emailSchema,
  password: passwordSchema,
  companyName: z.string().trim().min(1).max(COMPANY_NAME_MAX_LENGTH),
});

export const loginBody = z.strictObject({
  email: z.string().max(EMAIL_MAX_LENGTH),
  password: z.string().max(1024),
});

export const changePasswordBody = z.strictObject({
  currentPassword: z.string().max(1024),
  newPassword: passwordSchema,
});

export const setupPasswordBody = z.strictObject({
  token: z.string().min(1).max(512),
  password: passwordSchema,
});

export const buyerSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    companyName: z.string(),
    creditBalance: z.number().int().meta({ description: 'Money held, in cents' }),
  })
  .meta({ id: 'Buyer' });

export const buyerAccountSchema = buyerSchema
  .extend({
    reservedCents: z.number().int().meta({ description: 'Cents reserved by open tasks' }),
    availableCents: z.number().int().meta({ description: 'creditBalance − reservedCents' }),
    createdAt: timestamp,
  })
  .meta({ id: 'BuyerAccount' });

/** GET /auth/me for a buyer: the organisation the token acts for, seen by one of its members. */
export const currentBuyerSchema = buyerAccountSchema
  .extend({
    role: z.enum(MEMBER_ROLES).nullable().meta({
      description:
        "The caller's role in the organisation (docs/organisations.md); null for an API key. `id` is the organisation's, `email` the caller's own (a key's: its founder's)",
    }),
  })
  .meta({ id: 'CurrentBuyer' });

export const developerProfileSchema = z
  .object({ id: z.string(), email: z.string(), appName: z.string(), appUrl: z.string(), createdAt: timestamp })
  .meta({ id: 'DeveloperProfile' });

export const adminSchema = z.object({ id: z.string(), email: z.string() }).meta({ id: 'Admin' });

export const tokenResponse = z.object({ token: z.string() });
export const apiKeyResponse = z.object({ apiKey: z.string() });
export const registerResponse = z.object({ token: z.string(), buyer: buyerSchema });
export const meResponse = z.union([z.object({ buyer: currentBuyerSchema }), z.object({ developer: developerProfileSchema }), z.object({ admin: adminSchema })]);
