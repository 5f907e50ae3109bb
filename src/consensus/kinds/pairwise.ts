// The pairwise answer kind: a task shows a prompt and two candidates, A and B, and the answer is `A`, `B`
// or, when the task allows it, `tie`. The service shows the candidates in a random order per assignment and
// maps each answer back to A/B, so on average position bias cancels out; this model is also told on which
// side each annotator saw A, so it learns who picks a side rather than a candidate and discounts them task
// by task instead of only on average.
//
// API (pure, like the single-choice model next door):
//   pairwiseParameters(counts, prior?, settings?)       → { bias, reliability } of one annotator
//   pairAnswerLogLikelihoods(counts, answer, allowTie, prior?, settings?) → ln P(answer | truth) for A, B(, tie)
//   pairLogPosterior(answers, allowTie, scope?)         → a task's log-posterior over A, B(, tie)
//   decidePair(input)                                   → complete / continue / fail, stop-rule.ts's rule
//   addDecidedAnswer(counts, answer, truth)             → the answerer's counts after a decided task
//   positionBias(counts)                                → measured share of "left" picks beyond the truth, or null
//   describeAnnotator(counts, prior?, settings?)        → answers, reliability, bias (fitted and measured)
//   refitPairs(data, options?)                          → EM over every answer: counts, priors, posteriors
//   rankGroup(pairs, settings?)                         → Bradley–Terry ranking of a group's candidates
// Arrays over answers are in PAIR_CHOICES order: [A, B] or [A, B, tie].
//
// The annotator model ("position or judge"): on each answer the annotator, with probability |b|, picks the
// side they lean to (left for b > 0, right for b < 0) whatever the candidates are, and otherwise judges,
// picking the true answer with probability r and each other allowed answer with (1 − r)/(m − 1), m = 2 or
// 3 allowed answers. Two numbers per annotator learn from a few dozen answers (a 3×3 confusion per shown
// order needs many more), serve tasks with and without ties alike, and are what the service reports: a
// reliability and a position bias. Once mapped back to A/B a position-driven answer is noise, since the
// order is random — an annotator who always picks the left weighs nothing — while an answer against the
// side they lean to is strong evidence. One signed bias, not a share for each side: on tasks without ties
// "left or right at random a share s of the time" is indistinguishable from a lower r, and EM drifts along
// that ridge for hundreds of iterations without settling.
//
// Counts are what the annotator answered as shown on screen against the truth as shown (a 3×3 table, one
// count per answer), a plain summary of the data: the online step adds one decided task at a time (its
// result taken as the truth, as soft-counts.ts does for single choice), `refitPairs` replaces them with
// soft counts from every answer. The parameters are read from the table by moments, in closed form: b is
// the measured bias (`positionBias`), r the right answers left after the position-driven ones, both with
// `priorAnswers` pseudo-answers of the scope's prior. Confidence is the posterior as it is: no calibration
// map yet (single choice fits one on golden tasks).
import { clampProbability } from '../label-model.ts';
import { NEW_ANNOTATOR_RELIABILITY } from '../reputation.ts';
import { decideTask, probabilities } from '../stop-rule.ts';

/** The answers, in the order every array of this module uses: index 0 = A, 1 = B, 2 = tie. */
export const PAIR_CHOICES = Object.freeze(['A', 'B', 'tie'] as const);
export type PairChoice = (typeof PAIR_CHOICES)[number];
/** Where the annotator saw candidate A. */
export type Side = 'left' | 'right';

/** One answer, already mapped back to the canonical candidates, with the side A was shown on. */
export interface PairAnswer {
  choice: PairChoice;
  aShownOn: Side;
}

/** The model's constants: one configuration for every scope. */
export interface PairwiseSettings {
  /** Weight of the scope's prior in an annotator's bias and reliability, in pseudo-answers. */
  priorAnswers: number;
  /** Weight of the new-annotator prior in a scope's population prior, in annotators (each counting n/(n + priorAnswers)). */
  populationPriorAnswers: number;
  /** Pseudo-tasks per answer in the scope's class prior, so that a young scope stays near uniform. */
  classPriorItems: number;
}

// 4 pseudo-answers = single choice's 2 per row over two options; 5 and 5 as single choice's population and
// class priors (label-model.ts). Chosen before any measurement, not tuned on the bench.
export const PAIRWISE_MODEL: Readonly<PairwiseSettings> = Object.freeze({ priorAnswers: 4, populationPriorAnswers: 5, classPriorItems: 5 });

/** An annotator's parameters: the signed position bias b (left > 0) and the reliability r when judging. */
export interface PairwiseParameters {
  bias: number;
  reliability: number;
}

/** What a scope assumes of an annotator before their answers say otherwise. */
export type PairwisePrior = PairwiseParameters;

/** A scope before its first re-fit: no bias, the contract's new-annotator reliability (a first answer weighs ln(0.7/0.3)). */
export const NEW_PAIRWISE_PRIOR: Readonly<PairwisePrior> = Object.freeze({ bias: 0, reliability: NEW_ANNOTATOR_RELIABILITY });

/** One annotator's learned state in one scope: what the service would store per (annotator, scope) row. */
export interface PairwiseCounts {
  /**
   * 3×3 row-major, as shown on screen (0 = left, 1 = right, 2 = tie): shown[d·3 + e] = answers e on pairs
   * whose truth was shown as d. Soft after a re-fit. No prior.
   */
  shown: ArrayLike<number>;
}

/** How often each answer is the truth: P(A | not a tie) and P(tie) on tasks that allow ties. */
export interface PairClassPrior {
  a: number;
  tie: number;
}

/** A scope before its first re-fit: A and B alike, and the three answers alike where ties are allowed. */
export const UNIFORM_PAIR_CLASS_PRIOR: Readonly<PairClassPrior> = Object.freeze({ a: 0.5, tie: 1 / 3 });

/** The scope a decision reads: its priors and settings (defaults: a scope before its first re-fit). */
export interface PairScopeView {
  prior?: PairwisePrior;
  classPrior?: PairClassPrior;
  settings?: PairwiseSettings;
}

/** An annotator with no answers yet. */
export function emptyPairwiseCounts(): PairwiseCounts {
  return { shown: new Array<number>(9).fill(0) };
}

// At least 1 % of answers judged, so the reliability stays defined.
const MAX_BIAS = 0.99;
const clampBias = (b: number) => Math.min(MAX_BIAS, Math.max(-MAX_BIAS, b));

const choiceIndex = (choice: PairChoice) => PAIR_CHOICES.indexOf(choice);

/** Canonical index (A, B, tie) ↔ shown index (left, right, tie): the same swap both ways. */
export const shownIndex = (canonical: number, aLeft: boolean) => (canonical === 2 || aLeft ? canonical : 1 - canonical);

/** Σ of a 3×3 table. */
function answersIn(shown: ArrayLike<number>): number {
  let n = 0;
  for (let c = 0; c < 9; c++) n += shown[c] ?? 0;
  return n;
}

/** The measured bias of a 3×3 table, or null (see `positionBias`). */
function measuredBias(shown: ArrayLike<number>): number | null {
  const cell = (d: number, e: number) => shown[d * 3 + e] ?? 0;
  const row = (d: number) => cell(d, 0) + cell(d, 1) + cell(d, 2);
  const left = row(0);
  const right = row(1);
  const tie = row(2);
  let weighted = 0;
  let weight = 0;
  // Both sides' truths are needed: with one only, a good annotator's right answers would look like a bias.
  if (left > 0 && right > 0) {
    weighted += ((left + right) * (cell(0, 0) / left - cell(1, 1) / right + cell(1, 0) / right - cell(0, 1) / left)) / 2;
    weight += left + right;
  }
  if (tie > 0) {
    weighted += cell(2, 0) - cell(2, 1);
    weight += tie;
  }
  return weight === 0 ? null : weighted / weight;
}

/**
 * The measured position bias, in [−1, 1]: how much more often the annotator picks the left-shown side than
 * the mirror image of the same truth would have them pick the right — P(left | truth left) − P(right | truth
 * right), P(left | truth right) − P(right | truth left) and P(left | tie) − P(right | tie), weighted by how
 * often each truth came up. 0 for an annotator who follows the candidates whatever their order, 1 for one
 * who always picks the left, b under the model. Null until both sides' truths (or a tie) have come up.
 */
export function positionBias(counts: PairwiseCounts | null): number | null {
  return counts ? measuredBias(counts.shown) : null;
}

/**
 * An annotator's parameters from their table, by moments: b is the measured bias, r the right answers
 * less the position-driven ones (|b| of the answers whose truth was on the side they lean to) over the
 * judged answers, (1 − |b|) of all; each with `priorAnswers` pseudo-answers of the scope's prior.
 */
export function pairwiseParameters(
  counts: PairwiseCounts | null,
  prior: PairwisePrior = NEW_PAIRWISE_PRIOR,
  settings: PairwiseSettings = PAIRWISE_MODEL,
): PairwiseParameters {
  const w = settings.priorAnswers;
  if (!counts) return { bias: clampBias(prior.bias), reliability: clampProbability(prior.reliability) };
  const shown = counts.shown;
  const n = answersIn(shown);
  const bias = clampBias(((measuredBias(shown) ?? prior.bias) * n + w * prior.bias) / (n + w));
  const lean = bias >= 0 ? 0 : 1;
  const leaning = (shown[lean * 3] ?? 0) + (shown[lean * 3 + 1] ?? 0) + (shown[lean * 3 + 2] ?? 0);
  const right = (shown[0] ?? 0) + (shown[4] ?? 0) + (shown[8] ?? 0);
  const judged = (1 - Math.abs(bias)) * n;
  const judgedRight = Math.min(judged, Math.max(0, right - Math.abs(bias) * leaning));
  return { bias, reliability: clampProbability((judgedRight + w * prior.reliability) / (judged + w)) };
}

/** P(shown answer e | shown truth d) among m allowed answers. */
function shownProbability(p: PairwiseParameters, d: number, e: number, m: number): number {
  const position = (e === 0 && p.bias > 0) || (e === 1 && p.bias < 0) ? Math.abs(p.bias) : 0;
  const judged = e === d ? p.reliability : (1 - p.reliability) / (m - 1);
  return clampProbability(position + (1 - Math.abs(p.bias)) * judged);
}

/** ln P(answer | truth k) for every canonical truth k of a task (2 values, or 3 when ties are allowed). */
function logLikelihoodsOf(p: PairwiseParameters, choice: number, aLeft: boolean, allowTie: boolean): number[] {
  const m = allowTie ? 3 : 2;
  const e = shownIndex(choice, aLeft);
  return Array.from({ length: m }, (_, k) => Math.log(shownProbability(p, shownIndex(k, aLeft), e, m)));
}

/** ln P(answer | truth) for A, B (and tie when allowed): what one answer adds to a task's posterior. */
export function pairAnswerLogLikelihoods(
  counts: PairwiseCounts | null,
  answer: PairAnswer,
  allowTie: boolean,
  prior: PairwisePrior = NEW_PAIRWISE_PRIOR,
  settings: PairwiseSettings = PAIRWISE_MODEL,
): number[] {
  if (answer.choice === 'tie' && !allowTie) throw new RangeError('a tie answered on a task that does not allow ties');
  return logLikelihoodsOf(pairwiseParameters(counts, prior, settings), choiceIndex(answer.choice), answer.aShownOn === 'left', allowTie);
}

/** The log class prior of a task: [A, B] or [A, B, tie]. */
export function pairLogPrior(classPrior: PairClassPrior, allowTie: boolean): number[] {
  const a = clampProbability(classPrior.a);
  if (!allowTie) return [Math.log(a), Math.log(1 - a)];
  const tie = clampProbability(classPrior.tie);
  return [Math.log((1 - tie) * a), Math.log((1 - tie) * (1 - a)), Math.log(tie)];
}

/** One answer of a task as a decision reads it: the answerer's stored counts (null: none yet) and the answer. */
export interface PairTaskAnswer extends PairAnswer {
  counts: PairwiseCounts | null;
}

/** A task's log-posterior: the class prior plus every answer's log-likelihoods. */
export function pairLogPosterior(answers: readonly PairTaskAnswer[], allowTie: boolean, scope: PairScopeView = {}): number[] {
  const logPosterior = pairLogPrior(scope.classPrior ?? UNIFORM_PAIR_CLASS_PRIOR, allowTie);
  for (const answer of answers) {
    const evidence = pairAnswerLogLikelihoods(answer.counts, answer, allowTie, scope.prior, scope.settings);
    for (let k = 0; k < logPosterior.length; k++) logPosterior[k] = (logPosterior[k] ?? 0) + (evidence[k] ?? 0);
  }
  return logPosterior;
}

export interface PairDecisionInput {
  answers: readonly PairTaskAnswer[];
  allowTie: boolean;
  maxResponses: number;
  targetConfidence: number;
  scope?: PairScopeView;
}

/** As stop-rule.ts's StopDecision, with the answer named and the posterior over A, B(, tie). */
export type PairDecision =
  | { kind: 'complete'; confidence: number; result: PairChoice; posterior: number[] }
  | { kind: 'continue' | 'fail'; confidence: number; best: PairChoice; posterior: number[] };

/** Single choice's stop rule on the pair's posterior: complete at the target, fail at maxResponses. */
export function decidePair(input: PairDecisionInput): PairDecision {
  const logPosterior = pairLogPosterior(input.answers, input.allowTie, input.scope);
  const decision = decideTask({
    logPosterior,
    answerCount: input.answers.length,
    maxResponses: input.maxResponses,
    targetConfidence: input.targetConfidence,
  });
  const posterior = probabilities(logPosterior);
  if (decision.kind === 'complete') return { kind: 'complete', confidence: decision.confidence, result: PAIR_CHOICES[decision.result] ?? 'A', posterior };
  return { kind: decision.kind, confidence: decision.confidence, best: PAIR_CHOICES[decision.best] ?? 'A', posterior };
}

/** Adds an answer to a 3×3 table at `offset`: `truth[k]` to the cell (truth k as shown, answer as shown). */
function addToTable(table: Float64Array | number[], offset: number, choice: number, aLeft: boolean, truth: ArrayLike<number>): void {
  const e = shownIndex(choice, aLeft);
  for (let k = 0; k < 3; k++) {
    const weight = truth[k] ?? 0;
    if (weight !== 0) table[offset + shownIndex(k, aLeft) * 3 + e] = (table[offset + shownIndex(k, aLeft) * 3 + e] ?? 0) + weight;
  }
}

/**
 * The annotator's counts after one answer on a decided task (a new object): `truth` is the result, one
 * whole count as soft-counts.ts moves single choice online, or a distribution over A, B(, tie).
 */
export function addDecidedAnswer(counts: PairwiseCounts | null, answer: PairAnswer, truth: PairChoice | readonly number[]): PairwiseCounts {
  const shown = counts ? Array.from({ length: 9 }, (_, c) => counts.shown[c] ?? 0) : new Array<number>(9).fill(0);
  const distribution = typeof truth === 'string' ? PAIR_CHOICES.map((choice) => (choice === truth ? 1 : 0)) : truth;
  addToTable(shown, 0, choiceIndex(answer.choice), answer.aShownOn === 'left', distribution);
  return { shown };
}

export interface AnnotatorSummary {
  answers: number;
  /** P(right answer) when judging, with the prior. */
  reliability: number;
  /** The fitted signed bias b (left > 0), with the prior. */
  bias: number;
  /** The measured bias (`positionBias`), without the prior; null while unmeasurable. */
  positionBias: number | null;
}

/** What the service reports per annotator. */
export function describeAnnotator(
  counts: PairwiseCounts | null,
  prior: PairwisePrior = NEW_PAIRWISE_PRIOR,
  settings: PairwiseSettings = PAIRWISE_MODEL,
): AnnotatorSummary {
  const p = pairwiseParameters(counts, prior, settings);
  return { answers: counts ? answersIn(counts.shown) : 0, reliability: p.reliability, bias: p.bias, positionBias: positionBias(counts) };
}

/** A scope's answers as parallel arrays: answer j is `choice[j]` (0 A, 1 B, 2 tie) by `annotator[j]` on `item[j]`. */
export interface PairScopeAnswers {
  itemCount: number;
  annotatorCount: number;
  item: Int32Array;
  annotator: Int32Array;
  choice: Int32Array | Int8Array | Uint8Array;
  /** Per answer: 1 when that annotator saw A on the left. */
  aLeft: Uint8Array;
  /** Per item: 1 when the task allows ties (a tie answered on another task is a caller's error). */
  allowTie: Uint8Array;
  /** Per item: the known truth (golden tasks), −1 when unknown. */
  truth?: Int32Array;
  /** Per item: 1 when its answers go into the returned counts (decided and golden tasks), 0 for open ones. Default 1. */
  counted?: Uint8Array;
}

export interface PairRefitOptions {
  settings?: PairwiseSettings;
  maxIterations?: number;
  /** Stop once no item's posterior moves by more than this in an iteration. */
  tolerance?: number;
}

export interface PairRefitResult {
  /** Per annotator, over counted items: the new stored rows (an empty table for an annotator without one). */
  counts: PairwiseCounts[];
  prior: PairwisePrior;
  classPrior: PairClassPrior;
  /** Item i's posterior over A, B, tie at [3i, 3i + 3) (tie 0 where ties are not allowed). */
  posteriors: Float64Array;
  iterations: number;
}

/** Every annotator's table under the item posteriors T, annotator a's at [9a, 9a + 9) (counted items only if asked). */
function accumulate(data: PairScopeAnswers, T: Float64Array, onlyCounted: boolean): Float64Array {
  const tables = new Float64Array(9 * data.annotatorCount);
  for (let j = 0; j < data.item.length; j++) {
    const i = data.item[j] ?? 0;
    if (onlyCounted && data.counted?.[i] === 0) continue;
    addToTable(tables, 9 * (data.annotator[j] ?? 0), data.choice[j] ?? 0, data.aLeft[j] === 1, T.subarray(3 * i, 3 * i + 3));
  }
  return tables;
}

/**
 * The scope's population prior, as scope-prior.ts's for single choice: the annotators' tables pooled, each
 * normalised and weighted by n/(n + priorAnswers) (at most one annotator's worth), read with
 * `populationPriorAnswers` annotators' worth of the new-annotator prior.
 */
function pooledPrior(tables: Float64Array, settings: PairwiseSettings): PairwisePrior {
  const pooled = new Float64Array(9);
  for (let a = 0; 9 * a < tables.length; a++) {
    const table = tables.subarray(9 * a, 9 * a + 9);
    const n = answersIn(table);
    if (n === 0) continue;
    for (let c = 0; c < 9; c++) pooled[c] = (pooled[c] ?? 0) + (table[c] ?? 0) / (n + settings.priorAnswers);
  }
  return pairwiseParameters({ shown: pooled }, NEW_PAIRWISE_PRIOR, { ...settings, priorAnswers: settings.populationPriorAnswers });
}

/** The class prior from the items' posteriors, `classPriorItems` pseudo-tasks per answer. */
function fittedClassPrior(data: PairScopeAnswers, T: Float64Array, settings: PairwiseSettings): PairClassPrior {
  const lambda = settings.classPriorItems;
  let a = 0;
  let b = 0;
  let tie = 0;
  let tieItems = 0;
  for (let i = 0; i < data.itemCount; i++) {
    a += T[3 * i] ?? 0;
    b += T[3 * i + 1] ?? 0;
    if (data.allowTie[i] !== 1) continue;
    tie += T[3 * i + 2] ?? 0;
    tieItems += 1;
  }
  return { a: (a + lambda) / (a + b + 2 * lambda), tie: (tie + lambda) / (tieItems + 3 * lambda) };
}

/** Majority vote over each item's allowed answers (ties split evenly); a known truth as a certainty. */
function majorityStart(data: PairScopeAnswers): Float64Array {
  const T = new Float64Array(3 * data.itemCount);
  for (let j = 0; j < data.item.length; j++) {
    const cell = 3 * (data.item[j] ?? 0) + (data.choice[j] ?? 0);
    T[cell] = (T[cell] ?? 0) + 1;
  }
  for (let i = 0; i < data.itemCount; i++) {
    const m = data.allowTie[i] === 1 ? 3 : 2;
    const truth = data.truth?.[i] ?? -1;
    let top = 0;
    for (let k = 0; k < m; k++) top = Math.max(top, T[3 * i + k] ?? 0);
    let tied = 0;
    for (let k = 0; k < m; k++) tied += (T[3 * i + k] ?? 0) === top ? 1 : 0;
    for (let k = 0; k < 3; k++) T[3 * i + k] = truth >= 0 ? (k === truth ? 1 : 0) : k < m && (T[3 * i + k] ?? 0) === top ? 1 / tied : 0;
  }
  return T;
}

/** One E-step: every unknown item's posterior, in place; returns the largest change. */
function expectation(data: PairScopeAnswers, params: PairwiseParameters[], classPrior: PairClassPrior, T: Float64Array): number {
  // ln P(shown answer e | shown truth d) per annotator, for 2 and for 3 allowed answers.
  const table = (p: PairwiseParameters, m: number) => Array.from({ length: 9 }, (_, c) => Math.log(shownProbability(p, Math.floor(c / 3), c % 3, m)));
  const tables = params.map((p) => [table(p, 2), table(p, 3)]);
  const logp = new Float64Array(3 * data.itemCount);
  const priors = [pairLogPrior(classPrior, false), pairLogPrior(classPrior, true)];
  for (let i = 0; i < data.itemCount; i++) logp.set(priors[data.allowTie[i] ?? 0] ?? [], 3 * i);
  for (let j = 0; j < data.item.length; j++) {
    const i = data.item[j] ?? 0;
    const allowTie = data.allowTie[i] === 1;
    const aLeft = data.aLeft[j] === 1;
    const logTable = tables[data.annotator[j] ?? 0]?.[allowTie ? 1 : 0] ?? [];
    const e = shownIndex(data.choice[j] ?? 0, aLeft);
    for (let k = 0; k < (allowTie ? 3 : 2); k++) logp[3 * i + k] = (logp[3 * i + k] ?? 0) + (logTable[shownIndex(k, aLeft) * 3 + e] ?? 0);
  }
  let change = 0;
  for (let i = 0; i < data.itemCount; i++) {
    if ((data.truth?.[i] ?? -1) >= 0) continue;
    const m = data.allowTie[i] === 1 ? 3 : 2;
    let top = -Infinity;
    for (let k = 0; k < m; k++) top = Math.max(top, logp[3 * i + k] ?? 0);
    let total = 0;
    for (let k = 0; k < m; k++) total += logp[3 * i + k] = Math.exp((logp[3 * i + k] ?? 0) - top);
    for (let k = 0; k < 3; k++) {
      const value = k < m ? (logp[3 * i + k] ?? 0) / total : 0;
      change = Math.max(change, Math.abs(value - (T[3 * i + k] ?? 0)));
      T[3 * i + k] = value;
    }
  }
  return change;
}

const parametersOf = (tables: Float64Array, prior: PairwisePrior, settings: PairwiseSettings) =>
  Array.from({ length: tables.length / 9 }, (_, a) => pairwiseParameters({ shown: tables.subarray(9 * a, 9 * a + 9) }, prior, settings));

/**
 * Re-fits a scope: Dawid–Skene EM from majority vote over every answer — soft tables from the items'
 * posteriors, parameters from the tables, posteriors from the parameters — re-estimating the population
 * prior and the class prior on each iteration, as the single-choice re-fit does. Majority vote starts it on
 * the right side of the A/B mirror: the order is random, so the position-driven answers it counts are
 * noise, not a pull either way.
 */
export function refitPairs(data: PairScopeAnswers, options: PairRefitOptions = {}): PairRefitResult {
  const settings = options.settings ?? PAIRWISE_MODEL;
  const maxIterations = options.maxIterations ?? 50;
  const tolerance = options.tolerance ?? 1e-4;
  const T = majorityStart(data);
  let iterations = 0;
  while (iterations < maxIterations) {
    iterations += 1;
    const tables = accumulate(data, T, false);
    const prior = pooledPrior(tables, settings);
    if (expectation(data, parametersOf(tables, prior, settings), fittedClassPrior(data, T, settings), T) < tolerance) break;
  }
  const all = accumulate(data, T, false);
  const stored = data.counted ? accumulate(data, T, true) : all;
  return {
    counts: Array.from({ length: data.annotatorCount }, (_, a) => ({ shown: Array.from(stored.subarray(9 * a, 9 * a + 9)) })),
    prior: pooledPrior(all, settings),
    classPrior: fittedClassPrior(data, T, settings),
    posteriors: T,
    iterations,
  };
}

/** A compared pair of a group: its candidates and its posterior over [A, B] or [A, B, tie] (A = `a`). */
export interface GroupPair {
  a: string;
  b: string;
  posterior: readonly number[];
  /** How much the pair counts, 1 by default (e.g. 0 for a pair still open). */
  weight?: number;
}

export interface RankedCandidate {
  candidate: string;
  /** ln of the Bradley–Terry strength, against a reference candidate of strength 1. */
  score: number;
  /** 1 for the best; equal scores share a rank. */
  rank: number;
}

export interface BradleyTerrySettings {
  /** Virtual games each candidate plays against a reference of strength 1, half of them won. */
  priorGames: number;
  maxIterations: number;
  /** Stop once no score moves by more than this in an iteration. */
  tolerance: number;
}

// Half a game against the reference keeps an undefeated (or winless) candidate finite while moving a
// candidate with a handful of games very little; the order of a round robin does not depend on it.
export const BRADLEY_TERRY: Readonly<BradleyTerrySettings> = Object.freeze({ priorGames: 0.5, maxIterations: 10_000, tolerance: 1e-10 });

// Scores closer than this share a rank.
const RANK_TOLERANCE = 1e-9;

/**
 * Ranks a group's candidates by Bradley–Terry, P(i beats j) = πi / (πi + πj), fitted by the MM algorithm
 * (Zermelo's iteration, Hunter 2004). Each pair adds its posterior as fractional wins — P(A) to a, P(B) to
 * b, a tie half to each — so an uncertain pair counts for little either way and no threshold is needed.
 */
export function rankGroup(pairs: readonly GroupPair[], settings: BradleyTerrySettings = BRADLEY_TERRY): RankedCandidate[] {
  const names: string[] = [];
  const index = new Map<string, number>();
  const indexOf = (name: string) => {
    let i = index.get(name);
    if (i === undefined) index.set(name, (i = names.push(name) - 1));
    return i;
  };
  const games: Array<{ i: number; j: number; n: number }> = [];
  const pairsOf: number[][] = [];
  for (const pair of pairs) {
    if (pair.a === pair.b) throw new RangeError(`a candidate compared with itself: ${pair.a}`);
    const i = indexOf(pair.a);
    const j = indexOf(pair.b);
    games.push({ i, j, n: pair.weight ?? 1 });
  }
  const C = names.length;
  const wins = new Float64Array(C);
  for (let g = 0; g < pairs.length; g++) {
    const pair = pairs[g] as GroupPair;
    const { i, j, n } = games[g] as { i: number; j: number; n: number };
    const tie = pair.posterior[2] ?? 0;
    wins[i] = (wins[i] ?? 0) + n * ((pair.posterior[0] ?? 0) + tie / 2);
    wins[j] = (wins[j] ?? 0) + n * ((pair.posterior[1] ?? 0) + tie / 2);
    (pairsOf[i] ??= []).push(g);
    (pairsOf[j] ??= []).push(g);
  }
  const strength = new Float64Array(C).fill(1);
  const g0 = settings.priorGames;
  for (let iteration = 0; iteration < settings.maxIterations; iteration++) {
    let change = 0;
    // Gauss–Seidel: each candidate's update uses the others' newest strengths.
    for (let c = 0; c < C; c++) {
      const own = strength[c] ?? 1;
      let denominator = g0 / (own + 1);
      for (const g of pairsOf[c] ?? []) {
        const { i, j, n } = games[g] as { i: number; j: number; n: number };
        denominator += n / (own + (strength[i === c ? j : i] ?? 1));
      }
      const next = ((wins[c] ?? 0) + g0 / 2) / denominator;
      change = Math.max(change, Math.abs(Math.log(next / own)));
      strength[c] = next;
    }
    if (change < settings.tolerance) break;
  }
  const scored = names.map((candidate, c) => ({ candidate, score: Math.log(strength[c] ?? 1) }));
  scored.sort((x, y) => y.score - x.score || (x.candidate < y.candidate ? -1 : x.candidate > y.candidate ? 1 : 0));
  return scored.map((entry) => ({ ...entry, rank: 1 + scored.filter((other) => other.score - entry.score > RANK_TOLERANCE).length }));
}
