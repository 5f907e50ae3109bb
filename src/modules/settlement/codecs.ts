// The JSON that crosses between TypeScript and PL/pgSQL on the way from a decided task to money, counts and
// events, described once, as zod codecs: what sdk_answer's DECIDE hands the label model (the answers and
// the scope), the plan that settle_task applies, and what apply_settlement_effects reports. Each side's
// value goes through its codec at the seam, so a field that one side renames or drops fails there, by
// name, instead of deep inside a PL/pgSQL function. The SQL functions read and write exactly these fields
// (prisma/functions: sdk_answer.sql, settle_task.sql, apply_settlement_effects.sql).
import { ANSWER_KINDS, EVENT_TYPES, optionConfidenceSchema, ratingResultSchema, TASK_TYPES } from '@concord/contract';
import { z } from 'zod';

/**
 * A K×K row-major matrix of soft counts (float8[] from PostgreSQL): checked to be an array, not number by
 * number — it holds up to 2 500 numbers per answerer, on the answer path.
 */
const countMatrix = z.custom<number[]>((value) => Array.isArray(value), { error: 'must be an array of numbers' });

/** An annotator's soft counts in a scope (label-model.ts AnnotatorCounts), or an increment of them. */
const counts = z.object({ matrix: countMatrix, correct: z.number(), answered: z.number() });

/** One answer of the task, as DECIDE returns it: the answerer's counts in the task's scope, if any. */
export const participantCodec = z.object({
  annotatorId: z.string(),
  answer: z.string(),
  /** Pairwise: the answer was given with candidate B shown first (absent: not swapped). */
  swapped: z.boolean().optional(),
  counts: counts.nullable(),
});
export type Participant = z.output<typeof participantCodec>;

/** The task's label scope and quality setting, as DECIDE returns them. */
export const modelViewCodec = z.object({
  scopeKey: z.string(),
  scopeOptions: z.array(z.string()),
  priorReliability: z.number(),
  priorShape: z.array(z.number()).nullable(),
  /** As stored (jsonb): null before the scope's first re-fit (uniform; for multi-select, one in two per option); read by readClassPrior. */
  classPrior: z.unknown(),
  /** As stored (jsonb): null before the scope's first re-fit (the identity); read by readCalibration. */
  calibration: z.unknown(),
  targetConfidence: z.number(),
  /** The task's answer kind: which model decides it (a rating scope's priorShape is its typical rater). */
  answerKind: z.enum(ANSWER_KINDS),
  /** 1, or 2 when a rejected result reopened the task (its decision's event says so). */
  revision: z.number().int(),
  /** A review task only: the text task it decides, with its written answers in arrival order (option n is answer n). */
  review: z
    .object({
      taskId: z.string(),
      type: z.enum(TASK_TYPES),
      costCents: z.number().int(),
      answers: z.array(z.object({ annotatorId: z.string(), answer: z.string() })),
    })
    .nullable()
    .optional(),
});
export type ModelView = z.output<typeof modelViewCodec>;

/** DECIDE's JSON columns: every answer of the task (the deciding one last) and the scope. */
export const decideCodec = z.object({ participants: z.array(participantCodec), model: modelViewCodec });

const cents = z.number().int();

/** What a decision changes for each of its annotators, as apply_decision takes it: sorted by annotator, each with a ledger id. */
const participantUpdates = z.array(
  z.object({
    annotatorId: z.string(),
    answered: z.number().int(),
    resolved: z.number().int(),
    agreed: z.number().int(),
    earnedCents: cents,
    ledgerId: z.string(),
  }),
);
/** The outbox row: its id, the exact JSON text sent (and signed), one delivery id per possible configuration. */
const outboxEventCodec = z.object({ id: z.string(), type: z.enum(EVENT_TYPES), payload: z.string(), deliveryIds: z.array(z.string()) });

/** What settle_task applies: the task's new state, the participants' counters, the event, the counts. */
export const settlementPlanCodec = z
  .object({
    kind: z.enum(['continue', 'complete', 'fail']),
    result: z.string().optional(),
    confidence: z.number().min(0).max(1).optional(),
    /** What the result carries beyond the option (tasks.result_details): a rating's posterior mean and interval. */
    resultDetails: z.object({ rating: ratingResultSchema.optional(), optionConfidence: optionConfidenceSchema.optional() }).optional(),
    failureReason: z.string().optional(),
    /** Sorted by annotatorId: rows are locked in that order by every caller (no deadlock between decisions). */
    updates: participantUpdates,
    event: outboxEventCodec.optional(),
    /**
     * A review task's decision decides its text task (same kind: complete or fail): the winning text (null on
     * failure), its writers' counters and earnings, its charge (its price, or 0 on failure) with the
     * ledger id, and its event.
     */
    reviewed: z
      .object({
        taskId: z.string(),
        result: z.string().nullable(),
        updates: participantUpdates,
        chargeCents: cents.nonnegative(),
        chargeLedgerId: z.string(),
        event: outboxEventCodec,
      })
      .optional(),
    /**
     * What the buyer pays for a decided task: its price when it completes, nothing when it fails (the
     * reserve of its max is released either way). The plan sets it, beside the earnings that price funds;
     * settle_task writes it into the effect as it is.
     */
    chargeCents: cents.nonnegative().optional(),
    chargeLedgerId: z.string().optional(),
    model: z
      .object({
        scopeKey: z.string(),
        scopeOptions: z.array(z.string()),
        /** The side of each answerer's table when it is not the option count (a multi-select scope's 2×2). */
        countsSide: z.number().int().optional(),
        /** Sorted by annotatorId (add_label_counts locks the rows in that order). */
        increments: z.array(counts.extend({ annotatorId: z.string() })),
      })
      .optional(),
  })
  .refine((plan) => plan.kind === 'continue' || plan.chargeCents !== undefined, { error: 'a decided plan names its charge', path: ['chargeCents'] });
export type SettlementPlan = z.output<typeof settlementPlanCodec>;
export type DecisionUpdates = SettlementPlan['updates'];

/** The plan as settle_task's jsonb argument, checked against its codec first. */
export const encodePlan = (plan: SettlementPlan): string => JSON.stringify(settlementPlanCodec.parse(plan));

/** What one apply_settlement_effects call did. */
export const appliedEffectsCodec = z.object({
  /** Effects it looked at (at most the limit), and those it applied. */
  selected: z.number().int(),
  applied: z.number().int(),
  /** Effects whose application failed and was rolled back alone; they stay, marked failed. */
  failed: z.array(z.object({ taskId: z.string(), error: z.string() })),
  /** Each charge that crossed the low-balance threshold: the buyer and its balance right after it (bigint, as text or number). */
  crossed: z.array(z.object({ buyerId: z.string(), after: z.union([z.number(), z.string()]).transform(Number) })),
});
export type AppliedEffects = z.output<typeof appliedEffectsCodec>;
