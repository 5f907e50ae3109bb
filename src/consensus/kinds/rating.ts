// Rating tasks: the options are L ordered levels (["1", …, "5"]), and an answer one level off is not wrong
// the way a different option of a single-choice task is: a lenient annotator who rates every item one level
// high tells exactly where the item lies once its leniency is known. So an annotator is not a free L×L
// confusion matrix (L² cells learned from a handful of answers, nothing shared between rows, and nothing
// that says 4 is nearer 5 than 1 is) but three numbers:
//
//   P(answer = l | true level t) = (1 − lapse) · D(l; t + bias, spread) + lapse / L
//
// where D is a logistic around t + bias with scale `spread`, cut at the half levels and with open ends
// (an annotator who would rate above the top level answers the top level). `bias` is the annotator's
// shift (+1: one level high), `spread` their noise, `lapse` the share of answers given at random (a spammer
// has lapse ≈ 1, and then weighs nothing). A bias learned on 3s applies to 4s: the rows share it.
//
// State and learning, as the single-choice model (label-model.ts, soft-counts.ts, refit.ts) keeps them:
// - an annotator's stored state is an L×L table of counts (row = true level, column = answer), so it moves
//   by plain increments: a COMPLETED task adds one whole count at (result, answer) per answerer
//   (`addRatingCount`; soft-counts.ts says why whole counts, and why a failed task moves nothing);
// - reading an annotator is `fitRater`: the three numbers that best explain its counts plus a prior of
//   `priorAnswersPerLevel` pseudo-answers per level shaped like the scope's typical annotator (maximum
//   likelihood, a few rounds of one-dimensional searches: O(L²) per evaluation, ~0.1 ms);
// - `refitRatings` replaces the counts wholesale: EM over every answer of the scope (Dawid–Skene with this
//   annotator model), started from each item's median answer, re-estimating the scope's class prior (how
//   often each level is the truth) and its typical annotator on the way.
// A shift shared by every annotator cannot be told from the truth (everyone lenient looks like everyone
// right about better items), so the crowd as a whole is taken to be unbiased: the typical annotator's bias
// is 0, and only its spread and lapse are learned.
//
// Per task (`ratingPosterior`): the posterior over levels = class prior × Π P(answer | t); the result is the
// most probable level; the posterior mean (in level indices) and the central 90 % interval come with it.
//
// The stop rule (`decideRating`, RATING_STOP), asked once a task holds its validationsNeeded answers
// (sdk_answer's gate, stop-rule.ts): a task COMPLETES when its top level's posterior reaches the target confidence (0.95 by default, one level strictly
// ahead), the rule single-choice tasks follow, so a completed task's confidence means the same thing
// whatever its kind; it FAILS at maxResponses. The other candidate, complete once the 90 % interval spans
// at most two adjacent levels, was replayed on bench:quality --kind rating and not taken: it stops after
// 3.3 answers a task instead of 6.6, but a quarter of its results are then off by a level (exact 0.74,
// mean absolute error 0.26 against 0.94 and 0.06): an interval one level wide still leaves the result a
// coin toss between two levels. The interval is reported on every decision all the same.
//
// API (levels are indices 0 … L−1 in the task's order; the caller maps them to and from the option names):
//   fitRater(counts, L, prior?, settings?) → RaterParams        an annotator's parameters from its counts
//   raterTable(params, L) → Float64Array                         P(answer l | true t) at [t·L + l]
//   ratingLogLikelihoods(params, answer, L) → number[]           ln P(answer | t) for every t
//   ratingPosterior(answers, L, classPrior?) → RatingPosterior   the task's posterior, result, mean, interval
//   centralInterval(p, mass?) → [lo, hi]                          the central interval of a distribution over levels
//   decideRating(posterior, stop) → RatingDecision               continue, complete or fail
//   addRatingCount(counts, L, result, answer) → number[]         the counts after a completed task
//   refitRatings(data, options?) → RatingRefit                   EM over every answer of a scope
//   populationRater(raters, answered, settings?) → RaterParams   the scope's typical annotator (the re-fit's prior)
import { NEW_ANNOTATOR_RELIABILITY } from '../reputation.ts';
import { DEFAULT_TARGET_CONFIDENCE, probabilities, round4, topOption } from '../stop-rule.ts';

/** One annotator's ordinal model (see the header). */
export interface RaterParams {
  /** Shift in levels: +1 rates one level high. */
  bias: number;
  /** Scale of the logistic noise, in levels (its standard deviation is 1.81 times this). */
  spread: number;
  /** Share of answers given at random, uniformly over the levels. */
  lapse: number;
}

/** The model's constants: one configuration for every scope. */
export interface RatingModelSettings {
  /** The prior's weight in pseudo-answers per level (L of them in all), shaped like the scope's typical annotator. */
  priorAnswersPerLevel: number;
  /** The typical annotator is the annotators' average, each weighed n/(n + backoffAnswers)… */
  backoffAnswers: number;
  /** …shrunk towards NEW_RATER by this many annotators' worth. */
  populationPriorRaters: number;
  /** Pseudo-tasks per level of the uniform distribution in the class prior (as scope-prior.ts's classPrior). */
  classPriorItems: number;
}

// Chosen before any measurement, as label-model.ts's: one pseudo-answer per level is a prior of about two
// answers per parameter, soon outweighed by the annotator's own; the other three take label-model.ts's numbers
// (backoffAnswers, populationPriorAnswers, classPriorItems).
export const RATING_MODEL: Readonly<RatingModelSettings> = Object.freeze({
  priorAnswersPerLevel: 1,
  backoffAnswers: 5,
  populationPriorRaters: 5,
  classPriorItems: 5,
});

/**
 * A new annotator in a new scope: unbiased, about ±1 level of noise (standard deviation 0.9), and
 * 1 − r0 = 30 % of answers at random, the contract's new-annotator reliability of 0.7 read as "70 % of
 * answers are meant".
 */
export const NEW_RATER: Readonly<RaterParams> = Object.freeze({ bias: 0, spread: 0.5, lapse: 1 - NEW_ANNOTATOR_RELIABILITY });

/** The stop rule's constants (the header says which rule and why). */
export const RATING_STOP = Object.freeze({
  /** A task completes when its top level's posterior reaches this (unless the project sets its own): single choice's default. */
  targetConfidence: DEFAULT_TARGET_CONFIDENCE,
  /** The reported interval holds this much of the posterior, its tails alike (5 % below, 5 % above). */
  intervalMass: 0.9,
});

// The parameters' search ranges: a bias of at most L − 1 levels either way; a spread from a tenth of a level
// (a perfectly consistent annotator) to L levels (noise wider than the scale itself); a lapse strictly
// inside (0, 1), so every probability, and every log, stays finite.
const MIN_SPREAD = 0.1;
const MIN_LAPSE = 0.001;
const MAX_LAPSE = 0.999;
// Coordinate ascent: each round maximises the likelihood along bias, spread and lapse in turn, each by a
// scan of SCAN_POINTS then a golden-section search between the best point's neighbours.
const FIT_ROUNDS = 3;
const SCAN_POINTS = 9;
const GOLDEN_STEPS = 18;

const logistic = (x: number) => 1 / (1 + Math.exp(-x));
const logit = (p: number) => Math.log(p / (1 - p));

/** D(l; t + bias, spread) at [t·L + l]: the logistic cut at the half levels, without the lapse. */
function shapeTable(bias: number, spread: number, levelCount: number, out: Float64Array): Float64Array {
  const L = levelCount;
  for (let t = 0; t < L; t++) {
    const centre = t + bias;
    let below = 0;
    for (let l = 0; l < L; l++) {
      const upTo = l === L - 1 ? 1 : logistic((l + 0.5 - centre) / spread);
      out[t * L + l] = upTo - below;
      below = upTo;
    }
  }
  return out;
}

/** P(answer l | true level t) at [t·L + l] (into `out` when given). */
export function raterTable(params: RaterParams, levelCount: number, out: Float64Array = new Float64Array(levelCount * levelCount)): Float64Array {
  shapeTable(params.bias, params.spread, levelCount, out);
  for (let c = 0; c < out.length; c++) out[c] = (1 - params.lapse) * (out[c] ?? 0) + params.lapse / levelCount;
  return out;
}

/** Σ weights[t·L + l] · ln P(l | t) for a shape D and a lapse: the likelihood a fit maximises. */
function logLikelihood(shape: Float64Array, lapse: number, levelCount: number, weights: Float64Array): number {
  const keep = 1 - lapse;
  const floor = lapse / levelCount;
  let total = 0;
  for (let c = 0; c < weights.length; c++) {
    const w = weights[c] ?? 0;
    if (w > 0) total += w * Math.log(keep * (shape[c] ?? 0) + floor);
  }
  return total;
}

/** The maximum of f on [lo, hi]: a scan, then a golden-section search around the scan's best point. */
function maximise(f: (x: number) => number, lo: number, hi: number): number {
  const step = (hi - lo) / (SCAN_POINTS - 1);
  let best = 0;
  let bestValue = -Infinity;
  for (let i = 0; i < SCAN_POINTS; i++) {
    const value = f(lo + i * step);
    if (value > bestValue) {
      bestValue = value;
      best = i;
    }
  }
  let a = lo + Math.max(0, best - 1) * step;
  let b = lo + Math.min(SCAN_POINTS - 1, best + 1) * step;
  const ratio = (Math.sqrt(5) - 1) / 2;
  let x1 = b - ratio * (b - a);
  let x2 = a + ratio * (b - a);
  let f1 = f(x1);
  let f2 = f(x2);
  for (let i = 0; i < GOLDEN_STEPS; i++) {
    if (f1 >= f2) {
      b = x2;
      x2 = x1;
      f2 = f1;
      x1 = b - ratio * (b - a);
      f1 = f(x1);
    } else {
      a = x1;
      x1 = x2;
      f1 = f2;
      x2 = a + ratio * (b - a);
      f2 = f(x2);
    }
  }
  const candidate = f1 >= f2 ? x1 : x2;
  // The scan's point stays when the search between its neighbours found nothing better.
  return Math.max(f1, f2) >= bestValue ? candidate : lo + best * step;
}

/** Coordinate ascent of the likelihood of `weights` (L×L) from `start`, `rounds` times along bias, spread, lapse. */
function fitWeights(weights: Float64Array, levelCount: number, start: RaterParams, rounds: number): RaterParams {
  const L = levelCount;
  const shape = new Float64Array(L * L);
  let { bias, spread, lapse } = start;
  for (let round = 0; round < rounds; round++) {
    bias = maximise((x) => logLikelihood(shapeTable(x, spread, L, shape), lapse, L, weights), -(L - 1), L - 1);
    spread = Math.exp(maximise((x) => logLikelihood(shapeTable(bias, Math.exp(x), L, shape), lapse, L, weights), Math.log(MIN_SPREAD), Math.log(L)));
    // The lapse leaves the shape as it is: one table for the whole search.
    shapeTable(bias, spread, L, shape);
    lapse = logistic(maximise((x) => logLikelihood(shape, logistic(x), L, weights), logit(MIN_LAPSE), logit(MAX_LAPSE)));
  }
  return { bias, spread, lapse };
}

/** The counts (null: none) plus `priorAnswersPerLevel` pseudo-answers per level drawn from `prior`. */
function withPrior(counts: ArrayLike<number> | null, levelCount: number, prior: RaterParams, settings: RatingModelSettings): Float64Array {
  const weights = raterTable(prior, levelCount);
  for (let c = 0; c < weights.length; c++) weights[c] = settings.priorAnswersPerLevel * (weights[c] ?? 0) + (counts?.[c] ?? 0);
  return weights;
}

/**
 * An annotator's parameters: those that best explain its counts (L×L, row = true level, column = answer;
 * null: no answer yet) plus `priorAnswersPerLevel` pseudo-answers per level drawn from `prior`, the scope's
 * typical annotator. Deterministic: the same counts always give the same parameters.
 */
export function fitRater(counts: ArrayLike<number> | null, levelCount: number, prior: RaterParams = NEW_RATER, settings = RATING_MODEL): RaterParams {
  return fitWeights(withPrior(counts, levelCount, prior, settings), levelCount, prior, FIT_ROUNDS);
}

/** ln P(answer | true level t) for every t: what one answer adds to a task's evidence. */
export function ratingLogLikelihoods(params: RaterParams, answer: number, levelCount: number): number[] {
  const table = raterTable(params, levelCount);
  return Array.from({ length: levelCount }, (_, t) => Math.log(table[t * levelCount + answer] ?? 1));
}

/** One answer of a task: its level and its annotator's parameters (fitRater of its stored counts). */
export interface RatingAnswer {
  rater: RaterParams;
  answer: number;
}

export interface RatingPosterior {
  /** P(true level = t | answers), t = 0 … L − 1. */
  probabilities: number[];
  /** The most probable level (the result when the task completes)… */
  best: number;
  /** …and whether it is strictly ahead of every other level. */
  strictlyAhead: boolean;
  /** The expected level, Σ t · P(t), in level indices. */
  mean: number;
  /** The central interval of RATING_STOP.intervalMass, [lowest, highest] level index. */
  interval: [number, number];
}

/** The central interval holding `mass` of a distribution over ordered levels, [lo, hi]. */
export function centralInterval(p: readonly number[], mass: number = RATING_STOP.intervalMass): [number, number] {
  const tail = (1 - mass) / 2;
  // Sums of the same numbers in another order differ in the last bits: a tail is "reached" that close to it.
  const slack = 1e-12;
  let cumulative = 0;
  let lo = -1;
  let hi = p.length - 1;
  for (let l = 0; l < p.length; l++) {
    cumulative += p[l] ?? 0;
    if (lo < 0 && cumulative > tail + slack) lo = l;
    if (cumulative >= 1 - tail - slack) {
      hi = l;
      break;
    }
  }
  return [Math.max(0, lo), hi];
}

/** A posterior's summary from its log-evidence (class prior included). */
function summarise(logPosterior: readonly number[]): RatingPosterior {
  const p = probabilities(logPosterior);
  const { index, strictlyAhead } = topOption(logPosterior);
  const mean = p.reduce((sum, value, t) => sum + t * value, 0);
  return { probabilities: p, best: index, strictlyAhead, mean, interval: centralInterval(p) };
}

/** The task's posterior: the class prior (null: uniform) times every answer's P(answer | t). */
export function ratingPosterior(answers: readonly RatingAnswer[], levelCount: number, classPrior: ArrayLike<number> | null = null): RatingPosterior {
  const evidence = Array.from({ length: levelCount }, (_, t) => (classPrior ? Math.log(classPrior[t] ?? 1 / levelCount) : 0));
  for (const { rater, answer } of answers) {
    const likelihoods = ratingLogLikelihoods(rater, answer, levelCount);
    for (let t = 0; t < levelCount; t++) evidence[t] = (evidence[t] ?? 0) + (likelihoods[t] ?? 0);
  }
  return summarise(evidence);
}

export interface RatingStopInput {
  /** Answers the task has received, this one included. */
  answerCount: number;
  maxResponses: number;
  /** Default RATING_STOP.targetConfidence. */
  targetConfidence?: number;
}

/**
 * `result` is the decided level (null unless complete), `best` the most probable level whatever the outcome;
 * `confidence` its posterior, 4 decimals; `mean` and `interval` as in RatingPosterior.
 */
export interface RatingDecision {
  kind: 'continue' | 'complete' | 'fail';
  result: number | null;
  best: number;
  confidence: number;
  mean: number;
  interval: [number, number];
}

/** The stop rule after an answer (see the header): complete, fail at maxResponses, or collect more. */
export function decideRating(posterior: RatingPosterior, stop: RatingStopInput): RatingDecision {
  const confidence = round4(posterior.probabilities[posterior.best] ?? 0);
  const summary = { best: posterior.best, confidence, mean: posterior.mean, interval: posterior.interval };
  const target = stop.targetConfidence ?? RATING_STOP.targetConfidence;
  if (posterior.strictlyAhead && confidence >= target) {
    return { kind: 'complete', result: posterior.best, ...summary };
  }
  if (stop.answerCount >= stop.maxResponses) return { kind: 'fail', result: null, ...summary };
  return { kind: 'continue', result: null, ...summary };
}

/** An annotator's counts after its answer on a task that COMPLETED at `result`: one whole count at (result, answer). */
export function addRatingCount(counts: ArrayLike<number> | null, levelCount: number, result: number, answer: number): number[] {
  const next = counts ? Array.from(counts) : new Array<number>(levelCount * levelCount).fill(0);
  next[result * levelCount + answer] = (next[result * levelCount + answer] ?? 0) + 1;
  return next;
}

/** The scope's typical annotator from fitted annotators and their answers (see RatingModelSettings); its bias is 0. */
export function populationRater(raters: readonly RaterParams[], answered: ArrayLike<number>, settings = RATING_MODEL): RaterParams {
  // The spread is averaged over the answers that are meant: a spammer's (any value explains its answers) counts little.
  let weight = settings.populationPriorRaters;
  let spreadWeight = weight * (1 - NEW_RATER.lapse);
  let logSpread = spreadWeight * Math.log(NEW_RATER.spread);
  let lapse = weight * NEW_RATER.lapse;
  raters.forEach((rater, a) => {
    const n = answered[a] ?? 0;
    if (n === 0) return;
    const w = n / (n + settings.backoffAnswers);
    weight += w;
    lapse += w * rater.lapse;
    spreadWeight += w * (1 - rater.lapse);
    logSpread += w * (1 - rater.lapse) * Math.log(rater.spread);
  });
  return { bias: 0, spread: Math.exp(logSpread / spreadWeight), lapse: lapse / weight };
}

/** A scope's rating answers as parallel arrays: answer j is level `answer[j]` by `annotator[j]` on `item[j]`. */
export interface RatingAnswers {
  levelCount: number;
  itemCount: number;
  annotatorCount: number;
  item: Int32Array;
  annotator: Int32Array;
  answer: Int32Array;
  /** Per item: the known level (golden tasks), −1 when unknown. */
  truth?: Int32Array;
  /** Per item: 1 when its answers go into the returned counts (decided and golden tasks), 0 for open ones. Default 1. */
  counted?: Uint8Array;
}

export interface RatingRefitOptions {
  settings?: RatingModelSettings;
  maxIterations?: number;
  /** Stop once no item's posterior moves by more than this in an iteration. */
  tolerance?: number;
}

export interface RatingRefit {
  /** Annotator a's L×L soft counts at [a·L², (a+1)·L²), over counted items: the new stored rows. */
  counts: Float64Array;
  /** Answers per annotator in `counts`. */
  answered: Float64Array;
  /** Per annotator: fitRater of its new counts under the new prior (what the online step reads until they move). */
  raters: RaterParams[];
  /** The scope's typical annotator (bias 0), the prior of every fitRater until the next re-fit. */
  prior: RaterParams;
  /** How often each level is the truth, smoothed (RatingModelSettings.classPriorItems). */
  classPrior: number[];
  /** Item i's posterior over the levels at [i·L, (i+1)·L). */
  posteriors: Float64Array;
  iterations: number;
}

/** Positions of each item's answers after a counting sort: item i's are [itemStart[i], itemStart[i + 1]). */
function groupByItem(data: RatingAnswers): { order: Int32Array; itemStart: Int32Array } {
  const itemStart = new Int32Array(data.itemCount + 1);
  for (let j = 0; j < data.item.length; j++) itemStart[(data.item[j] ?? 0) + 1] = (itemStart[(data.item[j] ?? 0) + 1] ?? 0) + 1;
  for (let i = 0; i < data.itemCount; i++) itemStart[i + 1] = (itemStart[i + 1] ?? 0) + (itemStart[i] ?? 0);
  const next = itemStart.slice(0, data.itemCount);
  const order = new Int32Array(data.item.length);
  for (let j = 0; j < data.item.length; j++) {
    const i = data.item[j] ?? 0;
    order[next[i] ?? 0] = j;
    next[i] = (next[i] ?? 0) + 1;
  }
  return { order, itemStart };
}

/** EM's start: every item at its (lower) median answer, a golden item at its truth, an item without answers uniform. */
function medianStart(data: RatingAnswers, { order, itemStart }: ReturnType<typeof groupByItem>): Float64Array {
  const L = data.levelCount;
  const T = new Float64Array(data.itemCount * L);
  for (let i = 0; i < data.itemCount; i++) {
    const truth = data.truth?.[i] ?? -1;
    const from = itemStart[i] ?? 0;
    const to = itemStart[i + 1] ?? 0;
    if (truth >= 0) T[i * L + truth] = 1;
    else if (to === from) T.fill(1 / L, i * L, (i + 1) * L);
    else {
      const levels = Array.from(order.subarray(from, to), (j) => data.answer[j] ?? 0).sort((a, b) => a - b);
      T[i * L + (levels[Math.floor((levels.length - 1) / 2)] ?? 0)] = 1;
    }
  }
  return T;
}

/** The M-step's statistics: per annotator the L×L soft counts of T (counted items only, if asked). */
function accumulate(data: RatingAnswers, T: Float64Array, onlyCounted: boolean): { counts: Float64Array; answered: Float64Array } {
  const L = data.levelCount;
  const counts = new Float64Array(data.annotatorCount * L * L);
  const answered = new Float64Array(data.annotatorCount);
  for (let j = 0; j < data.item.length; j++) {
    const i = data.item[j] ?? 0;
    if (onlyCounted && data.counted?.[i] === 0) continue;
    const a = data.annotator[j] ?? 0;
    const cell = a * L * L + (data.answer[j] ?? 0);
    for (let t = 0; t < L; t++) counts[cell + t * L] = (counts[cell + t * L] ?? 0) + (T[i * L + t] ?? 0);
    answered[a] = (answered[a] ?? 0) + 1;
  }
  return { counts, answered };
}

/** The class prior from the posteriors T: (Σ_t + λ) / (N + Lλ). */
function levelPrior(data: RatingAnswers, T: Float64Array, settings: RatingModelSettings): number[] {
  const L = data.levelCount;
  const sums = new Float64Array(L);
  for (let c = 0; c < T.length; c++) sums[c % L] = (sums[c % L] ?? 0) + (T[c] ?? 0);
  const lambda = settings.classPriorItems;
  return Array.from(sums, (sum) => (sum + lambda) / (data.itemCount + L * lambda));
}

/**
 * Every annotator fitted on its slice of `counts` (an annotator without answers is the prior itself). Inside
 * EM, from the previous iteration's parameters (`from`) and one round of the search: each M-step then only
 * needs to raise the likelihood, not to reach its maximum (generalised EM), and a fit costs a third.
 */
function fitAll(
  data: RatingAnswers,
  counts: Float64Array,
  answered: Float64Array,
  prior: RaterParams,
  settings: RatingModelSettings,
  from: readonly RaterParams[] | null = null,
): RaterParams[] {
  const L = data.levelCount;
  return Array.from({ length: data.annotatorCount }, (_, a) => {
    if ((answered[a] ?? 0) === 0) return { ...prior };
    const own = counts.subarray(a * L * L, (a + 1) * L * L);
    const start = from?.[a];
    return start ? fitWeights(withPrior(own, L, prior, settings), L, start, 1) : fitRater(own, L, prior, settings);
  });
}

/**
 * Re-fits a scope's ratings: EM from every item's median answer to convergence (see the header). Returns
 * the counts to store (counted items only: an open task's answers are counted by the online step when it is
 * decided), each annotator's parameters, the scope's prior and class prior, and every item's posterior.
 */
export function refitRatings(data: RatingAnswers, options: RatingRefitOptions = {}): RatingRefit {
  const settings = options.settings ?? RATING_MODEL;
  const maxIterations = options.maxIterations ?? 50;
  const tolerance = options.tolerance ?? 1e-4;
  const L = data.levelCount;
  const LL = L * L;
  const grouped = groupByItem(data);
  const T = medianStart(data, grouped);
  let prior: RaterParams = { ...NEW_RATER };
  let iterations = 0;
  let raters: RaterParams[] | null = null;
  const logTable = new Float64Array(data.annotatorCount * LL);
  const logp = new Float64Array(L);
  while (iterations < maxIterations) {
    iterations += 1;
    // M-step: annotators under the current prior, then the prior from them (used from the next iteration on).
    const { counts, answered } = accumulate(data, T, false);
    const fitted = fitAll(data, counts, answered, prior, settings, raters);
    raters = fitted;
    prior = populationRater(fitted, answered, settings);
    const logPrior = levelPrior(data, T, settings).map(Math.log);
    fitted.forEach((rater, a) => {
      const table = raterTable(rater, L);
      for (let c = 0; c < LL; c++) logTable[a * LL + c] = Math.log(table[c] ?? 1);
    });
    // E-step.
    let change = 0;
    for (let i = 0; i < data.itemCount; i++) {
      if ((data.truth?.[i] ?? -1) >= 0) continue;
      for (let t = 0; t < L; t++) logp[t] = logPrior[t] ?? 0;
      for (let p = grouped.itemStart[i] ?? 0, to = grouped.itemStart[i + 1] ?? 0; p < to; p++) {
        const j = grouped.order[p] ?? 0;
        const cell = (data.annotator[j] ?? 0) * LL + (data.answer[j] ?? 0);
        for (let t = 0; t < L; t++) logp[t] = (logp[t] ?? 0) + (logTable[cell + t * L] ?? 0);
      }
      const posterior = probabilities(Array.from(logp));
      for (let t = 0; t < L; t++) {
        change = Math.max(change, Math.abs((posterior[t] ?? 0) - (T[i * L + t] ?? 0)));
        T[i * L + t] = posterior[t] ?? 0;
      }
    }
    if (change < tolerance) break;
  }
  const all = accumulate(data, T, false);
  prior = populationRater(fitAll(data, all.counts, all.answered, prior, settings), all.answered, settings);
  const stored = accumulate(data, T, true);
  return {
    counts: stored.counts,
    answered: stored.answered,
    raters: fitAll(data, stored.counts, stored.answered, prior, settings),
    prior,
    classPrior: levelPrior(data, T, settings),
    posteriors: T,
    iterations,
  };
}
