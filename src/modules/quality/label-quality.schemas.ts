// The response of GET /projects/:id/quality and, per option set, of GET /quality/option-sets.
import { z } from 'zod';
import { MIN_GOLDEN_ANSWERS, MIN_RELIABILITY_SAMPLES } from '../../consensus/quality-report.ts';

/** The most option sets GET /quality/option-sets reports, those with the most tasks first. */
export const MAX_OPTION_SETS = 50;

const share = z.number().min(0).max(1);
const count = z.number().int().min(0);
const interval = z.object({ low: share, high: share }).meta({ id: 'ShareInterval', description: 'A 95 % interval' });

export const qualityReportSchema = z
  .object({
    completed: count.meta({ description: 'COMPLETED tasks' }),
    failed: count.meta({ description: 'FAILED tasks (no consensus within maxResponses; not charged)' }),
    open: count.meta({ description: 'PENDING and VALIDATING tasks' }),
    completedShare: share.nullable().meta({ description: 'completed / (completed + failed); null before any task is decided' }),
    failedShare: share.nullable().meta({ description: 'failed / (completed + failed); null before any task is decided' }),
    rejected: count.meta({ description: 'Tasks whose result the buyer rejected (POST /tasks/{id}/reject), however they were decided again' }),
    delivered: count.meta({ description: 'Tasks that delivered a result at least once (COMPLETED now, or rejected since): rejectedShare’s denominator' }),
    rejectedShare: share
      .nullable()
      .meta({ description: 'rejected / tasks that delivered a result at least once: how often a result was sent back; null before any result' }),
    expectedAccuracy: share
      .nullable()
      .meta({ description: 'The accuracy the completed labels can be expected to have: their mean (calibrated) confidence; null before any completed' }),
    expectedAccuracyInterval: interval.nullable().meta({
      description: 'A 95 % interval of the share right, if each completed label is right with its confidence (the golden evidence says how far to trust that)',
    }),
    meanAnswersPerCompleted: z.number().min(0).nullable().meta({ description: 'Answers per COMPLETED task' }),
    costPerCompletedCents: z.number().min(0).nullable().meta({ description: 'Cents charged per COMPLETED task (failed tasks cost nothing)' }),
    golden: z
      .object({
        tasks: count.meta({ description: 'Golden tasks in this project (or option set)' }),
        answers: count.meta({ description: 'Answers given to them' }),
        correct: count.meta({ description: 'Answers that matched the golden answer' }),
        shareCorrect: share.nullable().meta({ description: 'correct / answers: how often one annotator is right; null without answers' }),
        interval: interval.nullable().meta({ description: 'Wilson 95 % interval of shareCorrect' }),
      })
      .meta({ description: 'The golden evidence the confidence is calibrated on' }),
    calibration: z.object({
      goldenTasks: count.meta({ description: "Golden tasks behind the confidence map at the last re-fit (0: the model's own confidence, uncalibrated)" }),
      refittedAt: z.iso.datetime().nullable().meta({ description: 'When the label model was last re-fitted on this scope' }),
      reliability: z
        .array(z.object({ confidence: share, accuracy: share, samples: count }))
        .max(10)
        .meta({
          description:
            `The reliability diagram, measured on golden tasks the confidence map was not fitted on (five folds): per band of 0.1 of confidence, ` +
            `the mean confidence given and the share of those golden samples (a golden task after n answers) that were right; [] below ${MIN_RELIABILITY_SAMPLES} samples`,
        }),
    }),
    warnings: z
      .array(
        z.object({
          code: z.enum(['NO_COMPLETED_TASKS', 'NO_GOLDEN_TASKS', 'THIN_GOLDEN_EVIDENCE']),
          message: z.string(),
        }),
      )
      .max(3)
      .meta({ description: `Plain words when the figures rest on too little: THIN_GOLDEN_EVIDENCE below ${MIN_GOLDEN_ANSWERS} golden answers` }),
  })
  .meta({ id: 'QualityReport' });

export const optionSetsQualitySchema = z
  .object({
    optionSets: z.array(qualityReportSchema.extend({ options: z.array(z.string()).meta({ description: 'The option set, sorted' }) })).max(MAX_OPTION_SETS),
  })
  .meta({ id: 'OptionSetsQuality' });
