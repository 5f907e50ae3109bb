import { z } from 'zod';
import { cursorSchema, limitSchema, pageInfo, timestamp } from '../../lib/schemas.ts';

export const ledgerEntrySchema = z
  .object({
    id: z.string(),
    type: z.enum(['DEPOSIT', 'BONUS', 'TASK_CHARGE', 'ADJUSTMENT', 'EARNING', 'PAYOUT', 'PAYOUT_REVERSAL']),
    amountCents: z.number().int().meta({ description: 'Positive for credits, negative for debits' }),
    balanceAfterCents: z.number().int(),
    taskId: z.string().nullable(),
    reason: z.string().nullable(),
    createdAt: timestamp,
  })
  .meta({ id: 'LedgerEntry' });

export const ledgerQuery = z.strictObject({ limit: limitSchema, cursor: cursorSchema });

export const ledgerResponse = z.object({ entries: z.array(ledgerEntrySchema), ...pageInfo });
