// The bodies Concord POSTs to webhook URLs (spec: Events; contract §7), for the OpenAPI document's
// `webhooks`: each event's payload schema (@concord/contract, which also types the service's outbox and
// the SDK) with a summary and an example; a test parses real payloads with these schemas, so the document
// cannot drift from what receivers get.
import { EVENT_PAYLOADS, type LoggedEventType } from '@concord/contract';
import type { z } from 'zod';
import { EXAMPLE } from '../../lib/openapi-examples.ts';

export interface WebhookEventDoc {
  schema: z.ZodType;
  summary: string;
  example: unknown;
}

/**
 * Every event a webhook URL can receive, with its payload and an example: the four a configuration
 * subscribes to, and the `ping` of a test send.
 */
export const WEBHOOK_EVENTS: Record<LoggedEventType, WebhookEventDoc> = {
  'task.completed': {
    schema: EVENT_PAYLOADS['task.completed'],
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
    schema: EVENT_PAYLOADS['task.failed'],
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
  'task.rejected': {
    schema: EVENT_PAYLOADS['task.rejected'],
    summary: 'A buyer rejected a completed result',
    example: {
      event: 'task.rejected',
      taskId: 'cm3q7w1x90004lk08a1b2c3d4',
      type: 'SENTIMENT_ANALYSIS',
      reason: 'Sarcasm: the review is negative',
      rejectedResult: 'positive',
      rejectedConfidence: 0.9612,
      refundedCents: 20,
      targetConfidence: 0.975,
      maxResponses: 13,
      rejectedAt: '2026-03-15T08:12:40.021Z',
    },
  },
  'budget.low': {
    schema: EVENT_PAYLOADS['budget.low'],
    summary: 'The credit balance fell below 500 cents',
    example: { event: 'budget.low', creditBalance: 480, thresholdCents: 500, at: '2026-03-14T11:15:03.402Z' },
  },
  'budget.cap_reached': {
    schema: EVENT_PAYLOADS['budget.cap_reached'],
    summary: 'A spending cap refused work',
    example: {
      event: 'budget.cap_reached',
      scope: 'project',
      projectId: EXAMPLE.projectId,
      capCents: 50_000,
      committedCents: 49_990,
      requiredCents: 20,
      at: '2026-03-14T11:20:41.118Z',
    },
  },
  ping: {
    schema: EVENT_PAYLOADS.ping,
    summary: 'A test send',
    example: { event: 'ping', webhookId: EXAMPLE.webhookId, sentAt: '2026-03-15T16:04:38.512Z' },
  },
};
