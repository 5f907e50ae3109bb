import { APP_NAME_MAX_LENGTH, CREDIT_REASON_MAX_LENGTH } from '@concord/contract';
import { z } from 'zod';
import { cursorSchema, dateSchema, daysSchema, emailSchema, httpUrlSchema, limitSchema, MAX_REPORT_DAYS, pageInfo, timestamp } from '../../lib/schemas.ts';
import { buyerAccountSchema } from '../auth/auth.schemas.ts';
import { ledgerEntrySchema } from '../billing/billing.schemas.ts';

export const createDeveloperBody = z.strictObject({
  email: emailSchema,
  appName: z.string().trim().min(1).max(APP_NAME_MAX_LENGTH),
  appUrl: httpUrlSchema,
});

export const updateDeveloperBody = z.strictObject({
  isActive: z.boolean().optional(),
  appName: z.string().trim().min(1).max(APP_NAME_MAX_LENGTH).optional(),
  appUrl: httpUrlSchema.optional(),
});

export const creditAdjustmentBody = z.strictObject({
  amountCents: z
    .number()
    .int()
    .min(-10_000_000_000)
    .max(10_000_000_000)
    .refine((n) => n !== 0, { error: 'must not be zero' }),
  reason: z.string().trim().min(1).max(CREDIT_REASON_MAX_LENGTH),
});

export const developerSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    appName: z.string(),
    appUrl: z.string(),
    isActive: z.boolean(),
    hasPassword: z.boolean().meta({ description: 'Whether the invite was used to set a password' }),
    createdAt: timestamp,
  })
  .meta({ id: 'Developer' });

export const createdDeveloperResponse = z.object({
  developer: z.object({ id: z.string(), email: z.string(), appName: z.string(), appUrl: z.string(), apiKey: z.string() }),
});

export const adminBuyerSchema = buyerAccountSchema.extend({ isActive: z.boolean() }).meta({ id: 'AdminBuyer' });

export const statsResponse = z
  .object({
    buyers: z.number().int(),
    developers: z.number().int(),
    annotators: z.number().int(),
    tasks: z.object({ PENDING: z.number().int(), VALIDATING: z.number().int(), COMPLETED: z.number().int(), FAILED: z.number().int() }),
    revenueCents: z.number().int().meta({ description: 'Everything charged for completed tasks' }),
    pendingPayouts: z.object({ count: z.number().int(), cents: z.number().int() }),
  })
  .meta({ id: 'PlatformStats' });

export const dailyStatsQuery = z.strictObject({ days: daysSchema });

const perDay = z.number().int();
export const dailyStatsResponse = z
  .object({
    days: z
      .array(
        z.object({
          date: dateSchema,
          created: perDay.meta({ description: 'Tasks created' }),
          completed: perDay.meta({ description: 'Tasks COMPLETED (by validatedAt)' }),
          failed: perDay.meta({ description: 'Tasks FAILED (by failedAt)' }),
          answers: perDay.meta({ description: 'Answers to regular tasks (golden answers excluded)' }),
        }),
      )
      .max(MAX_REPORT_DAYS)
      .meta({ description: 'Every UTC day of the period, oldest first' }),
  })
  .meta({ id: 'PlatformDailyStats' });

export const mailOutboxQuery = z.strictObject({ limit: limitSchema, cursor: cursorSchema });

const mailMessageSchema = z
  .object({
    id: z.string(),
    kind: z.string().meta({ description: 'WELCOME, DEVELOPER_INVITE or BUDGET_LOW' }),
    to: z.string(),
    subject: z.string(),
    text: z.string().meta({ description: 'The plain-text body' }),
    links: z.array(z.string()).meta({ description: 'The absolute URLs found in the body, in order' }),
    status: z.enum(['PENDING', 'SENT', 'FAILED']),
    createdAt: timestamp,
    sentAt: timestamp.nullable(),
  })
  .meta({ id: 'MailMessage' });

export const mailOutboxResponse = z.object({ messages: z.array(mailMessageSchema), ...pageInfo });

export { ledgerEntrySchema };
