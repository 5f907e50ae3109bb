// The events (spec: Events; contract §7): what a webhook configuration subscribes to, what the event log
// holds, and the payload of each, as the service builds it (its outbox is typed by these), documents it
// (the OpenAPI document's `webhooks` and the Event schema) and as receivers get it (the SDK's verifyWebhook
// and event stream are typed by them).
import { z } from 'zod';
import { ANSWER_KINDS, choicesSchema, optionConfidenceSchema, ratingResultSchema, TASK_TYPES } from './tasks.ts';

/** The events a webhook configuration subscribes to. */
export const EVENT_TYPES = ['task.completed', 'task.failed', 'task.rejected', 'budget.low', 'budget.cap_reached'] as const;
export type EventType = (typeof EVENT_TYPES)[number];
/** A test send's event (POST /webhooks/configs/:id/test): in the log, never subscribed to. */
export const PING_EVENT = 'ping';
/** Every type the event log holds. */
export const LOGGED_EVENT_TYPES = [...EVENT_TYPES, PING_EVENT] as const;
export type LoggedEventType = (typeof LOGGED_EVENT_TYPES)[number];

/** An ISO 8601 UTC timestamp with milliseconds, as every date of the API is written. */
export const timestamp = z.iso.datetime().meta({ description: 'ISO 8601 UTC timestamp with milliseconds' });

/** What `confidence` means wherever a task's result carries it (tasks, events, webhooks, exports). */
export const CONFIDENCE_DESCRIPTION =
  "The probability that the result is right: the label model's posterior of its top option, read through the confidence map " +
  "fitted on the scope's golden tasks (the posterior itself while there are none; docs/label-quality.md)";

/** spec: budget.low fires when the balance drops below 500 cents. */
export const LOW_BALANCE_THRESHOLD_CENTS = 500;

const reviewOfSchema = z
  .string()
  .optional()
  .meta({ description: "A review task only: the text task whose written answers it chose between (decided with it; that task's own event follows)" });
const reviewTaskIdSchema = z.string().optional().meta({ description: 'A text task only: the review task that chose its result' });

export const taskCompletedPayload = z
  .object({
    event: z.literal('task.completed'),
    taskId: z.string(),
    type: z.enum(TASK_TYPES),
    result: z.string().meta({
      description:
        'The option the consensus chose (a rating task: the decided level; a multi-select task: the options of the set joined by |, also in choices; ' +
        'a pairwise task: A, B or tie, naming the candidates as the task was created with them; a text task: the written answer its review chose)',
    }),
    confidence: z.number().min(0).max(1).meta({ description: CONFIDENCE_DESCRIPTION }),
    totalResponses: z.number().int().meta({ description: 'Answers the task collected' }),
    costCents: z.number().int().meta({ description: 'What the task was charged' }),
    validatedAt: timestamp,
    answerKind: z
      .enum(ANSWER_KINDS)
      .optional()
      .meta({ description: "The task's answer kind; absent for single choice, whose payload is exactly as before answer kinds" }),
    rating: ratingResultSchema
      .optional()
      .meta({ description: 'Rating tasks only: the posterior mean level and central 90 % interval, in level indexes (0 = the lowest level)' }),
    choices: choicesSchema.optional(),
    optionConfidence: optionConfidenceSchema
      .optional()
      .meta({ description: 'Multi-select tasks only: per option, the probability that its decision is right; confidence is the least of them' }),
    reviewOf: reviewOfSchema,
    reviewTaskId: reviewTaskIdSchema,
    revision: z
      .literal(2)
      .optional()
      .meta({ description: 'Present (2) when a rejected result was decided again (result review): this decision replaces the rejected one' }),
  })
  .meta({ id: 'TaskCompletedEvent', description: 'Consensus reached: the result is available and the task is billed.' });

export const taskFailedPayload = z
  .object({
    event: z.literal('task.failed'),
    taskId: z.string(),
    type: z.enum(TASK_TYPES),
    reason: z.string().meta({
      description:
        'Why it failed: NO_CONSENSUS (maxResponses answers without reaching the target confidence) or EXPIRED (its deadline passed while it was open)',
    }),
    totalResponses: z.number().int(),
    failedAt: timestamp,
    reviewOf: reviewOfSchema,
    reviewTaskId: reviewTaskIdSchema,
    revision: z.literal(2).optional().meta({ description: 'Present (2) when the task failed after a rejected result reopened it' }),
  })
  .meta({
    id: 'TaskFailedEvent',
    description: 'Not enough concordant answers, or its deadline passed: the task is not billed and its reservation is released.',
  });

/** The longest reason a buyer gives for rejecting a result. */
export const MAX_REJECTION_REASON_LENGTH = 1_000;
/** How long after its decision a result may be rejected. */
export const REVIEW_WINDOW_DAYS = 7;
/** The target a rejected result's task is decided again at: halfway from its target to 1 (0.95 → 0.975), 4 decimals. */
export const raisedTargetConfidence = (target: number): number => Math.round((target + (1 - target) / 2) * 10_000) / 10_000;

export const taskRejectedPayload = z
  .object({
    event: z.literal('task.rejected'),
    taskId: z.string(),
    type: z.enum(TASK_TYPES),
    reason: z.string().meta({ description: "The buyer's reason, as given" }),
    rejectedResult: z.string().meta({ description: 'The result rejected, as task.completed gave it' }),
    rejectedConfidence: z.number().min(0).max(1),
    refundedCents: z.number().int().meta({ description: "The rejected result's charge, refunded; the task's next decision charges again" }),
    targetConfidence: z.number().meta({ description: 'The raised target the task is decided at now (halfway from the old one to 1)' }),
    maxResponses: z.number().int().meta({ description: 'The most answers it now collects (validationsNeeded more than before; a text task: as before)' }),
    rejectedAt: timestamp,
    reviewOf: reviewOfSchema,
  })
  .meta({
    id: 'TaskRejectedEvent',
    description:
      'A buyer rejected a completed result: the task is VALIDATING again at a higher target, its charge refunded and its budget reserved; its next decision (task.completed or task.failed with revision 2) follows.',
  });

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

export const budgetCapReachedPayload = z
  .object({
    event: z.literal('budget.cap_reached'),
    scope: z.enum(['project', 'organisation']).meta({ description: "Which cap: a project's budget cap, or the organisation's monthly cap" }),
    projectId: z.string().nullable().meta({ description: 'The project whose cap it is (null for the monthly cap)' }),
    capCents: z.number().int(),
    committedCents: z.number().int().meta({ description: 'Cents committed under the cap when it stopped work: reserved for open tasks plus charged' }),
    requiredCents: z.number().int().meta({ description: 'What the refused creation (or budget raise) needed' }),
    at: timestamp,
  })
  .meta({
    id: 'BudgetCapReachedEvent',
    description:
      'A spending cap refused a task creation or a budget raise (402 BUDGET_CAP_REACHED): sent once per crossing; changing the cap (or, for the monthly cap, a new month) re-arms it.',
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

/** Each logged event type's payload schema. */
export const EVENT_PAYLOADS = {
  'task.completed': taskCompletedPayload,
  'task.failed': taskFailedPayload,
  'task.rejected': taskRejectedPayload,
  'budget.low': budgetLowPayload,
  'budget.cap_reached': budgetCapReachedPayload,
  ping: pingPayload,
} as const satisfies Record<LoggedEventType, z.ZodType>;

export type TaskCompletedEvent = z.output<typeof taskCompletedPayload>;
export type TaskFailedEvent = z.output<typeof taskFailedPayload>;
export type BudgetLowEvent = z.output<typeof budgetLowPayload>;
export type TaskRejectedEvent = z.output<typeof taskRejectedPayload>;
export type BudgetCapReachedEvent = z.output<typeof budgetCapReachedPayload>;
/** A test send's event (POST /webhooks/configs/:id/test): signed like any delivery, never retried. */
export type PingEvent = z.output<typeof pingPayload>;
/** The payload of one event type. */
export type EventPayload<T extends LoggedEventType> = z.output<(typeof EVENT_PAYLOADS)[T]>;
/** The payloads the service sends, one per logged event type: the body of a webhook request, and `payload` in the event log. */
export type WebhookEvent = { [T in LoggedEventType]: EventPayload<T> }[LoggedEventType];
