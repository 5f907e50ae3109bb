import { z } from 'zod';
import { timestamp } from '../../lib/schemas.ts';
import {
  ANSWER_KINDS,
  type AnswerKind,
  CONFIDENCE_BUCKETS,
  defaultDeadlineHoursSchema,
  MAX_DEFAULT_DEADLINE_HOURS,
  MAX_OPTIONS,
  MAX_RESPONSES_MAX,
  MAX_RESPONSES_MIN,
  maxResponsesSchema,
  PROJECT_DEFAULT_KINDS,
  PROJECT_DESCRIPTION_MAX,
  PROJECT_NAME_MAX,
  TARGET_CONFIDENCE_MAX,
  TARGET_CONFIDENCE_MIN,
  targetConfidenceSchema,
} from '@concord/contract';

const name = z.string().trim().min(1).max(PROJECT_NAME_MAX);
const description = z.string().trim().max(PROJECT_DESCRIPTION_MAX);

const copiedAtCreation = 'Tasks copy it when they are created: a later change applies to tasks created afterwards.';
const targetConfidenceDescription =
  `The confidence (${TARGET_CONFIDENCE_MIN}–${TARGET_CONFIDENCE_MAX}) at which the project's tasks complete; ` +
  `null: the service's CONSENSUS_THRESHOLD (0.95 by default). ${copiedAtCreation}`;
const maxResponsesDescription =
  `The most answers (whole number, ${MAX_RESPONSES_MIN}–${MAX_RESPONSES_MAX}) a task of the project collects before it fails ` +
  `with NO_CONSENSUS, never below the task's validationsNeeded; null: max(10, 2 × validationsNeeded). ${copiedAtCreation}`;

const targetConfidence = targetConfidenceSchema.nullable().meta({ description: targetConfidenceDescription });
const maxResponses = maxResponsesSchema.nullable().meta({ description: maxResponsesDescription });

const defaultAnswerKindDescription =
  'The answer kind its tasks take when they name none: single, rating or multi (the kinds whose tasks carry options); null: single choice';
const defaultAnswerKind = z.enum(PROJECT_DEFAULT_KINDS).nullable().meta({ description: defaultAnswerKindDescription });

const defaultDeadlineHours = defaultDeadlineHoursSchema.nullable().meta({
  description:
    `The deadline its tasks get when they name none, in whole hours after their creation (1–${MAX_DEFAULT_DEADLINE_HOURS}); null: none. ` + copiedAtCreation,
});

export const createProjectBody = z.strictObject({
  name,
  description: description.nullish(),
  targetConfidence: targetConfidence.optional(),
  maxResponses: maxResponses.optional(),
  defaultAnswerKind: defaultAnswerKind.optional(),
  defaultDeadlineHours: defaultDeadlineHours.optional(),
});
export const updateProjectBody = z.strictObject({
  name: name.optional(),
  description: description.nullable().optional(),
  targetConfidence: targetConfidence.optional(),
  maxResponses: maxResponses.optional(),
  defaultAnswerKind: defaultAnswerKind.optional(),
  defaultDeadlineHours: defaultDeadlineHours.optional(),
});

export const projectSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    targetConfidence: z.number().nullable().meta({ description: targetConfidenceDescription }),
    maxResponses: z.number().int().nullable().meta({ description: maxResponsesDescription }),
    defaultAnswerKind,
    defaultDeadlineHours,
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Project' });

const count = z.number().int();
export const projectWithStatsSchema = projectSchema
  .extend({
    stats: z.object({
      tasks: z.object({ PENDING: count, VALIDATING: count, COMPLETED: count, FAILED: count }),
      spentCents: count,
    }),
  })
  .meta({ id: 'ProjectWithStats' });

/** The most rating scales a distribution lists. */
export const MAX_RATING_SCALES = 10;
export const distributionSchema = z
  .object({
    labels: z
      .array(z.object({ label: z.string(), count }))
      .max(MAX_OPTIONS)
      .meta({
        description:
          'Results of the completed tasks, most frequent first: the 50 most frequent (a task has at most 50 options); a multi-select task counts once for each option of its set; ' +
          "a text task's written answer and its review's choice are not labels (they count in confidence and completed only)",
      }),
    confidence: z
      .array(z.object({ from: z.number(), to: z.number(), count }))
      .min(CONFIDENCE_BUCKETS)
      .max(CONFIDENCE_BUCKETS)
      .meta({ description: 'Ten buckets from 0.0–0.1 to 0.9–1.0; each holds from ≤ confidence < to, the last also 1.0' }),
    completed: count.meta({ description: 'COMPLETED tasks of the project' }),
    kinds: z
      .object(Object.fromEntries(ANSWER_KINDS.map((kind) => [kind, count])) as Record<AnswerKind, typeof count>)
      .meta({ description: "COMPLETED tasks per answer kind (a text task's review counted with its text task, not as single choice)" }),
    ratingScales: z
      .array(
        z.object({
          levels: z.array(z.string()).meta({ description: 'The scale, lowest level first' }),
          counts: z.array(count).meta({ description: 'Per level (same order): the completed rating tasks decided at it' }),
          tasks: count,
        }),
      )
      .max(MAX_RATING_SCALES)
      .meta({ description: `The completed rating tasks per scale, the most tasks first (at most ${MAX_RATING_SCALES})` }),
    multiOptions: z
      .array(z.object({ option: z.string(), count, rate: z.number().min(0).max(1) }))
      .max(MAX_OPTIONS)
      .meta({
        description:
          'The completed multi-select tasks per option: how many hold it, and that share of those that offered it (4 decimals), the most chosen first',
      }),
  })
  .meta({ id: 'ProjectDistribution' });

/** The most groups and annotators GET /projects/:id/pairwise reports. */
export const MAX_PAIR_GROUPS = 50;
export const MAX_PAIR_ANNOTATORS = 100;
const share = z.number().min(0).max(1);
export const projectPairwiseSchema = z
  .object({
    groups: z
      .array(
        z.object({
          group: z.string(),
          pairs: count.meta({ description: 'Decided pairs of the group' }),
          ranking: z
            .array(
              z.object({
                candidate: z.string(),
                score: z.number().meta({ description: 'ln of the Bradley–Terry strength (4 decimals)' }),
                rank: count.meta({ description: '1 for the best; equal scores share a rank' }),
              }),
            )
            .meta({ description: "The group's candidates ranked by Bradley–Terry over its decided pairs, each weighted by its confidence" }),
          winRate: z.array(z.array(share.nullable())).meta({
            description:
              'winRate[i][j]: the share of the decided pairs of ranking[i] and ranking[j] that i won, a tie counting half; null where they were never compared (and on the diagonal)',
          }),
        }),
      )
      .max(MAX_PAIR_GROUPS)
      .meta({ description: `The project's pairwise groups, the most decided pairs first (at most ${MAX_PAIR_GROUPS})` }),
    annotators: z
      .array(
        z.object({
          answers: z.number().meta({ description: 'Answers counted in the scope (soft after a re-fit)' }),
          reliability: share.meta({ description: 'The chance the annotator picks the better candidate when judging (not driven by the side it was shown on)' }),
          positionBias: z.number().min(-1).max(1).nullable().meta({
            description:
              'How much more often the annotator picks the first-shown candidate than the second, beyond the truth (−1 to 1; 0 unbiased); null until both orders were seen',
          }),
        }),
      )
      .max(MAX_PAIR_ANNOTATORS)
      .meta({ description: `The project's pairwise annotators, the most answers first (at most ${MAX_PAIR_ANNOTATORS}), without who they are` }),
  })
  .meta({ id: 'ProjectPairwise' });
