// The learned model replayed as the service runs it, through the service's own functions: each answer
// adds its answerer's ln P(answer | k) to the task's log-posterior (answerLogLikelihoods, addAnswer), the
// stop rule decides (decideTask), a decision moves its answerers' soft counts
// (decisionIncrement), and the scope is re-fitted (refitScope) whenever its answers have grown by 5 %.
// The scope here is the whole dataset (one project); the arrays stand in for the database's rows.
import { answerLogLikelihoods, emptyCounts, LABEL_MODEL, NEW_SCOPE_PRIOR, type AnnotatorCounts, type LabelModelSettings, type ScopePrior } from '../../src/consensus/label-model.ts';
import { refitScope } from '../../src/consensus/refit.ts';
import { applyIncrement, decisionIncrement } from '../../src/consensus/soft-counts.ts';
import { addAnswer, decideTask, DEFAULT_TARGET_CONFIDENCE, defaultMaxResponses, probabilities, startLogPosterior } from '../../src/consensus/stop-rule.ts';
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
  private refittedAt = 0;

  constructor(
    private readonly data: IndexedDataset,
    private readonly options: ReplayOptions,
  ) {
    this.counts = new Array<AnnotatorCounts | null>(data.workerCount).fill(null);
    this.decided = new Uint8Array(data.itemAnswers.length);
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

  settle(item: number, answers: readonly IndexedAnswer[], posterior: readonly number[]) {
    for (const answer of answers) {
      const counts = this.counts[answer.worker] ?? emptyCounts(this.K);
      this.counts[answer.worker] = applyIncrement(counts, decisionIncrement(posterior, answer.label));
    }
    this.decided[item] = 1;
  }

  /** Re-fits when the answers have grown enough (replacing counts and prior); returns the item posteriors when it did. */
  maybeRefit(): { posteriors: Float64Array; start: Int32Array } | null {
    const answers = this.log.item.length;
    if (answers < this.refittedAt * (1 + this.options.refitGrowth) || answers - this.refittedAt < this.options.refitMinAnswers) return null;
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
      },
      { settings: this.options.settings },
    );
    for (let w = 0; w < this.data.workerCount; w++) {
      if ((fit.answered[w] ?? 0) === 0) continue;
      this.counts[w] = { matrix: fit.matrices.slice(w * K * K, (w + 1) * K * K), correct: fit.correct[w] ?? 0, answered: fit.answered[w] ?? 0 };
    }
    this.prior = fit.prior;
    return { posteriors: fit.posteriors, start: fit.posteriorStart };
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
    let logPosterior = startLogPosterior(data.classes.length);
    for (const answer of order) {
      taken.push(answer);
      logPosterior = addAnswer(logPosterior, scope.logLikelihoods(answer));
      scope.record(item, answer);
      const fit = scope.maybeRefit();
      // The re-fit saw this task's answers too: its posterior replaces the one summed so far.
      if (fit) logPosterior = Array.from(fit.posteriors.subarray(fit.start[item], fit.start[item + 1]), Math.log);
      const decision = decideTask({
        logPosterior,
        answerCount: taken.length,
        validationsNeeded: options.validationsNeeded,
        maxResponses: options.maxResponses,
        targetConfidence: options.targetConfidence,
      });
      if (decision.kind === 'continue') continue;
      scope.settle(item, taken, probabilities(logPosterior));
      if (decision.kind === 'complete') results[item] = decision.result;
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
