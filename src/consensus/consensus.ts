// The contract's FIRST consensus rule, kept only as the baseline bench/quality replays
// (`contractRule…` figures); the service decides with the label model (task-decision.ts).
// A pure function: answers and their annotators' reliabilities in, a decision out. One-coin model: with K options, an annotator of reliability r votes for their
// answer with weight w = max(0, ln(r·(K−1)/(1−r))); option k scores the sum of its voters' weights;
// P(k) = exp(score_k) / Σ_j exp(score_j); confidence = max P.
import { round4 } from './stop-rule.ts';

export interface WeightedAnswer {
  answer: string;
  reliability: number;
}

export interface ConsensusInput {
  options: readonly string[];
  /** Every answer so far; asked once a task holds its validationsNeeded answers (sdk_answer's gate, stop-rule.ts). */
  answers: readonly WeightedAnswer[];
  maxResponses: number;
  /** Confidence needed to complete (0.75 in the first rule). */
  threshold: number;
}

export type Decision =
  { kind: 'continue'; confidence: number } | { kind: 'complete'; result: string; confidence: number } | { kind: 'fail'; confidence: number };

/** Reliabilities are kept strictly inside (0, 1) so weights stay finite. */
const MIN_RELIABILITY = 0.01;
const MAX_RELIABILITY = 0.99;

/** The vote weight of an annotator of reliability r among K options (0 for r at or below chance). */
export function voteWeight(reliability: number, optionCount: number): number {
  const r = Math.min(MAX_RELIABILITY, Math.max(MIN_RELIABILITY, reliability));
  return Math.max(0, Math.log((r * (optionCount - 1)) / (1 - r)));
}

/** The posterior of each option (in the order of `options`) under the one-coin model. */
export function posterior(options: readonly string[], answers: readonly WeightedAnswer[]): number[] {
  const scores = options.map(() => 0);
  for (const { answer, reliability } of answers) {
    const index = options.indexOf(answer);
    if (index >= 0) scores[index] = (scores[index] ?? 0) + voteWeight(reliability, options.length);
  }
  // Subtracting the top score keeps exp() from overflowing; the ratios are unchanged.
  const top = Math.max(...scores);
  const exps = scores.map((score) => Math.exp(score - top));
  const total = exps.reduce((sum, value) => sum + value, 0);
  return exps.map((value) => value / total);
}

/** Decides a task after an answer: complete, fail (no consensus within maxResponses), or collect more. */
export function decide(input: ConsensusInput): Decision {
  const count = input.answers.length;
  const probabilities = posterior(input.options, input.answers);
  let best = 0;
  for (let i = 1; i < probabilities.length; i++) if ((probabilities[i] ?? 0) > (probabilities[best] ?? 0)) best = i;
  const confidence = round4(probabilities[best] ?? 0);
  const result = input.options[best];
  if (confidence >= input.threshold && result !== undefined) return { kind: 'complete', result, confidence };
  if (count >= input.maxResponses) return { kind: 'fail', confidence };
  return { kind: 'continue', confidence };
}
