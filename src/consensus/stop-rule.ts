// A task's posterior and the stop rule (CONTRACT §5, revised): the posterior over the K options is the
// scope's class prior times, for every answer, the answerer's P(answer | true option), read through the
// scope's confidence map (calibration.ts); the task COMPLETES when its top option reaches the target
// confidence, one option strictly ahead, and FAILS (NO_CONSENSUS) at maxResponses. It is asked only once a
// task holds its validationsNeeded answers: that gate is sdk_answer's (prisma/functions/sdk_answer.sql), the
// rule's one home, which spares the answers before it a decision's round trip (the replays of bench/quality
// apply it before asking, as the service does). The answers' evidence is kept as log-likelihoods so each answer adds K numbers (O(K),
// one read of the answerer's counts) and nothing else is re-read.

/** contract: the default target confidence (config CONSENSUS_THRESHOLD). */
export const DEFAULT_TARGET_CONFIDENCE = 0.95;

/** contract: more answers are collected up to max(10, 2 × validationsNeeded) unless the project says otherwise. */
export const defaultMaxResponses = (validationsNeeded: number) => Math.max(10, 2 * validationsNeeded);

/** The evidence of a task with no answer yet: nothing (the class prior is added by calibration.ts). */
export function startLogPosterior(optionCount: number): number[] {
  return new Array<number>(optionCount).fill(0);
}

/** The log-posterior after one more answer, given that answer's ln P(answer | k) for every k. */
export function addAnswer(logPosterior: readonly number[], logLikelihoods: readonly number[]): number[] {
  return logPosterior.map((value, k) => value + (logLikelihoods[k] ?? 0));
}

/** The normalised posterior P(true option = k | answers). */
export function probabilities(logPosterior: readonly number[]): number[] {
  // Subtracting the top keeps exp() from underflowing to 0/0; the ratios are unchanged.
  const top = Math.max(...logPosterior);
  const exps = logPosterior.map((value) => Math.exp(value - top));
  const total = exps.reduce((sum, value) => sum + value, 0);
  return exps.map((value) => value / total);
}

/** A share as the API reports it: 4 decimals (a task's confidence, contract §5; reputations and reports alike). */
export const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

// Log-posteriors built from the same answers in another order can differ in the last bits: closer than
// this, two options are tied.
const TIE_TOLERANCE = 1e-9;

/** The most probable option and whether it is strictly ahead of every other. */
export function topOption(logPosterior: readonly number[]): { index: number; strictlyAhead: boolean } {
  let index = 0;
  for (let k = 1; k < logPosterior.length; k++) if ((logPosterior[k] ?? -Infinity) > (logPosterior[index] ?? -Infinity)) index = k;
  const top = logPosterior[index] ?? 0;
  const strictlyAhead = logPosterior.every((value, k) => k === index || top - value > TIE_TOLERANCE);
  return { index, strictlyAhead };
}

export interface StopInput {
  logPosterior: readonly number[];
  /** Answers the task has received, this one included. */
  answerCount: number;
  maxResponses: number;
  targetConfidence: number;
}

/** `result` is the index of the option; confidence is max P, rounded to 4 decimals, on every outcome. */
export type StopDecision =
  | { kind: 'continue'; confidence: number; best: number }
  | { kind: 'complete'; confidence: number; result: number }
  | { kind: 'fail'; confidence: number; best: number };

/** The stop rule after an answer: complete, fail (no consensus within maxResponses), or collect more. */
export function decideTask(input: StopInput): StopDecision {
  const { index, strictlyAhead } = topOption(input.logPosterior);
  const confidence = round4(probabilities(input.logPosterior)[index] ?? 0);
  if (strictlyAhead && confidence >= input.targetConfidence) {
    return { kind: 'complete', confidence, result: index };
  }
  if (input.answerCount >= input.maxResponses) return { kind: 'fail', confidence, best: index };
  return { kind: 'continue', confidence, best: index };
}
