// The learned model replayed as the service runs it, through the service's own functions: after each
// answer the task is decided exactly as the answer path decides it (decideWithModel, which
// planSettlement calls: the posterior from every answerer's current counts, the stop rule), a decision
// moves its answerers' counts (its increments, applyIncrement: one count at the result of a completed task), and the scope is
// re-fitted (refitScope) whenever its answers have grown by 5 %. The scope here is the whole dataset
// (one project); the arrays stand in for the database's rows.
import { calibratedPosterior, IDENTITY_CALIBRATION, reliabilityBands, type Calibration } from '../../src/consensus/calibration.ts';
import {
  answerLogLikelihoods,
  emptyCounts,
  LABEL_MODEL,
  NEW_SCOPE_PRIOR,
  type AnnotatorCounts,
  type LabelModelSettings,
  type ScopePrior,
} from '../../src/consensus/label-model.ts';
import { refitScope } from '../../src/consensus/refit.ts';
import { applyIncrement, goldenIncrement, type CountIncrement } from '../../src/consensus/soft-counts.ts';
import { decideWithModel } from '../../src/consensus/task-decision.ts';
import { addAnswer, DEFAULT_TARGET_CONFIDENCE, defaultMaxResponses, startLogPosterior } from '../../src/consensus/stop-rule.ts';
import { DEFAULT_GOLDEN_FIRST_RATE, DEFAULT_GOLDEN_RATE } from '../../src/config.ts';
import { DEFAULT_VALIDATIONS_NEEDED } from '@concord/contract';
import type { IndexedAnswer, IndexedDataset } from './indexed.ts';
import { expectedHit, prng, shuffle } from './random.ts';

export interface ReplayOptions {
  settings: LabelModelSettings;
  targetConfidence: number;
  validationsNeeded: number;
  maxResponses: number;
  /** Re-fit once the scope's answers have grown by this share since the last re-fit. */
  refitGrowth: number;
  /** …and by at least this many answers, so a young scope is not re-fitted after every answer. */
  refitMinAnswers: number;
  /** The share of items (with a truth) drawn as golden tasks: answered and learned from, never scored. */
  goldenShare: number;
}

export const SERVICE_REPLAY: ReplayOptions = {
  settings: LABEL_MODEL,
  targetConfidence: DEFAULT_TARGET_CONFIDENCE,
  validationsNeeded: DEFAULT_VALIDATIONS_NEEDED,
  maxResponses: defaultMaxResponses(DEFAULT_VALIDATIONS_NEEDED),
  refitGrowth: 0.05,
  refitMinAnswers: 20,
  goldenShare: 0.05,
};

/**
 * sdk_answer's gate, which every replay applies as the service does: the stop rule is asked only once a
 * task holds its validationsNeeded answers (the rule's home is prisma/functions/sdk_answer.sql; the pure
 * stop rules of src/consensus do not repeat it).
 */
export const asksStopRule = (answerCount: number, validationsNeeded: number = SERVICE_REPLAY.validationsNeeded): boolean => answerCount >= validationsNeeded;

/** Whether a scope whose answers number `answers` is due a re-fit, its last at `refittedAt` answers (the service's rule). */
export function refitDue(answers: number, refittedAt: number, options: Pick<ReplayOptions, 'refitGrowth' | 'refitMinAnswers'> = SERVICE_REPLAY): boolean {
  return answers >= refittedAt * (1 + options.refitGrowth) && answers - refittedAt >= options.refitMinAnswers;
}

export interface ReplayOutcome {
  /** Items with a known truth, golden ones excepted. */
  scored: number;
  /** Items served as golden tasks. */
  golden: number;
  completed: number;
  completedCorrect: number;
  /** Σ of the confidence reported on the completed items (what GET …/quality averages). */
  completedConfidence: number;
  /** Per scored item: the confidence the service reported when it stopped asking, and whether its label was right. */
  reported: Array<{ confidence: number; hit: number }>;
  /** Σ over scored items of the chance their label is right (a tie counts 1/t). */
  correctAll: number;
  usedAll: number;
  usedScored: number;
  /** The answers each item was given, in order: the orders majority vote is measured on. */
  orders: IndexedAnswer[][];
  /** The most annotators any re-fit set the golden answers of aside (refit.ts GOLDEN_CONSISTENCY). */
  goldenSetAside: number;
}

/** A replay's figures before its first item. */
export const emptyOutcome = (): ReplayOutcome => ({
  scored: 0,
  golden: 0,
  completed: 0,
  completedCorrect: 0,
  completedConfidence: 0,
  reported: [],
  correctAll: 0,
  usedAll: 0,
  usedScored: 0,
  orders: [],
  goldenSetAside: 0,
});

/** The database of one scope, in memory: stored counts, the scope prior, the answer log, decided flags. */
class SimulatedScope {
  readonly counts: Array<AnnotatorCounts | null>;
  prior: ScopePrior = NEW_SCOPE_PRIOR;
  classPrior: number[] | null = null;
  calibration: Calibration = IDENTITY_CALIBRATION;
  private readonly log = { item: [] as number[], annotator: [] as number[], answer: [] as number[] };
  readonly decided: Uint8Array;
  /** A COMPLETED item's result, −1 otherwise: what the service passes the re-fit against a label swap. */
  readonly results: Int32Array;
  private refittedAt = 0;
  /** The most annotators a re-fit set the golden answers of aside. */
  goldenSetAside = 0;

  constructor(
    private readonly data: IndexedDataset,
    private readonly options: ReplayOptions,
    /** Per item: its truth when it is a golden task, −1 otherwise. */
    private readonly goldenTruth: Int32Array,
  ) {
    this.counts = new Array<AnnotatorCounts | null>(data.workerCount).fill(null);
    this.decided = new Uint8Array(data.itemAnswers.length);
    this.results = new Int32Array(data.itemAnswers.length).fill(-1);
  }

  get K() {
    return this.data.classes.length;
  }

  logLikelihoods(answer: IndexedAnswer): number[] {
    return answerLogLikelihoods(this.counts[answer.worker] ?? null, answer.label, this.K, this.prior, this.options.settings);
  }

  record(item: number, answer: IndexedAnswer) {
    this.log.item.push(item);
    this.log.annotator.push(answer.worker);
    this.log.answer.push(answer.label);
  }

  /** A golden answer: its annotator's counts gain one count at (truth, answer), as the service's do. */
  settleGolden(item: number, answer: IndexedAnswer) {
    const truth = this.goldenTruth[item] ?? -1;
    this.counts[answer.worker] = applyIncrement(this.counts[answer.worker] ?? emptyCounts(this.K), goldenIncrement(this.K, truth, answer.label));
    this.decided[item] = 1;
  }

  /** The calibrated posterior of an item's answers under the scope as it is now. */
  posterior(answers: readonly IndexedAnswer[]): number[] {
    let evidence = startLogPosterior(this.K);
    for (const answer of answers) evidence = addAnswer(evidence, this.logLikelihoods(answer));
    return calibratedPosterior(evidence, this.classPrior, { calibration: this.calibration, answers: answers.length });
  }

  settle(item: number, increments: ReadonlyArray<{ annotatorId: string; increment: CountIncrement }>, result: number) {
    this.results[item] = result;
    for (const { annotatorId, increment } of increments) {
      const worker = Number(annotatorId);
      this.counts[worker] = applyIncrement(this.counts[worker] ?? emptyCounts(this.K), increment);
    }
    this.decided[item] = 1;
  }

  /** The answer path's decision on a task's answers so far, with the counts as stored now. */
  decide(answers: readonly IndexedAnswer[]) {
    return decideWithModel({
      options: this.data.classes,
      scope: { options: this.data.classes, prior: this.prior, classPrior: this.classPrior, calibration: this.calibration },
      answers: answers.map((answer) => ({
        annotatorId: String(answer.worker),
        answer: this.data.classes[answer.label] ?? '',
        counts: this.counts[answer.worker] ?? null,
      })),
      maxResponses: this.options.maxResponses,
      targetConfidence: this.options.targetConfidence,
      settings: this.options.settings,
    });
  }

  /** Re-fits when the answers have grown enough (replacing counts and prior). */
  maybeRefit(): void {
    const answers = this.log.item.length;
    if (!refitDue(answers, this.refittedAt, this.options)) return;
    this.refittedAt = answers;
    const K = this.K;
    const fit = refitScope(
      {
        optionCount: K,
        itemCount: this.data.itemAnswers.length,
        annotatorCount: this.data.workerCount,
        item: Int32Array.from(this.log.item),
        annotator: Int32Array.from(this.log.annotator),
        answer: Int32Array.from(this.log.answer),
        counted: this.decided,
        decided: this.results,
        truth: this.goldenTruth,
      },
      { settings: this.options.settings },
    );
    for (let w = 0; w < this.data.workerCount; w++) {
      if ((fit.answered[w] ?? 0) === 0) continue;
      this.counts[w] = { matrix: fit.matrices.slice(w * K * K, (w + 1) * K * K), correct: fit.correct[w] ?? 0, answered: fit.answered[w] ?? 0 };
    }
    this.goldenSetAside = Math.max(
      this.goldenSetAside,
      fit.goldenSetAside.reduce((n, aside) => n + aside, 0),
    );
    this.prior = fit.prior;
    this.classPrior = fit.classPrior;
    this.calibration = fit.calibration;
  }
}

/** Per item: its truth when the seed draws it as a golden task (a `share` of the items with a truth), else −1. */
export function drawGolden(data: IndexedDataset, seed: number, share: number): Int32Array {
  const goldenTruth = new Int32Array(data.itemAnswers.length).fill(-1);
  const withTruth = data.itemAnswers.map((_, i) => i).filter((i) => (data.truth[i] ?? -1) >= 0);
  for (const item of shuffle(withTruth, prng(seed ^ 0x5bd1e995)).slice(0, Math.round(share * withTruth.length))) {
    goldenTruth[item] = data.truth[item] ?? -1;
  }
  return goldenTruth;
}

/**
 * One replay: tasks in random order, each task's answers in random order, one answer at a time. A seeded
 * `goldenShare` of the items with a truth are golden tasks: each teaches its annotator's counts with the
 * truth, the re-fit calibrates on them, and they are never scored. They are served as the service serves
 * them: before each regular answer, its annotator gives one of their golden answers (in the dataset) with
 * probability GOLDEN_FIRST_RATE (0.5) while they have given none, else GOLDEN_RATE (0.1), the service's defaults; whatever golden answers
 * are left at the end are taken then.
 */
export function replayModel(data: IndexedDataset, seed: number, options: ReplayOptions = SERVICE_REPLAY): ReplayOutcome {
  const random = prng(seed);
  const serving = prng(seed ^ 0x68e31da4);
  const goldenTruth = drawGolden(data, seed, options.goldenShare);
  const scope = new SimulatedScope(data, options, goldenTruth);
  const outcome = emptyOutcome();
  const results = new Int32Array(data.itemAnswers.length).fill(-1);
  const last = new Map<number, { confidence: number; best: number }>();
  const items = shuffle(
    data.itemAnswers.map((_, i) => i),
    random,
  );
  const isGolden = (item: number) => (goldenTruth[item] ?? -1) >= 0;
  // Per annotator: their golden answers in the dataset, in a random order, and whether they gave one yet.
  const goldenQueue: Array<Array<{ item: number; answer: IndexedAnswer }>> = Array.from({ length: data.workerCount }, () => []);
  for (const item of items.filter(isGolden)) for (const answer of data.itemAnswers[item] ?? []) goldenQueue[answer.worker]?.push({ item, answer });
  for (let w = 0; w < data.workerCount; w++) goldenQueue[w] = shuffle(goldenQueue[w] ?? [], serving);
  const gaveGolden = new Uint8Array(data.workerCount);
  const giveGolden = (next: { item: number; answer: IndexedAnswer }) => {
    (outcome.orders[next.item] ??= []).push(next.answer);
    gaveGolden[next.answer.worker] = 1;
    scope.record(next.item, next.answer);
    scope.settleGolden(next.item, next.answer);
    scope.maybeRefit();
  };
  for (const item of items) {
    if (isGolden(item)) continue;
    const order = shuffle(data.itemAnswers[item] ?? [], random);
    const taken: IndexedAnswer[] = [];
    for (const answer of order) {
      const queue = goldenQueue[answer.worker] ?? [];
      if (queue.length > 0 && serving() < (gaveGolden[answer.worker] ? DEFAULT_GOLDEN_RATE : DEFAULT_GOLDEN_FIRST_RATE))
        giveGolden(queue.shift() as { item: number; answer: IndexedAnswer });
      taken.push(answer);
      scope.record(item, answer);
      scope.maybeRefit();
      const decision = scope.decide(taken);
      last.set(item, { confidence: decision.confidence, best: decision.best === null ? -1 : data.classes.indexOf(decision.best) });
      // Below the gate the service stores the answer undecided; the posterior is what the task shows meanwhile.
      if (decision.kind === 'continue' || !asksStopRule(taken.length, options.validationsNeeded)) continue;
      const result = decision.result === null ? -1 : data.classes.indexOf(decision.result);
      scope.settle(item, decision.increments, result);
      results[item] = result;
      break;
    }
    outcome.orders[item] = taken;
    outcome.usedScored += (data.truth[item] ?? -1) >= 0 ? taken.length : 0;
  }
  for (const queue of goldenQueue) for (const next of queue) giveGolden(next);
  outcome.goldenSetAside = scope.goldenSetAside;
  outcome.usedAll = outcome.orders.reduce((sum, taken) => sum + (taken?.length ?? 0), 0);
  // Scoring: a COMPLETED task by its result; any other by the latest model's most probable option.
  data.itemAnswers.forEach((_, item) => {
    const truth = data.truth[item] ?? -1;
    if (truth < 0) return;
    if ((goldenTruth[item] ?? -1) >= 0) {
      outcome.golden += 1;
      return;
    }
    outcome.scored += 1;
    const stopped = last.get(item) ?? { confidence: 0, best: -1 };
    outcome.reported.push({ confidence: stopped.confidence, hit: stopped.best === truth ? 1 : 0 });
    const result = results[item] ?? -1;
    if (result >= 0) {
      outcome.completed += 1;
      outcome.completedConfidence += stopped.confidence;
      const hit = result === truth ? 1 : 0;
      outcome.completedCorrect += hit;
      outcome.correctAll += hit;
      return;
    }
    outcome.correctAll += expectedHit(scope.posterior(outcome.orders[item] ?? []), truth);
  });
  return outcome;
}

/**
 * Expected calibration error: the service's ten equal-width bands of the reported confidence
 * (reliabilityBands, the reliability diagram's), each band's gap weighted by its count.
 */
export function calibrationError(reported: ReadonlyArray<{ confidence: number; hit: number }>): number {
  const error = reliabilityBands(reported).reduce((sum, band) => sum + band.samples * Math.abs(band.confidence - band.accuracy), 0);
  return reported.length === 0 ? 0 : error / reported.length;
}
