// The learned model replayed as the service runs it, through the service's own functions: after each
// answer the task is decided exactly as the answer path decides it (decideWithModel, which
// planSettlement calls: the posterior from every answerer's current counts, the stop rule), a decision
// moves its answerers' counts (its increments, applyIncrement: one count at the result of a completed task), and the scope is
// re-fitted (refitScope) whenever its answers have grown by 5 %. The scope here is the whole dataset
// (one project); the arrays stand in for the database's rows.
import { answerLogLikelihoods, emptyCounts, LABEL_MODEL, NEW_SCOPE_PRIOR, type AnnotatorCounts, type LabelModelSettings, type ScopePrior } from '../../src/consensus/label-model.ts';
import { refitScope } from '../../src/consensus/refit.ts';
import { applyIncrement, type CountIncrement } from '../../src/consensus/soft-counts.ts';
import { decideWithModel } from '../../src/consensus/task-decision.ts';
import { addAnswer, DEFAULT_TARGET_CONFIDENCE, defaultMaxResponses, startLogPosterior } from '../../src/consensus/stop-rule.ts';
import { DEFAULT_VALIDATIONS_NEEDED } from '../../src/modules/tasks/task-rules.ts';
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
}

export const SERVICE_REPLAY: ReplayOptions = {
  settings: LABEL_MODEL,
  targetConfidence: DEFAULT_TARGET_CONFIDENCE,
  validationsNeeded: DEFAULT_VALIDATIONS_NEEDED,
  maxResponses: defaultMaxResponses(DEFAULT_VALIDATIONS_NEEDED),
  refitGrowth: 0.05,
  refitMinAnswers: 20,
};

export interface ReplayOutcome {
  /** Items with a known truth. */
  scored: number;
  completed: number;
  completedCorrect: number;
  /** Σ over scored items of the chance their label is right (a tie counts 1/t). */
  correctAll: number;
  usedAll: number;
  usedScored: number;
  /** The answers each item was given, in order: the orders majority vote is measured on. */
  orders: IndexedAnswer[][];
}

/** The database of one scope, in memory: stored counts, the scope prior, the answer log, decided flags. */
class SimulatedScope {
  readonly counts: Array<AnnotatorCounts | null>;
  prior: ScopePrior = NEW_SCOPE_PRIOR;
  private readonly log = { item: [] as number[], annotator: [] as number[], answer: [] as number[] };
  readonly decided: Uint8Array;
  /** A COMPLETED item's result, −1 otherwise: what the service passes the re-fit against a label swap. */
  readonly results: Int32Array;
  private refittedAt = 0;

  constructor(
    private readonly data: IndexedDataset,
    private readonly options: ReplayOptions,
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
      scope: { options: this.data.classes, prior: this.prior },
      answers: answers.map((answer) => ({ annotatorId: String(answer.worker), answer: this.data.classes[answer.label] ?? '', counts: this.counts[answer.worker] ?? null })),
      validationsNeeded: this.options.validationsNeeded,
      maxResponses: this.options.maxResponses,
      targetConfidence: this.options.targetConfidence,
      settings: this.options.settings,
    });
  }

  /** Re-fits when the answers have grown enough (replacing counts and prior). */
  maybeRefit(): void {
    const answers = this.log.item.length;
    if (answers < this.refittedAt * (1 + this.options.refitGrowth) || answers - this.refittedAt < this.options.refitMinAnswers) return;
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
      },
      { settings: this.options.settings },
    );
    for (let w = 0; w < this.data.workerCount; w++) {
      if ((fit.answered[w] ?? 0) === 0) continue;
      this.counts[w] = { matrix: fit.matrices.slice(w * K * K, (w + 1) * K * K), correct: fit.correct[w] ?? 0, answered: fit.answered[w] ?? 0 };
    }
    this.prior = fit.prior;
  }
}

/** One replay: tasks in random order, each task's answers in random order, one answer at a time. */
export function replayModel(data: IndexedDataset, seed: number, options: ReplayOptions = SERVICE_REPLAY): ReplayOutcome {
  const random = prng(seed);
  const scope = new SimulatedScope(data, options);
  const outcome: ReplayOutcome = { scored: 0, completed: 0, completedCorrect: 0, correctAll: 0, usedAll: 0, usedScored: 0, orders: [] };
  const results = new Int32Array(data.itemAnswers.length).fill(-1);
  const items = shuffle(
    data.itemAnswers.map((_, i) => i),
    random,
  );
  for (const item of items) {
    const order = shuffle(data.itemAnswers[item] ?? [], random);
    const taken: IndexedAnswer[] = [];
    for (const answer of order) {
      taken.push(answer);
      scope.record(item, answer);
      scope.maybeRefit();
      const decision = scope.decide(taken);
      if (decision.kind === 'continue') continue;
      const result = decision.result === null ? -1 : data.classes.indexOf(decision.result);
      scope.settle(item, decision.increments, result);
      results[item] = result;
      break;
    }
    outcome.orders[item] = taken;
    outcome.usedAll += taken.length;
    if ((data.truth[item] ?? -1) >= 0) outcome.usedScored += taken.length;
  }
  // Scoring: a COMPLETED task by its result; any other by the latest model's most probable option.
  data.itemAnswers.forEach((_, item) => {
    const truth = data.truth[item] ?? -1;
    if (truth < 0) return;
    outcome.scored += 1;
    const result = results[item] ?? -1;
    if (result >= 0) {
      outcome.completed += 1;
      const hit = result === truth ? 1 : 0;
      outcome.completedCorrect += hit;
      outcome.correctAll += hit;
      return;
    }
    let logPosterior = startLogPosterior(data.classes.length);
    for (const answer of outcome.orders[item] ?? []) logPosterior = addAnswer(logPosterior, scope.logLikelihoods(answer));
    outcome.correctAll += expectedHit(logPosterior, truth);
  });
  return outcome;
}
