// One task's decision by the label model, as the answer path takes it (CONTRACT §5): the posterior from
// the answerers' stored counts in the task's scope, the stop rule, and — when the task is decided — what
// each answerer's counts gain. Pure: the answer path reads the inputs in one statement (sdk_answer's
// DECIDE) and writes the increments with the settlement (settle_task).
import { calibratedPosterior, IDENTITY_CALIBRATION, type Calibration } from './calibration.ts';
import { answerLogLikelihoods, oneCoinLogLikelihoods, LABEL_MODEL, type AnnotatorCounts, type LabelModelSettings, type ScopePrior } from './label-model.ts';
import { decisionIncrement, oneCoinDecisionIncrement, type CountIncrement } from './soft-counts.ts';
import { addAnswer, decideTask, startLogPosterior } from './stop-rule.ts';

export interface ScopeView {
  /** The scope's option set in the order its matrices use. */
  options: readonly string[];
  prior: ScopePrior;
  /** How often each of the scope's options is the truth; null: uniform (a scope before its first re-fit). */
  classPrior?: ArrayLike<number> | null;
  /** The scope's confidence map; the identity when absent. */
  calibration?: Calibration;
}

export interface TaskAnswer {
  annotatorId: string;
  answer: string;
  /** The answerer's counts in the scope; null when they have none yet. */
  counts: AnnotatorCounts | null;
}

export interface TaskDecisionInput {
  /** The task's own options (the order a one-coin task's posterior uses). */
  options: readonly string[];
  scope: ScopeView;
  /** Every answer of the task, this one included. */
  answers: readonly TaskAnswer[];
  maxResponses: number;
  targetConfidence: number;
  settings?: LabelModelSettings;
}

/** `best` is the most probable option whatever the outcome (what quality is measured on when none is decided). */
export type TaskDecision =
  | { kind: 'continue'; confidence: number; best: string | null }
  | {
      kind: 'complete' | 'fail';
      confidence: number;
      result: string | null;
      best: string | null;
      increments: Array<{ annotatorId: string; increment: CountIncrement }>;
    };

/** Whether the task's option set is the scope's (as sets): then its answers use the K×K matrices. */
export function sharesScopeOptions(options: readonly string[], scopeOptions: readonly string[]): boolean {
  if (options.length !== scopeOptions.length) return false;
  const scope = new Set(scopeOptions);
  return options.every((option) => scope.has(option));
}

/**
 * The stop rule on the task's posterior. `result` is the top option when the task completes (null when
 * it fails); a completed task moves every answerer's counts by one count at (result, answer), a failed
 * one moves nothing (soft-counts.ts says why).
 */
export function decideWithModel(input: TaskDecisionInput): TaskDecision {
  const settings = input.settings ?? LABEL_MODEL;
  const matrixForm = sharesScopeOptions(input.options, input.scope.options);
  // The posterior's options: the scope's order (matrix form) or the task's own (one-coin form).
  const order = matrixForm ? input.scope.options : input.options;
  const K = order.length;
  const index = (answer: string) => order.indexOf(answer);
  // The evidence: Σ of the answers' ln P(answer | k), O(K) per answer.
  let evidence = startLogPosterior(K);
  for (const answer of input.answers) {
    const likelihoods = matrixForm
      ? answerLogLikelihoods(answer.counts, index(answer.answer), K, input.scope.prior, settings)
      : oneCoinLogLikelihoods(answer.counts, index(answer.answer), K, input.scope.prior, settings);
    evidence = addAnswer(evidence, likelihoods);
  }
  // The class prior and the map were learned on the scope's options: a task on another option set has neither.
  const posterior = matrixForm
    ? calibratedPosterior(evidence, input.scope.classPrior ?? null, {
        calibration: input.scope.calibration ?? IDENTITY_CALIBRATION,
        answers: input.answers.length,
      })
    : calibratedPosterior(evidence, null);
  const decision = decideTask({
    logPosterior: posterior.map((p) => Math.log(p)),
    answerCount: input.answers.length,
    maxResponses: input.maxResponses,
    targetConfidence: input.targetConfidence,
  });
  if (decision.kind === 'continue') return { kind: 'continue', confidence: decision.confidence, best: order[decision.best] ?? null };
  if (decision.kind === 'fail') return { kind: 'fail', confidence: decision.confidence, result: null, best: order[decision.best] ?? null, increments: [] };
  const increments = input.answers.map((answer) => ({
    annotatorId: answer.annotatorId,
    increment: matrixForm ? decisionIncrement(K, decision.result, index(answer.answer)) : oneCoinDecisionIncrement(decision.result, index(answer.answer)),
  }));
  const result = order[decision.result] ?? null;
  return { kind: 'complete', confidence: decision.confidence, result, best: result, increments };
}

/** A count increment as the K² deltas settle_task adds to the stored matrix ([] for the one-coin form). */
export function incrementMatrix(increment: CountIncrement, optionCount: number): number[] {
  if (!increment.column) return [];
  const deltas = new Array<number>(optionCount * optionCount).fill(0);
  increment.column.forEach((value, k) => {
    deltas[k * optionCount + increment.answer] = value;
  });
  return deltas;
}

/** One answerer's increment as add_label_counts takes it (the same shape the settlement plan carries). */
export interface CountsRow {
  annotatorId: string;
  matrix: number[];
  correct: number;
  answered: number;
}

export const countsRow = (annotatorId: string, increment: CountIncrement, optionCount: number): CountsRow => ({
  annotatorId,
  matrix: incrementMatrix(increment, optionCount),
  correct: increment.correct,
  answered: increment.answered,
});
