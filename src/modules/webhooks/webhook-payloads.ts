// The bodies Concord POSTs to webhook URLs (spec: Events; contract §7), for the OpenAPI document's
// `webhooks`. The payloads themselves are built where the events happen (annotation/settlement.ts:
// task.completed and task.failed; billing/billing.service.ts: budget.low; webhooks.service.ts: the ping
// of a test send); a test parses real ones with these schemas, so the document cannot drift from what
// receivers get.
import { z } from 'zod';
import { EXAMPLE } from '../../lib/openapi-examples.ts';
import { CONFIDENCE_DESCRIPTION, timestamp } from '../../lib/schemas.ts';
import type { LoggedEventType } from '../events/event-types.ts';
import { TASK_TYPES } from '../tasks/task-rules.ts';

export const taskCompletedPayload = z
  .object({
    event: z.literal('task.completed'),
    taskId: z.string(),
    type: z.enum(TASK_TYPES),
    result: z.string().meta({ description: 'The option the consensus chose' }),
    confidence: z.number().min(0).max(1).meta({ description: CONFIDENCE_DESCRIPTION }),
    totalResponses: z.number().int().meta({ description: 'Answers the task collected' }),
    costCents: z.number().int().meta({ description: 'What the task was charged' }),
    validatedAt: timestamp,
  })
  .meta({ id: 'TaskCompletedEvent', description: 'Consensus reached: the result is available and the task is billed.' });

export const taskFailedPayload = z
  .object({
    event: z.literal('task.failed'),
    taskId: z.string(),
    type: z.enum(TASK_TYPES),
    reason: z.string().meta({ description: 'Why it failed: NO_CONSENSUS (maxResponses answers without reaching the target confidence)' }),
    totalResponses: z.number().int(),
    failedAt: timestamp,
  })
  .meta({ id: 'TaskFailedEvent', description: 'Not enough concordant answers: the task is not billed and its reservation is released.' });

export const budgetLowPayload = z
  .object({
    event: z.literal('budget.low'),
    creditBalance: z.number().int().meta({ description: 'The balance after the change, in cents' }),
    thresholdCents: z.number().int().meta({ description: 'The threshold crossed: 500' }),
    at: timestamp,
  })
  .meta({
    id: 'BudgetLowEvent',
    description:
      'A task charge or an administrator debit took the balance from ≥ 500 to below 500 cents: sent once per crossing; a top-up back to ≥ 500 re-arms it.',
  });

export const pingPayload = z
  .object({
    event: z.literal('ping'),
    webhookId: z.string().meta({ description: 'The configuration the test send was made to' }),
    sentAt: timestamp,
  })
  .meta({
    id: 'PingEvent',
    description: 'A test send (POST /webhooks/configs/{id}/test): sent to that one configuration at once, whatever it subscribes to; never retried.',
  });

export interface WebhookEventDoc {
  schema: z.ZodType;
  summary: string;
  example: unknown;
}

/**
 * Every event a webhook URL can receive, with its payload and an example: the three a configuration
 * subscribes to, and the `ping` of a test send.
 */
export const WEBHOOK_EVENTS: Record<LoggedEventType, WebhookEventDoc> = {
  'task.completed': {
    schema: taskCompletedPayload,
    summary: 'A task reached consensus',
    example: {
      event: 'task.completed',
      taskId: 'cm3q7w1x90004lk08a1b2c3d4',
      type: 'SENTIMENT_ANALYSIS',
      result: 'positive',
      confidence: 0.9807,
      totalResponses: 3,
      costCents: 20,
      validatedAt: '2026-03-14T09:31:27.215Z',
    },
  },
  'task.failed': {
    schema: taskFailedPayload,
    summary: 'A task failed without consensus',
    example: {
      event: 'task.failed',
      taskId: 'cm3q7w1x90005lk08e5f6g7h8',
      type: 'BINARY_CHOICE',
      reason: 'NO_CONSENSUS',
      totalResponses: 10,
      failedAt: '2026-03-14T10:02:48.930Z',
    },
  },
  'budget.low': {
    schema: budgetLowPayload,
    summary: 'The credit balance fell below 500 cents',
    example: { event: 'budget.low', creditBalance: 480, thresholdCents: 500, at: '2026-03-14T11:15:03.402Z' },
  },
  ping: {
    schema: pingPayload,
    summary: 'A test send',
    example: { event: 'ping', webhookId: EXAMPLE.webhookId, sentAt: '2026-03-15T16:04:38.512Z' },
  },
};
