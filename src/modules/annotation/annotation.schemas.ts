import { z } from 'zod';
import { cursorSchema, limitSchema, timestamp } from '../../lib/schemas.ts';
import { ANSWER_KINDS, LOCALES, MAX_MULTI_OPTIONS, MAX_OPTION_LENGTH, MAX_TEXT_LENGTH, TASK_TYPES } from '@concord/contract';

/** contract: 1–128 characters of A–Z a–z 0–9 _ . : @ - */
export const annotatorIdSchema = z.string().regex(/^[A-Za-z0-9_.:@-]{1,128}$/, { error: 'must be 1–128 characters of A–Z a–z 0–9 _ . : @ -' });

export const annotatorParams = z.strictObject({ annotatorId: annotatorIdSchema });
export const taskIdParams = z.strictObject({ id: z.string().min(1).max(64) });

export const nextQuery = z.strictObject({
  annotatorId: annotatorIdSchema,
  locale: z.enum(LOCALES).optional(),
  types: z
    .string()
    .optional()
    .transform((value, context) => {
      if (value === undefined || value === '') return undefined;
      const types = value.split(',').map((type) => type.trim());
      const unknown = types.filter((type) => !(TASK_TYPES as readonly string[]).includes(type));
      if (unknown.length > 0) {
        context.addIssue({ code: 'custom', message: `unknown task types: ${unknown.join(', ')}` });
        return z.NEVER;
      }
      return types as Array<(typeof TASK_TYPES)[number]>;
    })
    .meta({ description: 'Comma-separated task types' }),
});

/** GET /sdk/tasks/next's filters as JSON (complete's `next`): the same locales and types; an empty list filters nothing. */
export const nextFilters = z
  .strictObject({
    locale: z.enum(LOCALES).optional(),
    types: z
      .array(z.enum(TASK_TYPES, { error: (issue) => `unknown task type: ${String(issue.input)}` }))
      .optional()
      .transform((types) => (types?.length ? types : undefined)),
  })
  .meta({ description: 'Ask for the next assignment in the same response: the filters GET /sdk/tasks/next would take' });

export const completeBody = z.strictObject({
  annotatorId: annotatorIdSchema,
  // A text task's written answer is the longest: the task's own maxLength is checked with the task.
  answer: z.union([z.string().min(1).max(MAX_TEXT_LENGTH), z.array(z.string().min(1).max(MAX_OPTION_LENGTH)).max(MAX_MULTI_OPTIONS)]).meta({
    description:
      'One of the options; for a multi-select task (answerKind multi), the options chosen, as a list (empty only where the task allows it); ' +
      'for a pairwise task, first, second or (where offered) tie, naming the candidates in the order the assignment showed them; ' +
      "for a text task, the written answer (trimmed, 1 to the task's maxLength characters)",
  }),
  timeSpentMs: z.number().int().min(0).max(86_400_000),
  next: nextFilters.optional(),
});

export const payoutBody = z.strictObject({
  amountCents: z.number().int().positive().max(1_000_000_000),
  method: z.enum(['mobile_money', 'paypal', 'bank_transfer']),
  destination: z.string().trim().min(1).max(200),
});

export const assignmentResponse = z.object({
  assignmentId: z.string(),
  expiresAt: timestamp,
  task: z.object({
    id: z.string(),
    type: z.enum(TASK_TYPES),
    answerKind: z
      .enum(ANSWER_KINDS)
      .optional()
      .meta({
        description:
          'rating: answer one of the options, which are ordered levels, lowest first (show them as a scale); multi: answer a set of the options; ' +
          'pairwise: show content (the prompt) and the two candidates in the order given, and answer first, second or (when among the options) tie; ' +
          'text: content is the instruction and the answer is written, at most maxLength characters (options is empty); ' +
          'absent for single choice (answer one of the options)',
      }),
    content: z.string(),
    options: z.array(z.string()).meta({ description: 'The answers to choose from (a pairwise task: first, second and, where ties are allowed, tie)' }),
    candidates: z
      .object({ first: z.string(), second: z.string() })
      .optional()
      .meta({ description: 'Pairwise tasks only: the two candidates in the order to show them (the service chose it for this assignment)' }),
    maxLength: z.number().int().optional().meta({ description: 'Text tasks only: the longest written answer, in characters once trimmed' }),
    locale: z.enum(LOCALES),
  }),
});

export const completeResponse = z.object({
  accepted: z.literal(true),
  next: assignmentResponse.nullable().optional().meta({
    description:
      'Only when the request had `next`: what GET /sdk/tasks/next with those filters returns right after this answer (its 200 body), or null where it would answer 204 (or 403: the annotator was suspended by this answer)',
  }),
});

export const reputationSchema = z
  .object({
    annotatorId: z.string(),
    level: z.enum(['NOVICE', 'BRONZE', 'SILVER', 'GOLD']),
    reliability: z.number(),
    goldenAnswered: z.number().int(),
    goldenAccuracy: z.number().nullable(),
    totalResponses: z.number().int(),
    resolvedResponses: z.number().int(),
    agreementRate: z.number().nullable(),
    suspended: z.boolean(),
    asOf: timestamp.meta({
      description: 'When these figures were taken: a snapshot at most REPUTATION_SNAPSHOT_MS (default 1 hour) old; the first is the annotator at its creation',
    }),
  })
  .meta({ id: 'Reputation' });

export const earningsSchema = z
  .object({
    annotatorId: z.string(),
    totalEarnedCents: z.number().int(),
    paidOutCents: z.number().int(),
    pendingPayoutCents: z.number().int(),
    availableCents: z.number().int(),
  })
  .meta({ id: 'Earnings' });

export const payoutSchema = z
  .object({
    id: z.string(),
    status: z.enum(['PENDING', 'PAID', 'REJECTED']),
    amountCents: z.number().int(),
    method: z.enum(['mobile_money', 'paypal', 'bank_transfer']),
    destination: z.string(),
    note: z.string().nullable(),
    createdAt: timestamp,
    decidedAt: timestamp.nullable(),
  })
  .meta({ id: 'Payout' });

export const adminPayoutSchema = payoutSchema.extend({ developerId: z.string(), annotatorId: z.string() }).meta({ id: 'AdminPayout' });

export const adminAnnotatorsQuery = z.strictObject({
  suspended: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional()
    .meta({ description: 'Only suspended (true) or only active (false) annotators' }),
  q: z.string().trim().min(1).max(128).optional().meta({ description: "Part of the app's annotator id (any case)" }),
  limit: limitSchema,
  cursor: cursorSchema,
});

export const adminAnnotatorSchema = reputationSchema
  .pick({ level: true, reliability: true, suspended: true, totalResponses: true, resolvedResponses: true, goldenAnswered: true, goldenAccuracy: true })
  .extend({
    developerId: z.string(),
    appName: z.string(),
    annotatorId: z.string().meta({ description: "The app's own id for the annotator" }),
    createdAt: timestamp,
  })
  .meta({ id: 'AdminAnnotator', description: 'Live figures (not the snapshot apps read); level and reliability as the reputation route computes them' });
