// The re-fit: Dawid–Skene (1979) EM over every answer of a scope, with the online model's prior and
// back-off (the same writeLogConfusion), started from majority vote rather than from the stored
// posteriors, which can lock into a bad solution. Each iteration re-estimates the scope's population
// prior from the annotators' counts (empirical Bayes). Annotators and items are integer indices and every
// per-answer array is typed, so 10 M answers fit in well under a GB (bench/README.md, re-fit at scale).
import { fitCalibration, logClassPrior, type Calibration, type CalibrationSamples } from './calibration.ts';
import { LABEL_MODEL, oneCoinReliability, writeLogConfusion, type LabelModelSettings, type ScopePrior } from './label-model.ts';
import { classPrior, populationPrior } from './scope-prior.ts';

/** A scope's answers as parallel arrays: answer j is option `answer[j]` by `annotator[j]` on `item[j]`. */
export interface ScopeAnswers {
  /** K, the size of the scope's option set. */
  optionCount: number;
  itemCount: number;
  annotatorCount: number;
  item: Int32Array;
  annotator: Int32Array;
  /** The option's index within the item's own options. */
  answer: Int32Array;
  /** Per item: 0 when the item's options are the scope's, else its own option count m (one-coin form). */
  itemOptionCount?: Uint16Array;
  /** Per item: the known truth (golden tasks), −1 when unknown. */
  truth?: Int32Array;
  /**
   * Per item: 1 when its answers go into the returned counts (decided and golden tasks), 0 for open tasks,
   * whose answers still inform the fit but are counted by the online step when they are decided. Default 1.
   */
  counted?: Uint8Array;
  /**
   * Per item: the option the service decided (a COMPLETED task's result, as an index like `answer`),
   * −1 when none. Guards against a label swap: see `refitScope`.
   */
  decided?: Int32Array;
}

export interface RefitOptions {
  settings?: LabelModelSettings;
  maxIterations?: number;
  /** Stop once no item's posterior moves by more than this in an iteration. */
  tolerance?: number;
}

export interface RefitResult {
  /** Annotator a's K×K soft counts at [a·K², (a+1)·K²), over counted items: the new stored rows. */
  matrices: Float64Array;
  correct: Float64Array;
  answered: Float64Array;
  /** The scope's new population prior, for the online step until the next re-fit. */
  prior: ScopePrior;
  /** The scope's class prior (how often each option is the truth), for the online step too. */
  classPrior: number[];
  /** The confidence map fitted on the scope's golden tasks (the identity without any). */
  calibration: Calibration;
  /** Item i's posterior over its options at [posteriorStart[i], posteriorStart[i + 1]). */
  posteriors: Float64Array;
  posteriorStart: Int32Array;
  iterations: number;
  /** Where the kept fit started: majority vote, or the service's decisions after a label swap (see refitScope). */
  start: 'majority' | 'decisions';
  /** Share of the decided items whose fitted top option is their decided result (null: none decided). */
  decidedAgreement: number | null;
  /** Per annotator: 1 when its golden answers disagreed with its regular work and were left out of its counts. */
  goldenSetAside: Uint8Array;
}

/** The answers grouped by item: item i's answers are positions [itemStart[i], itemStart[i + 1]). */
interface Layout {
  annotator: Int32Array;
  answer: Int32Array;
  itemStart: Int32Array;
  /** Where each item's posterior starts in the flat posterior array. */
  start: Int32Array;
}

/**
 * Groups the answers by item with a counting sort — copied into item order when they do not come that
 * way (ORDER BY task avoids the copy): reading them through an index instead made each iteration 14 times
 * slower at 10 M answers, every read a cache miss.
 */
function layout(data: ScopeAnswers): Layout {
  const itemStart = new Int32Array(data.itemCount + 1);
  let sorted = true;
  for (let j = 0; j < data.item.length; j++) {
    const i = data.item[j] ?? 0;
    itemStart[i + 1] = (itemStart[i + 1] ?? 0) + 1;
    if (j > 0 && i < (data.item[j - 1] ?? 0)) sorted = false;
  }
  const start = new Int32Array(data.itemCount + 1);
  for (let i = 0; i < data.itemCount; i++) {
    itemStart[i + 1] = (itemStart[i + 1] ?? 0) + (itemStart[i] ?? 0);
    start[i + 1] = (start[i] ?? 0) + (data.itemOptionCount?.[i] || data.optionCount);
  }
  if (sorted) return { annotator: data.annotator, answer: data.answer, itemStart, start };
  const next = itemStart.slice(0, data.itemCount);
  const annotator = new Int32Array(data.item.length);
  const answer = new Int32Array(data.item.length);
  for (let j = 0; j < data.item.length; j++) {
    const i = data.item[j] ?? 0;
    const p = next[i] ?? 0;
    annotator[p] = data.annotator[j] ?? 0;
    answer[p] = data.answer[j] ?? 0;
    next[i] = p + 1;
  }
  return { annotator, answer, itemStart, start };
}

/** Item posteriors from majority vote (vote shares): EM's starting point. Golden items hold their truth. */
function majorityStart(data: ScopeAnswers, { answer, itemStart, start }: Layout): Float64Array {
  const T = new Float64Array(start[data.itemCount] ?? 0);
  for (let i = 0; i < data.itemCount; i++) {
    const from = itemStart[i] ?? 0;
    const to = itemStart[i + 1] ?? 0;
    const base = start[i] ?? 0;
    const m = (start[i + 1] ?? 0) - base;
    const truth = data.truth?.[i] ?? -1;
    if (truth >= 0) T[base + truth] = 1;
    else if (to === from) T.fill(1 / m, base, base + m);
    else
      for (let p = from; p < to; p++) {
        const cell = base + (answer[p] ?? 0);
        T[cell] = (T[cell] ?? 0) + 1 / (to - from);
      }
  }
  return T;
}

interface Counts {
  optionCount: number;
  matrices: Float64Array;
  correct: Float64Array;
  answered: Float64Array;
  /** Per annotator: 1 when its golden answers were left out of its counts (GOLDEN_CONSISTENCY). */
  goldenSetAside: Uint8Array;
}

/**
 * When an annotator's golden answers disagree with its regular work. Golden tasks are the service's
 * ground truth, but an app that has learned which tasks are golden (docs/security.md) can answer them
 * right and the rest at random (or always the same); counted with the rest, those golden answers would
 * lend weight to worthless answers. So an annotator's golden answers count only while they are about
 * what its regular work predicts: its confusion matrix fitted on its regular answers alone (each weighed
 * by the posterior, one pseudo-answer per cell) gives each golden answer a chance of being right, and
 * where the golden answers are right more often than that by more than `margin` per golden answer and
 * by more than `z` standard errors (the answers' own spread and that of the rows' estimates), once there
 * are `minGolden` golden and `minRegular` regular answers, its counts hold its regular answers only. An
 * honest annotator's golden answers are drawn from the same work and differ from the prediction by the
 * model's own errors, which the margin leaves room for.
 */
export const GOLDEN_CONSISTENCY = Object.freeze({ minGolden: 5, minRegular: 10, margin: 0.2, z: 3 });

/** What the golden answers added to `accumulate`'s counts, per annotator. */
interface GoldenPart {
  /** K×K per annotator: golden answers on the scope's option set by (truth, answer). */
  cells: Float64Array;
  correct: Float64Array;
  answered: Float64Array;
}

/**
 * Per annotator: 1 when its golden answers beat what its regular work predicts (GOLDEN_CONSISTENCY). The
 * regular work is the counts over every item less the golden part, so no second pass over the answers.
 */
function decideGoldenSetAside(data: ScopeAnswers, all: { matrices: Float64Array; answered: Float64Array }, golden: GoldenPart): Uint8Array {
  const K = data.optionCount;
  const KK = K * K;
  const aside = new Uint8Array(data.annotatorCount);
  const { minGolden, minRegular, margin, z } = GOLDEN_CONSISTENCY;
  for (let a = 0; a < data.annotatorCount; a++) {
    if ((golden.answered[a] ?? 0) < minGolden || (all.answered[a] ?? 0) - (golden.answered[a] ?? 0) < minRegular) continue;
    let goldenAnswers = 0;
    let excess = 0;
    let variance = 0;
    for (let t = 0; t < K; t++) {
      let n = 0;
      let row = 0;
      for (let l = 0; l < K; l++) {
        const cell = a * KK + t * K + l;
        n += golden.cells[cell] ?? 0;
        row += (all.matrices[cell] ?? 0) - (golden.cells[cell] ?? 0);
      }
      if (n === 0) continue;
      const diagonal = a * KK + t * K + t;
      const predicted = ((all.matrices[diagonal] ?? 0) - (golden.cells[diagonal] ?? 0) + 1) / (row + K);
      goldenAnswers += n;
      excess += (golden.cells[diagonal] ?? 0) - n * predicted;
      variance += n * predicted * (1 - predicted) + (n * n * predicted * (1 - predicted)) / (row + K);
    }
    if (goldenAnswers >= minGolden && excess > margin * goldenAnswers && excess > z * Math.sqrt(variance)) aside[a] = 1;
  }
  return aside;
}

/**
 * The M-step's sufficient statistics: soft counts from the item posteriors T (only counted items if
 * asked), without the golden answers of the annotators set aside: those of `aside`, or, over every item
 * (`onlyCounted` false), those decided here.
 */
function accumulate(data: ScopeAnswers, { annotator, answer, itemStart, start }: Layout, T: Float64Array, onlyCounted: boolean, aside?: Uint8Array): Counts {
  const K = data.optionCount;
  const KK = K * K;
  const matrices = new Float64Array(data.annotatorCount * KK);
  const correct = new Float64Array(data.annotatorCount);
  const answered = new Float64Array(data.annotatorCount);
  const golden: GoldenPart = {
    cells: new Float64Array(data.annotatorCount * KK),
    correct: new Float64Array(data.annotatorCount),
    answered: new Float64Array(data.annotatorCount),
  };
  const truthOf = data.truth;
  for (let i = 0; i < data.itemCount; i++) {
    if (onlyCounted && data.counted?.[i] === 0) continue;
    const base = start[i] ?? 0;
    const oneCoin = (data.itemOptionCount?.[i] ?? 0) > 0;
    const from = itemStart[i] ?? 0;
    const to = itemStart[i + 1] ?? 0;
    for (let p = from; p < to; p++) {
      const a = annotator[p] ?? 0;
      const l = answer[p] ?? 0;
      correct[a] = (correct[a] ?? 0) + (T[base + l] ?? 0);
      answered[a] = (answered[a] ?? 0) + 1;
      if (oneCoin) continue;
      const cell = a * KK + l;
      for (let k = 0; k < K; k++) matrices[cell + k * K] = (matrices[cell + k * K] ?? 0) + (T[base + k] ?? 0);
    }
    // A golden item's part, apart, so the loop over regular answers stays as it was.
    const truth = truthOf ? (truthOf[i] ?? -1) : -1;
    if (truth < 0) continue;
    for (let p = from; p < to; p++) {
      const a = annotator[p] ?? 0;
      const l = answer[p] ?? 0;
      golden.answered[a] = (golden.answered[a] ?? 0) + 1;
      if (l === truth) golden.correct[a] = (golden.correct[a] ?? 0) + 1;
      if (!oneCoin) golden.cells[a * KK + truth * K + l] = (golden.cells[a * KK + truth * K + l] ?? 0) + 1;
    }
  }
  const setAside = aside ?? (onlyCounted ? new Uint8Array(data.annotatorCount) : decideGoldenSetAside(data, { matrices, answered }, golden));
  for (let a = 0; a < data.annotatorCount; a++) {
    if (setAside[a] !== 1) continue;
    for (let c = a * KK; c < (a + 1) * KK; c++) matrices[c] = Math.max(0, (matrices[c] ?? 0) - (golden.cells[c] ?? 0));
    correct[a] = Math.max(0, (correct[a] ?? 0) - (golden.correct[a] ?? 0));
    answered[a] = Math.max(0, (answered[a] ?? 0) - (golden.answered[a] ?? 0));
  }
  return { optionCount: K, matrices, correct, answered, goldenSetAside: setAside };
}

/** ln P(answer | true option) of every annotator: a K×K table each, plus the one-coin ln r and ln(1 − r). */
function logTables(data: ScopeAnswers, counts: Counts, prior: ScopePrior, settings: LabelModelSettings) {
  const KK = data.optionCount * data.optionCount;
  const table = new Float64Array(data.annotatorCount * KK);
  const logRight = new Float64Array(data.annotatorCount);
  const logWrong = new Float64Array(data.annotatorCount);
  for (let a = 0; a < data.annotatorCount; a++) {
    const annotator = { matrix: counts.matrices.subarray(a * KK, (a + 1) * KK), correct: counts.correct[a] ?? 0, answered: counts.answered[a] ?? 0 };
    writeLogConfusion(annotator, data.optionCount, prior, settings, table, a * KK);
    const r = oneCoinReliability(annotator, prior, settings);
    logRight[a] = Math.log(r);
    logWrong[a] = Math.log(1 - r);
  }
  return { table, logRight, logWrong };
}

/** One E-step: every unknown item's posterior from the tables, in place; returns the largest change. */
function expectation(
  data: ScopeAnswers,
  { annotator, answer, itemStart, start }: Layout,
  tables: ReturnType<typeof logTables>,
  logPrior: readonly number[],
  T: Float64Array,
  logp: Float64Array,
): number {
  const K = data.optionCount;
  const KK = K * K;
  const { table, logRight, logWrong } = tables;
  let change = 0;
  for (let i = 0; i < data.itemCount; i++) {
    if ((data.truth?.[i] ?? -1) >= 0) continue;
    const base = start[i] ?? 0;
    const m = (start[i + 1] ?? 0) - base;
    const oneCoin = (data.itemOptionCount?.[i] ?? 0) > 0;
    // The class prior is over the scope's options; a task on another option set starts uniform.
    if (oneCoin) logp.fill(0, 0, m);
    else for (let k = 0; k < K; k++) logp[k] = logPrior[k] ?? 0;
    for (let p = itemStart[i] ?? 0, to = itemStart[i + 1] ?? 0; p < to; p++) {
      const a = annotator[p] ?? 0;
      const l = answer[p] ?? 0;
      if (oneCoin) {
        const wrong = (logWrong[a] ?? 0) - Math.log(m - 1);
        for (let k = 0; k < m; k++) logp[k] = (logp[k] ?? 0) + (k === l ? (logRight[a] ?? 0) : wrong);
      } else {
        const cell = a * KK + l;
        for (let k = 0; k < K; k++) logp[k] = (logp[k] ?? 0) + (table[cell + k * K] ?? 0);
      }
    }
    let top = -Infinity;
    for (let k = 0; k < m; k++) top = Math.max(top, logp[k] ?? 0);
    let total = 0;
    for (let k = 0; k < m; k++) total += logp[k] = Math.exp((logp[k] ?? 0) - top);
    for (let k = 0; k < m; k++) {
      const value = (logp[k] ?? 0) / total;
      change = Math.max(change, Math.abs(value - (T[base + k] ?? 0)));
      T[base + k] = value;
    }
  }
  return change;
}

/** EM from the posteriors T (in place) to convergence or maxIterations; returns the iterations run. */
function runEm(data: ScopeAnswers, shape: Layout, T: Float64Array, settings: LabelModelSettings, maxIterations: number, tolerance: number): number {
  let widest = data.optionCount;
  for (let i = 0; i < data.itemCount; i++) widest = Math.max(widest, data.itemOptionCount?.[i] ?? 0);
  const logp = new Float64Array(widest);
  let iterations = 0;
  while (iterations < maxIterations) {
    iterations += 1;
    const counts = accumulate(data, shape, T, false);
    const prior = populationPrior(counts, settings);
    const logPrior = logClassPrior(scopeClassPrior(data, shape, T, settings), data.optionCount);
    if (expectation(data, shape, logTables(data, counts, prior, settings), logPrior, T, logp) < tolerance) break;
  }
  return iterations;
}

/**
 * The class prior from the posteriors T of the tasks on the scope's option set, golden tasks at their
 * truth included: they anchor it (left out, a skewed replay of web fell into EM's mirror solution, 0.81 →
 * 0.61 accuracy), and a golden set balanced on purpose moves it by no more than its share of the tasks.
 */
function scopeClassPrior(data: ScopeAnswers, { start }: Layout, T: Float64Array, settings: LabelModelSettings): number[] {
  const K = data.optionCount;
  const sums = new Float64Array(K);
  let items = 0;
  for (let i = 0; i < data.itemCount; i++) {
    if ((data.itemOptionCount?.[i] ?? 0) > 0) continue;
    const base = start[i] ?? 0;
    for (let k = 0; k < K; k++) sums[k] = (sums[k] ?? 0) + (T[base + k] ?? 0);
    items += 1;
  }
  return classPrior(sums, items, settings);
}

/**
 * The calibration samples of the scope's golden tasks (on its option set): after each of a golden task's
 * answers, the evidence of its answers so far, each read from its annotator's stored counts without that
 * answer (which the counts hold with the task's truth): a task the online step decides is never in its
 * answerers' counts either.
 */
function goldenSamples(
  data: ScopeAnswers,
  { annotator, answer, itemStart }: Layout,
  counts: Counts,
  prior: ScopePrior,
  settings: LabelModelSettings,
): CalibrationSamples {
  const K = data.optionCount;
  const KK = K * K;
  const evidence: number[] = [];
  const truths: number[] = [];
  const prefixes: number[] = [];
  let goldenItems = 0;
  const table = new Float64Array(KK);
  const running = new Float64Array(K);
  for (let i = 0; i < data.itemCount; i++) {
    const truth = data.truth?.[i] ?? -1;
    const from = itemStart[i] ?? 0;
    const to = itemStart[i + 1] ?? 0;
    if (truth < 0 || to === from || (data.itemOptionCount?.[i] ?? 0) > 0) continue;
    goldenItems += 1;
    running.fill(0);
    for (let p = from; p < to; p++) {
      const a = annotator[p] ?? 0;
      const l = answer[p] ?? 0;
      // The counts of an annotator whose golden answers were set aside do not hold this one.
      const held = counts.goldenSetAside[a] === 1 ? 0 : 1;
      const matrix = Float64Array.from(counts.matrices.subarray(a * KK, (a + 1) * KK));
      matrix[truth * K + l] = Math.max(0, (matrix[truth * K + l] ?? 0) - held);
      const without = {
        matrix,
        correct: Math.max(0, (counts.correct[a] ?? 0) - (l === truth ? held : 0)),
        answered: Math.max(0, (counts.answered[a] ?? 0) - held),
      };
      writeLogConfusion(without.answered > 0 ? without : null, K, prior, settings, table);
      for (let k = 0; k < K; k++) running[k] = (running[k] ?? 0) + (table[k * K + l] ?? 0);
      evidence.push(...running);
      truths.push(truth);
      prefixes.push(p - from + 1);
    }
  }
  return { optionCount: K, evidence: Float64Array.from(evidence), truth: Int32Array.from(truths), prefix: Int32Array.from(prefixes), goldenItems };
}

/** Share of the decided items (no known truth) whose top option in T is their decided result; null when none. */
function decidedAgreement(data: ScopeAnswers, { start }: Layout, T: Float64Array): number | null {
  if (!data.decided) return null;
  let decided = 0;
  let agreeing = 0;
  for (let i = 0; i < data.itemCount; i++) {
    const result = data.decided[i] ?? -1;
    if (result < 0 || (data.truth?.[i] ?? -1) >= 0) continue;
    const base = start[i] ?? 0;
    const m = (start[i + 1] ?? 0) - base;
    let top = 0;
    for (let k = 1; k < m; k++) if ((T[base + k] ?? 0) > (T[base + top] ?? 0)) top = k;
    decided += 1;
    if (top === result) agreeing += 1;
  }
  return decided === 0 ? null : agreeing / decided;
}

/** A fit that overturns more than half of the scope's decisions (of at least this many) is taken for a label swap. */
export const SWAP_MIN_DECIDED = 5;

/**
 * Re-fits a scope: EM from majority vote to convergence; returns the counts and prior to store and every
 * item's posterior. EM can converge on a mirror image of the truth — on two options, good annotators
 * then look adversarial and the other way round, and every later task completes with the wrong label —
 * when majority vote starts it on the wrong side (integration test "label-model", seed 252: 11 of 25
 * items right at the start, 0 after ten iterations). The service's decisions were each taken at the
 * target confidence, so a fit that overturns most of them is far likelier a swap than a correction: it is
 * fitted again from those decisions (majority vote elsewhere), and the fit that agrees with more of them
 * is kept. A genuine correction overturns a minority of decisions and stays as it is.
 */
export function refitScope(data: ScopeAnswers, options: RefitOptions = {}): RefitResult {
  const settings = options.settings ?? LABEL_MODEL;
  const maxIterations = options.maxIterations ?? 50;
  const tolerance = options.tolerance ?? 1e-4;
  const shape = layout(data);
  let T = majorityStart(data, shape);
  let iterations = runEm(data, shape, T, settings, maxIterations, tolerance);
  let start: RefitResult['start'] = 'majority';
  let agreement = decidedAgreement(data, shape, T);
  const decidedItems = data.decided ? data.decided.reduce((n, result, i) => n + (result >= 0 && (data.truth?.[i] ?? -1) < 0 ? 1 : 0), 0) : 0;
  if (agreement !== null && agreement < 0.5 && decidedItems >= SWAP_MIN_DECIDED) {
    const fromDecisions = majorityStart(data, shape);
    for (let i = 0; i < data.itemCount; i++) {
      const result = data.decided?.[i] ?? -1;
      if (result < 0 || (data.truth?.[i] ?? -1) >= 0) continue;
      const base = shape.start[i] ?? 0;
      fromDecisions.fill(0, base, shape.start[i + 1] ?? base);
      fromDecisions[base + result] = 1;
    }
    const again = runEm(data, shape, fromDecisions, settings, maxIterations, tolerance);
    const second = decidedAgreement(data, shape, fromDecisions) ?? 0;
    if (second > agreement) {
      T = fromDecisions;
      iterations += again;
      start = 'decisions';
      agreement = second;
    }
  }
  const all = accumulate(data, shape, T, false);
  const prior = populationPrior(all, settings);
  // The annotators set aside on every answer, not only the counted ones.
  const stored = accumulate(data, shape, T, true, all.goldenSetAside);
  const fittedClassPrior = scopeClassPrior(data, shape, T, settings);
  const calibration = fitCalibration(goldenSamples(data, shape, stored, prior, settings), fittedClassPrior);
  return {
    ...stored,
    prior,
    classPrior: fittedClassPrior,
    calibration,
    posteriors: T,
    posteriorStart: shape.start,
    iterations,
    start,
    decidedAgreement: agreement,
  };
}
