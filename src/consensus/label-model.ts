// The label-quality model (CONTRACT §5): each annotator has a K×K confusion matrix per scope,
// kept as soft counts (row = true option, column = answer), so it is stored as plain numbers, moved by one
// count per answer when a task completes (soft-counts.ts), and replaced wholesale by a Dawid–Skene re-fit
// (refit.ts). Reading a matrix adds the scope's prior and backs off towards one reliability (one-coin)
// while the annotator has few answers in the scope, because a K×K matrix learned from a handful of
// answers is mostly noise: a brand-new annotator in a brand-new scope weighs exactly the contract's
// one-coin weight of r = 0.7.
import { NEW_ANNOTATOR_RELIABILITY } from './reputation.ts';

/** The model's constants: one configuration for every scope (bench/README.md has the measurements). */
export interface LabelModelSettings {
  /** The prior's weight, in pseudo-answers per true option (the one-coin reliability gets K times this). */
  priorAnswersPerRow: number;
  /** Back-off: the matrix weighs n/(n + backoffAnswers) against the one-coin form, n = answers in the matrix. */
  backoffAnswers: number;
  /** Pseudo-answers per row of the contract's r0 in a scope's population prior (scope-prior.ts). */
  populationPriorAnswers: number;
  /** Pseudo-tasks per option of the uniform distribution in a scope's class prior (scope-prior.ts). */
  classPriorItems: number;
}

// 2 pseudo-answers per row and a back-off of n/(n+5) were chosen before any measurement (bench/README.md found
// 1–4 and 2–10 to make little difference); the population prior's 5 was measured on bench/quality's datasets,
// one value for all of them.
export const LABEL_MODEL: Readonly<LabelModelSettings> = Object.freeze({
  priorAnswersPerRow: 2,
  backoffAnswers: 5,
  populationPriorAnswers: 5,
  classPriorItems: 5,
});

/** One annotator's learned state in one scope: what the service stores per (annotator, scope) row. */
export interface AnnotatorCounts {
  /** K×K soft counts, row-major: matrix[k·K + l] = answers l on tasks whose true option is k. No prior. */
  matrix: ArrayLike<number>;
  /** Soft count of right answers over every task of the scope (matrix- and one-coin-form alike). */
  correct: number;
  /** The answers behind `correct`. */
  answered: number;
}

/**
 * What the scope assumes of an annotator before their answers say otherwise: the one-coin reliability
 * and the row-normalised K×K shape of the matrix prior (null: the one-coin shape of that reliability).
 */
export interface ScopePrior {
  reliability: number;
  shape: ArrayLike<number> | null;
}

/** A scope before its first re-fit: the contract's new-annotator reliability, 0.7. */
export const NEW_SCOPE_PRIOR: Readonly<ScopePrior> = Object.freeze({ reliability: NEW_ANNOTATOR_RELIABILITY, shape: null });

/** An annotator with no answers yet in a scope of K options. */
export function emptyCounts(optionCount: number): AnnotatorCounts {
  return { matrix: new Array<number>(optionCount * optionCount).fill(0), correct: 0, answered: 0 };
}

/** The one-coin weight of reliability r among K options: ln(r·(K−1)/(1−r)), the contract's first rule. */
export function oneCoinWeight(reliability: number, optionCount: number): number {
  return Math.log((reliability * (optionCount - 1)) / (1 - reliability));
}

// Probabilities stay strictly inside (0, 1) so every log stays finite.
export const clampProbability = (p: number) => Math.min(0.999, Math.max(0.001, p));

/** The scope's K, read from the stored matrix (always K×K). */
const scopeOptionCount = (counts: AnnotatorCounts) => Math.round(Math.sqrt(counts.matrix.length));

/** The annotator's one-coin reliability: right answers over answers, with K·priorAnswersPerRow pseudo-answers of the prior. */
export function oneCoinReliability(counts: AnnotatorCounts | null, prior: ScopePrior = NEW_SCOPE_PRIOR, settings = LABEL_MODEL): number {
  if (!counts) return clampProbability(prior.reliability);
  const weight = settings.priorAnswersPerRow * scopeOptionCount(counts);
  return clampProbability((counts.correct + weight * prior.reliability) / (counts.answered + weight));
}

/** Σ of the matrix: the answers it holds (golden and decided tasks on the scope's option set). */
export function matrixAnswers(counts: AnnotatorCounts): number {
  let total = 0;
  for (let i = 0; i < counts.matrix.length; i++) total += counts.matrix[i] ?? 0;
  return total;
}

/** P(answer | true option k) under the prior: the scope's shape, or the one-coin shape of its reliability. */
export function priorCell(prior: ScopePrior, optionCount: number, k: number, answer: number): number {
  if (prior.shape) return prior.shape[k * optionCount + answer] ?? 0;
  return k === answer ? prior.reliability : (1 - prior.reliability) / (optionCount - 1);
}

/**
 * Writes ln P(answer l | true option k) for every cell of a task on the scope's option set, row-major
 * into `out` from `offset`: w · (matrix row k with the prior) + (1 − w) · one-coin, w = n / (n +
 * backoffAnswers), n the answers in the matrix. O(K²); the re-fit fills one table per annotator.
 */
export function writeLogConfusion(
  counts: AnnotatorCounts | null,
  optionCount: number,
  prior: ScopePrior,
  settings: LabelModelSettings,
  out: Float64Array | number[],
  offset = 0,
): void {
  const K = optionCount;
  const r = oneCoinReliability(counts, prior, settings);
  const n = counts ? matrixAnswers(counts) : 0;
  const w = n / (n + settings.backoffAnswers);
  const a = settings.priorAnswersPerRow;
  for (let k = 0; k < K; k++) {
    let rowTotal = 0;
    if (counts) for (let l = 0; l < K; l++) rowTotal += counts.matrix[k * K + l] ?? 0;
    for (let l = 0; l < K; l++) {
      const oneCoin = k === l ? r : (1 - r) / (K - 1);
      if (!counts || w === 0) {
        // No answer in the matrix yet: exactly the one-coin form (the contract's weight for r0 = 0.7).
        out[offset + k * K + l] = Math.log(oneCoin);
        continue;
      }
      const cell = ((counts.matrix[k * K + l] ?? 0) + a * priorCell(prior, K, k, l)) / (rowTotal + a);
      out[offset + k * K + l] = Math.log(w * cell + (1 - w) * oneCoin);
    }
  }
}

/** ln P(answer | true option k) for every k, for a task on the scope's option set: what one answer adds. */
export function answerLogLikelihoods(
  counts: AnnotatorCounts | null,
  answer: number,
  optionCount: number,
  prior: ScopePrior = NEW_SCOPE_PRIOR,
  settings: LabelModelSettings = LABEL_MODEL,
): number[] {
  const table = new Array<number>(optionCount * optionCount);
  writeLogConfusion(counts, optionCount, prior, settings, table);
  return Array.from({ length: optionCount }, (_, k) => table[k * optionCount + answer] ?? 0);
}

/**
 * ln P(answer | true option k) for a task whose m options differ from the scope's (one-coin form only,
 * since a K×K matrix says nothing about other options): r on the answered option, (1 − r)/(m − 1) elsewhere.
 */
export function oneCoinLogLikelihoods(
  counts: AnnotatorCounts | null,
  answer: number,
  optionCount: number,
  prior: ScopePrior = NEW_SCOPE_PRIOR,
  settings: LabelModelSettings = LABEL_MODEL,
): number[] {
  const r = oneCoinReliability(counts, prior, settings);
  const right = Math.log(r);
  const wrong = Math.log((1 - r) / (optionCount - 1));
  return Array.from({ length: optionCount }, (_, k) => (k === answer ? right : wrong));
}
