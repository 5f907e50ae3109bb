// One rating task's decision as the answer path takes it: the rating model (rating.ts) over the task's
// answers, each read through its annotator's fitted parameters in the task's rating scope, the scope's
// class prior over the levels, and the stop rule. Pure, like task-decision.ts for single choice, whose
// result shape it returns (plus the posterior mean and interval), so the settlement plan treats both alike.
import { decisionIncrement } from '../soft-counts.ts';
import type { TaskAnswer, TaskDecision } from '../task-decision.ts';
import { round4 } from '../stop-rule.ts';
import { decideRating, fitRater, NEW_RATER, ratingPosterior, type RaterParams } from './rating.ts';

export interface RatingTaskInput {
  /** The task's levels, lowest first (a rating scope's options are its tasks' levels in this order). */
  levels: readonly string[];
  /** The scope's typical rater (the prior of each fit); null before the scope's first re-fit. */
  raterPrior: RaterParams | null;
  /** How often each level is the truth; null: uniform. */
  classPrior: ArrayLike<number> | null;
  /** Every answer of the task, this one included; `counts` is the answerer's L×L table in the scope. */
  answers: readonly TaskAnswer[];
  maxResponses: number;
  targetConfidence: number;
}

/** The posterior mean (4 decimals) and the central 90 % interval, in level indexes. */
export interface RatingSummary {
  mean: number;
  interval: [number, number];
}

export type RatingTaskDecision = TaskDecision & { rating: RatingSummary };

/**
 * The scope's typical rater as the re-fit stores it (label_scopes.prior_shape = [bias, spread, lapse]), or
 * null when what is stored does not read as one (none yet, or a damaged row: the new-rater prior then serves).
 */
export function readRaterPrior(stored: unknown): RaterParams | null {
  if (!Array.isArray(stored) || stored.length !== 3 || !stored.every((x) => typeof x === 'number' && Number.isFinite(x))) return null;
  const [bias, spread, lapse] = stored as [number, number, number];
  return spread > 0 && lapse > 0 && lapse < 1 ? { bias, spread, lapse } : null;
}

/** The stop rule on the task's rating posterior; a completed task moves each answerer's table by one count at (result, answer). */
export function decideRatingTask(input: RatingTaskInput): RatingTaskDecision {
  const L = input.levels.length;
  const prior = input.raterPrior ?? NEW_RATER;
  const answers = input.answers.map((answer) => ({
    rater: fitRater(answer.counts?.matrix.length === L * L ? answer.counts.matrix : null, L, prior),
    answer: input.levels.indexOf(answer.answer),
  }));
  const posterior = ratingPosterior(answers, L, input.classPrior);
  const decision = decideRating(posterior, {
    answerCount: input.answers.length,
    maxResponses: input.maxResponses,
    targetConfidence: input.targetConfidence,
  });
  const rating = { mean: round4(decision.mean), interval: decision.interval };
  const best = input.levels[decision.best] ?? null;
  if (decision.kind === 'continue') return { kind: 'continue', confidence: decision.confidence, best, rating };
  if (decision.kind === 'fail' || decision.result === null) {
    return { kind: 'fail', confidence: decision.confidence, result: null, best, increments: [], rating };
  }
  const result = decision.result;
  const increments = input.answers.map((answer, i) => ({
    annotatorId: answer.annotatorId,
    increment: decisionIncrement(L, result, answers[i]?.answer ?? 0),
  }));
  return { kind: 'complete', confidence: decision.confidence, result: input.levels[result] ?? null, best, increments, rating };
}
