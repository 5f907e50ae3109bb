import { z } from 'zod';
import { cursorSchema, dateSchema, daysSchema, limitSchema, MAX_REPORT_DAYS, pageInfo, timestamp } from '../../lib/schemas.ts';

export const ledgerEntrySchema = z
  .object({
    id: z.string(),
    type: z.enum(['DEPOSIT', 'BONUS', 'TASK_CHARGE', 'REFUND', 'ADJUSTMENT', 'EARNING', 'EARNING_REVERSAL', 'PAYOUT', 'PAYOUT_REVERSAL']),
    amountCents: z.number().int().meta({ description: 'Positive for credits, negative for debits' }),
    balanceAfterCents: z.number().int(),
    taskId: z.string().nullable(),
    reason: z.string().nullable(),
    createdAt: timestamp,
  })
  .meta({ id: 'LedgerEntry' });

export const ledgerQuery = z.strictObject({ limit: limitSchema, cursor: cursorSchema });

export const ledgerResponse = z.object({ entries: z.array(ledgerEntrySchema), ...pageInfo });

export const spendQuery = z.strictObject({ days: daysSchema });

const cents = z.number().int();
const spendDaySchema = z.object({
  date: dateSchema,
  chargedCents: cents.meta({ description: 'Charged for tasks completed that day (a positive number)' }),
  depositedCents: cents.meta({ description: 'Deposits credited that day, bonuses included' }),
  adjustedCents: cents.meta({ description: "The administrator's credit adjustments that day (negative for a debit)" }),
  completedTasks: z.number().int().meta({ description: 'Tasks charged that day' }),
});

export const spendResponse = z
  .object({
    days: z.array(spendDaySchema).max(MAX_REPORT_DAYS).meta({ description: 'Every UTC day of the period, oldest first; days without activity are zeros' }),
    totalChargedCents: cents,
    totalDepositedCents: cents,
    totalAdjustedCents: cents,
  })
  .meta({ id: 'Spend' });
