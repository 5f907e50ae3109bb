// Multi-select tasks: the answer is a subset of the task's K options (possibly empty, where the task allows
// it), and the truth is a subset too. Each option is decided as its own yes/no question: is it in the set?
//
// The annotator model: one 2×2 confusion per annotator, shared across the options (its sensitivity, the
// chance it ticks an option that belongs, and its specificity, the chance it leaves one that does not),
// with a class prior per option (how often each option belongs). Why not a 2×2 per annotator per option:
// an annotator's habits — ticking too little (a careless annotator misses options), too much (an
// over-eager one ticks doubtful ones), or at random — are its own, not an option's, and a per-option
// matrix spreads its answers over K matrices: at 10 options and 100 tasks, a rare option's "belongs" row
// would hold a handful of answers, mostly prior. What does depend on the option, how often it belongs, is
// the class prior, learned over every task of the scope. (label-model.ts makes the same trade for K×K
// matrices, backing off to one reliability while the matrix is young.)
//
// State and learning, as the single-choice model's (label-model.ts, soft-counts.ts, refit.ts):
// - an annotator's stored state is four counts [absent·left, absent·ticked, present·left, present·ticked],
//   one count per option of every decided task; a COMPLETED task adds, per answerer and per option, one
//   whole count at (decided, ticked) (`addMultiCounts`; soft-counts.ts says why whole counts, and why a
//   failed task moves nothing);
// - reading an annotator (`taggerParams`) adds `priorAnswersPerRow` pseudo-answers per row of the scope's
//   typical annotator (before the first re-fit: the contract's r0 = 0.7 both ways);
// - `refitMulti` replaces the counts wholesale: EM over every answer of the scope, started from per-option
//   majority vote, re-estimating the class priors and the typical annotator (pooled as scope-prior.ts
//   pools, shrunk towards r0) at every iteration. A spammer who ticks at random ticks as often whether an
//   option belongs or not: sensitivity + specificity ≈ 1, and each of its answers weighs ≈ 0.
//
// Per task (`multiPosterior`): per option, the log-odds that it belongs = its class prior's log-odds + Σ
// over the answers of ln(sens/(1 − spec)) if ticked, ln((1 − sens)/spec) if not. A task that does not allow
// the empty set conditions on "at least one option belongs": P(j ∈ S | S ≠ ∅) = p_j / (1 − Π_k (1 − p_k)).
// The result is every option more likely in than out (on a task that needs one, the likeliest option when
// none is).
//
// The stop rule (`decideMulti`), asked once a task holds its validationsNeeded answers (sdk_answer's gate,
// stop-rule.ts): a task COMPLETES when every option is decided — P(in) ≥ target or P(out) ≥ target —; it
// FAILS at maxResponses.
//
// API (options are indices 0 … K−1 in the scope's order; a subset is an array of indices):
//   taggerParams(counts, prior?, settings?) → TaggerParams        an annotator's sensitivity and specificity
//   multiPosterior(answers, K, { classPrior, allowEmpty }) → MultiPosterior   per-option P(in), the chosen set
//   decideMulti(posterior, stop) → MultiDecision                  continue, complete or fail
//   addMultiCounts(counts, K, result, chosen) → number[]          the counts after a completed task
//   refitMulti(data, options?) → MultiRefit                       EM over every answer of a scope
import { clampProbability } from '../label-model.ts';
import { NEW_ANNOTATOR_RELIABILITY } from '../reputation.ts';
import { DEFAULT_TARGET_CONFIDENCE, round4 } from '../stop-rule.ts';

/** An annotator's 2×2 confusion, shared by every option. */
export interface TaggerParams {
  /** P(ticked | the option belongs). */
  sensitivity: number;
  /** P(left | the option does not belong). */
  specificity: number;
}

/** The model's constants: one configuration for every scope (label-model.ts's values, chosen there). */
export interface MultiModelSettings {
  /** The prior's weight in pseudo-answers per row of the 2×2 (absent, present). */
  priorAnswersPerRow: number;
  /** The typical annotator pools the annotators' counts, each weighed n/(n + backoffAnswers)… */
  backoffAnswers: number;
  /** …shrunk towards r0 by this many pseudo-answers per row. */
  populationPriorAnswers: number;
  /** Pseudo-tasks on either side (in, out) of each option's class prior. */
  classPriorItems: number;
}

export const MULTI_MODEL: Readonly<MultiModelSettings> = Object.freeze({
  priorAnswersPerRow: 2,
  backoffAnswers: 5,
  populationPriorAnswers: 5,
  classPriorItems: 5,
});

/** A new annotator in a new scope: the contract's new-annotator reliability, 0.7, on both rows. */
export const NEW_TAGGER: Readonly<TaggerParams> = Object.freeze({ sensitivity: NEW_ANNOTATOR_RELIABILITY, specificity: NEW_ANNOTATOR_RELIABILITY });

// Cells of the four counts: row (absent, present) × column (left, ticked).
const ABSENT_LEFT = 0;
const ABSENT_TICKED = 1;
const PRESENT_LEFT = 2;
const PRESENT_TICKED = 3;

/** An annotator's parameters: its counts (null: none yet) plus priorAnswersPerRow pseudo-answers per row of `prior`. */
export function taggerParams(counts: ArrayLike<number> | null, prior: TaggerParams = NEW_TAGGER, settings = MULTI_MODEL): TaggerParams {
  const a = settings.priorAnswersPerRow;
  const c = (cell: number) => counts?.[cell] ?? 0;
  return {
    sensitivity: clampProbability((c(PRESENT_TICKED) + a * prior.sensitivity) / (c(PRESENT_TICKED) + c(PRESENT_LEFT) + a)),
    specificity: clampProbability((c(ABSENT_LEFT) + a * prior.specificity) / (c(ABSENT_LEFT) + c(ABSENT_TICKED) + a)),
  };
}

/** What one answer adds to an option's log-odds of belonging: ticked, and left. */
export function tagWeights(tagger: TaggerParams): { ticked: number; left: number } {
  return {
    ticked: Math.log(tagger.sensitivity / (1 - tagger.specificity)),
    left: Math.log((1 - tagger.sensitivity) / tagger.specificity),
  };
}

/** One answer of a task: the options its annotator ticked, and its parameters (taggerParams of its counts). */
export interface MultiAnswer {
  tagger: TaggerParams;
  chosen: readonly number[];
}

export interface MultiPosterior {
  /** Per option: P(it belongs | answers) (given a non-empty set, where the task needs one). */
  probabilities: number[];
  /** The options more likely in than out, ascending (on a task that needs one: the likeliest when none is). */
  chosen: number[];
}

export interface MultiPosteriorOptions {
  /** Per option: how often it belongs; null: one in two. */
  classPrior?: ArrayLike<number> | null;
  /** Whether the empty set is a valid answer and result. Default true. */
  allowEmpty?: boolean;
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** The task's posterior, each option apart (then conditioned on a non-empty set where the task needs one). */
export function multiPosterior(answers: readonly MultiAnswer[], optionCount: number, options: MultiPosteriorOptions = {}): MultiPosterior {
  const logOdds = Array.from({ length: optionCount }, (_, j) => {
    const prior = clampProbability(options.classPrior?.[j] ?? 0.5);
    return Math.log(prior / (1 - prior));
  });
  for (const { tagger, chosen } of answers) {
    const { ticked, left } = tagWeights(tagger);
    const mine = new Set(chosen);
    for (let j = 0; j < optionCount; j++) logOdds[j] = (logOdds[j] ?? 0) + (mine.has(j) ? ticked : left);
  }
  let p = logOdds.map(sigmoid);
  if (options.allowEmpty === false) {
    // P(S ≠ ∅) = 1 − Π (1 − p_k), in logs so that many confident "out"s do not round it to 0.
    const logEmpty = logOdds.reduce((sum, z) => sum - Math.log1p(Math.exp(z)), 0);
    const nonEmpty = -Math.expm1(logEmpty);
    if (nonEmpty > 0) p = p.map((value) => Math.min(1, value / nonEmpty));
  }
  const chosen = p.flatMap((value, j) => (value > 0.5 ? [j] : []));
  if (options.allowEmpty === false && chosen.length === 0 && optionCount > 0) chosen.push(p.indexOf(Math.max(...p)));
  return { probabilities: p, chosen };
}

export interface MultiStopInput {
  /** Answers the task has received, this one included. */
  answerCount: number;
  maxResponses: number;
  /** What each option's posterior must reach, in or out; default DEFAULT_TARGET_CONFIDENCE (0.95), single choice's. */
  targetConfidence?: number;
}

/**
 * `result` is the decided set (null unless complete), `best` the likeliest set whatever the outcome;
 * `confidence[j]` is option j's max(P(in), P(out)), 4 decimals, and `decided[j]` whether it reached the target.
 */
export interface MultiDecision {
  kind: 'continue' | 'complete' | 'fail';
  result: number[] | null;
  best: number[];
  confidence: number[];
  decided: boolean[];
}

/** The stop rule after an answer: complete once every option is decided (see the header), fail at maxResponses. */
export function decideMulti(posterior: MultiPosterior, stop: MultiStopInput): MultiDecision {
  const confidence = posterior.probabilities.map((p) => round4(Math.max(p, 1 - p)));
  const target = stop.targetConfidence ?? DEFAULT_TARGET_CONFIDENCE;
  const decided = confidence.map((c) => c >= target);
  const summary = { best: posterior.chosen, confidence, decided };
  if (decided.every(Boolean)) return { kind: 'complete', result: posterior.chosen, ...summary };
  if (stop.answerCount >= stop.maxResponses) return { kind: 'fail', result: null, ...summary };
  return { kind: 'continue', result: null, ...summary };
}

/** The share of options four counts got right (left where absent, ticked where present), over an answer's K options each. */
export const optionsRight = (counts: ArrayLike<number>, optionCount: number): number =>
  ((counts[ABSENT_LEFT] ?? 0) + (counts[PRESENT_TICKED] ?? 0)) / optionCount;

/** An annotator's four counts after its answer `chosen` on a task that COMPLETED at `result`: one count per option. */
export function addMultiCounts(counts: ArrayLike<number> | null, optionCount: number, result: readonly number[], chosen: readonly number[]): number[] {
  const next = counts ? Array.from(counts) : [0, 0, 0, 0];
  const inResult = new Set(result);
  const ticked = new Set(chosen);
  for (let j = 0; j < optionCount; j++) {
    const cell = (inResult.has(j) ? PRESENT_LEFT : ABSENT_LEFT) + (ticked.has(j) ? 1 : 0);
    next[cell] = (next[cell] ?? 0) + 1;
  }
  return next;
}

/** The scope's typical annotator: every annotator's counts pooled, each weighed n/(n + backoffAnswers), shrunk towards r0. */
export function populationTagger(counts: ArrayLike<number>, annotatorCount: number, settings = MULTI_MODEL): TaggerParams {
  const lambda = settings.populationPriorAnswers;
  let presentTicked = lambda * NEW_TAGGER.sensitivity;
  let present = lambda;
  let absentLeft = lambda * NEW_TAGGER.specificity;
  let absent = lambda;
  for (let a = 0; a < annotatorCount; a++) {
    const c = (cell: number) => counts[a * 4 + cell] ?? 0;
    const n = c(ABSENT_LEFT) + c(ABSENT_TICKED) + c(PRESENT_LEFT) + c(PRESENT_TICKED);
    if (n === 0) continue;
    // Normalised by n + b: at most one annotator's worth each, as scope-prior.ts weighs matrices.
    const scale = 1 / (n + settings.backoffAnswers);
    presentTicked += scale * c(PRESENT_TICKED);
    present += scale * (c(PRESENT_TICKED) + c(PRESENT_LEFT));
    absentLeft += scale * c(ABSENT_LEFT);
    absent += scale * (c(ABSENT_LEFT) + c(ABSENT_TICKED));
  }
  return { sensitivity: clampProbability(presentTicked / present), specificity: clampProbability(absentLeft / absent) };
}

/**
 * A scope's multi-select answers as parallel arrays: answer j is by `annotator[j]` on `item[j]`, and
 * ticks[j·K + o] is 1 when it ticked option o.
 */
export interface MultiAnswers {
  optionCount: number;
  itemCount: number;
  annotatorCount: number;
  item: Int32Array;
  annotator: Int32Array;
  ticks: Uint8Array;
  /** Per item and option at [i·K + o]: 1 when the option is known to belong (golden tasks), 0 known not to, −1 unknown. */
  truth?: Int8Array;
  /** Per item: 1 when its answers go into the returned counts (decided and golden tasks), 0 for open ones. Default 1. */
  counted?: Uint8Array;
}

export interface MultiRefitOptions {
  settings?: MultiModelSettings;
  maxIterations?: number;
  /** Stop once no option's posterior moves by more than this in an iteration. */
  tolerance?: number;
}

export interface MultiRefit {
  /** Annotator a's four counts at [4a, 4a + 4), over counted items: the new stored rows. */
  counts: Float64Array;
  /** Per annotator: taggerParams of its new counts under the new prior. */
  taggers: TaggerParams[];
  /** The scope's typical annotator, the prior of every taggerParams until the next re-fit. */
  prior: TaggerParams;
  /** Per option: how often it belongs, smoothed (classPriorItems pseudo-tasks either way). */
  classPrior: number[];
  /** Item i's P(option o belongs) at [i·K + o] (each option apart: the re-fit does not condition on a non-empty set). */
  posteriors: Float64Array;
  iterations: number;
}

/** EM's start: per option, the share of the item's answers that ticked it (one in two without answers), or the known truth. */
function majorityStart(data: MultiAnswers): Float64Array {
  const K = data.optionCount;
  const T = new Float64Array(data.itemCount * K);
  const answers = new Float64Array(data.itemCount);
  for (let j = 0; j < data.item.length; j++) {
    const i = data.item[j] ?? 0;
    answers[i] = (answers[i] ?? 0) + 1;
    for (let o = 0; o < K; o++) T[i * K + o] = (T[i * K + o] ?? 0) + (data.ticks[j * K + o] ?? 0);
  }
  for (let i = 0; i < data.itemCount; i++) {
    for (let o = 0; o < K; o++) {
      const known = data.truth?.[i * K + o] ?? -1;
      const n = answers[i] ?? 0;
      T[i * K + o] = known >= 0 ? known : n === 0 ? 0.5 : (T[i * K + o] ?? 0) / n;
    }
  }
  return T;
}

/** The M-step's statistics: per annotator the four soft counts of T (counted items only, if asked). */
function accumulate(data: MultiAnswers, T: Float64Array, onlyCounted: boolean): Float64Array {
  const K = data.optionCount;
  const counts = new Float64Array(data.annotatorCount * 4);
  for (let j = 0; j < data.item.length; j++) {
    const i = data.item[j] ?? 0;
    if (onlyCounted && data.counted?.[i] === 0) continue;
    const base = (data.annotator[j] ?? 0) * 4;
    for (let o = 0; o < K; o++) {
      const p = T[i * K + o] ?? 0;
      const ticked = data.ticks[j * K + o] ?? 0;
      counts[base + PRESENT_LEFT + ticked] = (counts[base + PRESENT_LEFT + ticked] ?? 0) + p;
      counts[base + ABSENT_LEFT + ticked] = (counts[base + ABSENT_LEFT + ticked] ?? 0) + 1 - p;
    }
  }
  return counts;
}

/** Per option, the share of items it belongs to, with classPriorItems pseudo-tasks on either side. */
function optionPrior(data: MultiAnswers, T: Float64Array, settings: MultiModelSettings): number[] {
  const K = data.optionCount;
  const sums = new Float64Array(K);
  for (let c = 0; c < T.length; c++) sums[c % K] = (sums[c % K] ?? 0) + (T[c] ?? 0);
  const lambda = settings.classPriorItems;
  return Array.from(sums, (sum) => (sum + lambda) / (data.itemCount + 2 * lambda));
}

const taggersOf = (counts: Float64Array, annotatorCount: number, prior: TaggerParams, settings: MultiModelSettings) =>
  Array.from({ length: annotatorCount }, (_, a) => taggerParams(counts.subarray(a * 4, a * 4 + 4), prior, settings));

/**
 * Re-fits a scope's multi-select answers: EM from per-option majority vote to convergence (see the header).
 * Returns the counts to store (counted items only: an open task's answers are counted by the online step
 * when it is decided), the annotators' parameters, the scope's prior and class priors, and every posterior.
 */
export function refitMulti(data: MultiAnswers, options: MultiRefitOptions = {}): MultiRefit {
  const settings = options.settings ?? MULTI_MODEL;
  const maxIterations = options.maxIterations ?? 50;
  const tolerance = options.tolerance ?? 1e-4;
  const K = data.optionCount;
  const T = majorityStart(data);
  const logOdds = new Float64Array(T.length);
  let iterations = 0;
  while (iterations < maxIterations) {
    iterations += 1;
    const counts = accumulate(data, T, false);
    const prior = populationTagger(counts, data.annotatorCount, settings);
    const weights = taggersOf(counts, data.annotatorCount, prior, settings).map(tagWeights);
    optionPrior(data, T, settings).forEach((p, o) => {
      for (let i = 0; i < data.itemCount; i++) logOdds[i * K + o] = Math.log(p / (1 - p));
    });
    for (let j = 0; j < data.item.length; j++) {
      const i = data.item[j] ?? 0;
      const w = weights[data.annotator[j] ?? 0] ?? { ticked: 0, left: 0 };
      for (let o = 0; o < K; o++) logOdds[i * K + o] = (logOdds[i * K + o] ?? 0) + (data.ticks[j * K + o] ? w.ticked : w.left);
    }
    let change = 0;
    for (let c = 0; c < T.length; c++) {
      const known = data.truth?.[c] ?? -1;
      if (known >= 0) continue;
      const p = sigmoid(logOdds[c] ?? 0);
      change = Math.max(change, Math.abs(p - (T[c] ?? 0)));
      T[c] = p;
    }
    if (change < tolerance) break;
  }
  const prior = populationTagger(accumulate(data, T, false), data.annotatorCount, settings);
  const stored = accumulate(data, T, true);
  return {
    counts: stored,
    taggers: taggersOf(stored, data.annotatorCount, prior, settings),
    prior,
    classPrior: optionPrior(data, T, settings),
    posteriors: T,
    iterations,
  };
}
