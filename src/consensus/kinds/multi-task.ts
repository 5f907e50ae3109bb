// One multi-select task's decision as the answer path takes it: the multi-select model (multi.ts) over the
// task's answers, each read through its annotator's sensitivity and specificity in the task's scope, the
// scope's per-option class prior, and the stop rule (every option decided). Pure, like task-decision.ts,
// whose result shape it returns (the result as the chosen options), so the settlement plan treats every
// kind alike. Options are named here and indexed in the scope's order (sorted, as task_scope_options has it).
import type { CountsRow, TaskAnswer } from '../task-decision.ts';
import { addMultiCounts, decideMulti, multiPosterior, NEW_TAGGER, optionsRight, taggerParams, type TaggerParams } from './multi.ts';

export interface MultiTaskInput {
  /** The scope's options in its order: each answerer's four counts and the class prior are over these. */
  scopeOptions: readonly string[];
  /** The scope's typical annotator (each fit's prior); null before the scope's first re-fit. */
  taggerPrior: TaggerParams | null;
  /** Per option (scope order): how often it belongs; null: one in two. */
  classPrior: ArrayLike<number> | null;
  allowEmpty: boolean;
  /** Every answer of the task, this one included: `answer` is the chosen options as a JSON array (task_answer). */
  answers: readonly TaskAnswer[];
  maxResponses: number;
  targetConfidence: number;
}

/**
 * A multi-select decision: `result` is the set's options (scope order; null unless complete), `best` the
 * likeliest set whatever the outcome, `confidence` the least option's, and `rows` each answerer's four-count
 * increment (a completed task only).
 */
export interface MultiTaskDecision {
  kind: 'continue' | 'complete' | 'fail';
  confidence: number;
  result: string[] | null;
  best: string[];
  /** Per option: the probability that its decision (in or out) is right, 4 decimals. */
  optionConfidence: Record<string, number>;
  rows: CountsRow[];
}

/**
 * The side of each annotator's stored counts table in a scope of this answer kind: K×K over the options,
 * but a multi-select scope's four counts are 2×2 whatever its options.
 */
export const countsSideOf = (answerKind: string, optionCount: number): number => (answerKind === 'multi' ? 2 : optionCount);

/**
 * One answerer's increment after a multi-select task COMPLETED at `result` (a decision's, or a golden
 * task's known set): one count per option at (in the set, ticked), one answer, right on the share of
 * options it got right.
 */
export function multiCountsRow(annotatorId: string, optionCount: number, result: readonly number[], chosen: readonly number[]): CountsRow {
  const matrix = addMultiCounts(null, optionCount, result, chosen);
  return { annotatorId, matrix, correct: optionsRight(matrix, optionCount), answered: 1 };
}

/** A stored multi-select answer (the JSON array of its options) as indexes into `options`. */
export function chosenIndexes(stored: string, options: readonly string[]): number[] {
  const chosen: unknown = JSON.parse(stored);
  if (!Array.isArray(chosen)) throw new Error('a multi-select answer is a JSON array of options');
  return chosen.map((option) => options.indexOf(String(option))).filter((index) => index >= 0);
}

/**
 * The scope's typical annotator as the re-fit stores it (label_scopes.prior_shape = [sensitivity,
 * specificity]), or null when what is stored does not read as one (the new-annotator prior then serves).
 */
export function readTaggerPrior(stored: unknown): TaggerParams | null {
  if (!Array.isArray(stored) || stored.length !== 2 || !stored.every((x) => typeof x === 'number' && x > 0 && x < 1)) return null;
  const [sensitivity, specificity] = stored as [number, number];
  return { sensitivity, specificity };
}

/**
 * The stop rule on the task's per-option posterior. `confidence` is the least decided option's; a
 * completed task moves each answerer's four counts by one count per option at (decided, ticked).
 */
export function decideMultiTask(input: MultiTaskInput): MultiTaskDecision {
  const K = input.scopeOptions.length;
  const prior = input.taggerPrior ?? NEW_TAGGER;
  const answers = input.answers.map((answer) => ({
    tagger: taggerParams(answer.counts?.matrix.length === 4 ? answer.counts.matrix : null, prior),
    chosen: chosenIndexes(answer.answer, input.scopeOptions),
  }));
  const posterior = multiPosterior(answers, K, { classPrior: input.classPrior, allowEmpty: input.allowEmpty });
  const decision = decideMulti(posterior, {
    answerCount: input.answers.length,
    maxResponses: input.maxResponses,
    targetConfidence: input.targetConfidence,
  });
  const named = (indexes: readonly number[]) => indexes.map((j) => input.scopeOptions[j] ?? '');
  const optionConfidence = Object.fromEntries(input.scopeOptions.map((option, j) => [option, decision.confidence[j] ?? 0]));
  const confidence = Math.min(...decision.confidence);
  const summary = { confidence, best: named(decision.best), optionConfidence };
  if (decision.kind !== 'complete' || decision.result === null) return { kind: decision.kind, result: null, rows: [], ...summary };
  const result = decision.result;
  const rows = input.answers.map((answer, i) => multiCountsRow(answer.annotatorId, K, result, answers[i]?.chosen ?? []));
  return { kind: 'complete', result: named(result), rows, ...summary };
}
