// bench:quality --kind rating: a simulated crowd rates items on five ordered levels, and each task's answers
// are replayed one at a time through the rating model (src/consensus/kinds/rating.ts) as the service would
// run it: after each answer the task's posterior from every answerer's current parameters and the stop rule;
// a completed task adds one count at (result, answer) to each answerer; the scope is re-fitted
// (refitRatings) whenever its answers have grown by 5 % (model-replay.ts's cadence). No golden tasks.
//
// The crowd (per seed, CROWD annotators, fixed shares): half are good (the true level plus normal noise of
// standard deviation 0.6, rounded and kept within the scale: right 60 % of the time, one level off most of
// the rest); 30 % are biased, as good ones but shifted, two thirds of them one level high (lenient) and one
// third one level low (harsh); 20 % are spammers who answer a level uniformly at random. The truth is
// skewed towards the upper levels (LEVEL_SHARES), as ratings usually are. Each task may be answered by up
// to maxResponses distinct annotators drawn at random; the model is fitted on logistic noise, the crowd
// draws normal noise: the model is not the simulation's.
//
// Figures (the mean over the seeds): `maeModel`, the mean absolute error in levels of the model's result
// (completed tasks) or its most probable level under the final model (the others), against
// `maeMedianOfAnswers`, the median of the same answers on each task (the mean of the two middle answers
// when their count is even: the baseline may answer half levels), so both spend the same answers;
// `exactModel` and `exactMedian`, the share of tasks exactly right (half a level counts as wrong); the
// completed and failed shares; `answersUsedShare`, answers used over the CROWD answers the tasks could have
// had (maxResponses each); `meanAnswers` per task.
import { addRatingCount, decideRating, fitRater, NEW_RATER, ratingPosterior, refitRatings, type RaterParams } from '../../../src/consensus/kinds/rating.ts';
import { asksStopRule, refitDue, SERVICE_REPLAY } from '../model-replay.ts';
import { prng, shuffle } from '../random.ts';

/** How often each level is the truth. */
const LEVEL_SHARES = [0.1, 0.15, 0.25, 0.3, 0.2];
const TASKS = 1_000;
const CROWD = 40;
/** The crowd's make-up (see the header). */
const GOOD_SHARE = 0.5;
const BIASED_SHARE = 0.3;
const LENIENT_OF_BIASED = 2 / 3;
const NOISE_SD = 0.6;

interface Annotator {
  kind: 'good' | 'lenient' | 'harsh' | 'spammer';
  bias: number;
}

interface Task {
  truth: number;
  /** Up to maxResponses answers in the order they arrive. */
  answers: Array<{ worker: number; level: number }>;
}

function crowd(): Annotator[] {
  const good = Math.round(GOOD_SHARE * CROWD);
  const biased = Math.round(BIASED_SHARE * CROWD);
  const lenient = Math.round(LENIENT_OF_BIASED * biased);
  return Array.from({ length: CROWD }, (_, a): Annotator => {
    if (a < good) return { kind: 'good', bias: 0 };
    if (a < good + lenient) return { kind: 'lenient', bias: 1 };
    if (a < good + biased) return { kind: 'harsh', bias: -1 };
    return { kind: 'spammer', bias: 0 };
  });
}

/** A standard normal draw (Box–Muller). */
const normal = (random: () => number) => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

function simulate(seed: number, annotators: readonly Annotator[], levels: number, maxResponses: number): Task[] {
  const random = prng(seed ^ 0x7f4a7c15);
  const everyone = annotators.map((_, a) => a);
  return Array.from({ length: TASKS }, (): Task => {
    let u = random();
    let truth = 0;
    while (truth < levels - 1 && u >= (LEVEL_SHARES[truth] ?? 0)) u -= LEVEL_SHARES[truth++] ?? 0;
    const answers = shuffle(everyone, random)
      .slice(0, maxResponses)
      .map((worker) => {
        const annotator = annotators[worker] as Annotator;
        if (annotator.kind === 'spammer') return { worker, level: Math.floor(random() * levels) };
        const level = Math.round(truth + annotator.bias + NOISE_SD * normal(random));
        return { worker, level: Math.min(levels - 1, Math.max(0, level)) };
      });
    return { truth, answers };
  });
}

/** The median of levels; the mean of the two middle ones when their count is even. */
function median(levels: number[]): number {
  const sorted = [...levels].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** The scope's state as the service would store it: counts per annotator, the prior, the answer log. */
class RatingScope {
  readonly counts: Array<number[] | null>;
  /** fitRater of each annotator's counts under the current prior, kept until either moves. */
  private readonly raters: Array<RaterParams | null>;
  prior: RaterParams = { ...NEW_RATER };
  classPrior: number[] | null = null;
  private readonly log = { item: [] as number[], annotator: [] as number[], answer: [] as number[] };
  readonly decided = new Uint8Array(TASKS);
  private refittedAt = 0;

  constructor(
    private readonly levels: number,
    annotatorCount: number,
  ) {
    this.counts = new Array<number[] | null>(annotatorCount).fill(null);
    this.raters = new Array<RaterParams | null>(annotatorCount).fill(null);
  }

  rater(worker: number): RaterParams {
    return (this.raters[worker] ??= fitRater(this.counts[worker] ?? null, this.levels, this.prior));
  }

  record(item: number, worker: number, level: number) {
    this.log.item.push(item);
    this.log.annotator.push(worker);
    this.log.answer.push(level);
  }

  settle(item: number, taken: ReadonlyArray<{ worker: number; level: number }>, result: number | null) {
    this.decided[item] = 1;
    if (result === null) return;
    for (const { worker, level } of taken) {
      this.counts[worker] = addRatingCount(this.counts[worker] ?? null, this.levels, result, level);
      this.raters[worker] = null;
    }
  }

  maybeRefit() {
    const answers = this.log.item.length;
    if (!refitDue(answers, this.refittedAt)) return;
    this.refittedAt = answers;
    const L = this.levels;
    const fit = refitRatings({
      levelCount: L,
      itemCount: TASKS,
      annotatorCount: this.counts.length,
      item: Int32Array.from(this.log.item),
      annotator: Int32Array.from(this.log.annotator),
      answer: Int32Array.from(this.log.answer),
      counted: this.decided,
    });
    for (let a = 0; a < this.counts.length; a++) {
      if ((fit.answered[a] ?? 0) > 0) this.counts[a] = Array.from(fit.counts.subarray(a * L * L, (a + 1) * L * L));
      this.raters[a] = (fit.answered[a] ?? 0) > 0 ? (fit.raters[a] ?? null) : null;
    }
    this.prior = fit.prior;
    this.classPrior = fit.classPrior;
  }
}

interface SeedFigures {
  absErrorModel: number;
  absErrorMedian: number;
  exactModel: number;
  exactMedian: number;
  completed: number;
  failed: number;
  used: number;
}

function replay(seed: number): SeedFigures {
  const levels = LEVEL_SHARES.length;
  const { targetConfidence, maxResponses } = SERVICE_REPLAY;
  const tasks = simulate(seed, crowd(), levels, maxResponses);
  const scope = new RatingScope(levels, CROWD);
  const results = new Array<number | null>(TASKS).fill(null);
  const taken: Array<Array<{ worker: number; level: number }>> = tasks.map(() => []);
  tasks.forEach((task, item) => {
    const mine = taken[item] ?? [];
    for (const answer of task.answers) {
      mine.push(answer);
      scope.record(item, answer.worker, answer.level);
      scope.maybeRefit();
      if (!asksStopRule(mine.length)) continue;
      const posterior = ratingPosterior(
        mine.map(({ worker, level }) => ({ rater: scope.rater(worker), answer: level })),
        levels,
        scope.classPrior,
      );
      const decision = decideRating(posterior, { answerCount: mine.length, maxResponses, targetConfidence });
      if (decision.kind === 'continue') continue;
      scope.settle(item, mine, decision.result);
      results[item] = decision.result;
      break;
    }
  });
  const figures: SeedFigures = { absErrorModel: 0, absErrorMedian: 0, exactModel: 0, exactMedian: 0, completed: 0, failed: 0, used: 0 };
  tasks.forEach((task, item) => {
    const mine = taken[item] ?? [];
    // A task that did not complete is labelled by the final model, as model-replay.ts scores it.
    const label =
      results[item] ??
      ratingPosterior(
        mine.map(({ worker, level }) => ({ rater: scope.rater(worker), answer: level })),
        levels,
        scope.classPrior,
      ).best;
    const middle = median(mine.map((answer) => answer.level));
    figures.absErrorModel += Math.abs(label - task.truth);
    figures.absErrorMedian += Math.abs(middle - task.truth);
    figures.exactModel += label === task.truth ? 1 : 0;
    figures.exactMedian += middle === task.truth ? 1 : 0;
    if (results[item] !== null) figures.completed += 1;
    else if (mine.length >= maxResponses) figures.failed += 1;
    figures.used += mine.length;
  });
  return figures;
}

export async function figures(seeds: number[]): Promise<Record<string, unknown>> {
  const perSeed = seeds.map(replay);
  const mean = (figure: (f: SeedFigures) => number) => perSeed.reduce((sum, f) => sum + figure(f), 0) / perSeed.length;
  const round = (n: number) => Math.round(n * 10_000) / 10_000;
  const maeModel = mean((f) => f.absErrorModel / TASKS);
  const maeMedianOfAnswers = mean((f) => f.absErrorMedian / TASKS);
  return {
    kind: 'rating',
    tasks: TASKS,
    levels: LEVEL_SHARES.length,
    annotators: CROWD,
    seeds: seeds.length,
    maeModel: round(maeModel),
    maeMedianOfAnswers: round(maeMedianOfAnswers),
    maeReduction: round(1 - maeModel / maeMedianOfAnswers),
    exactModel: round(mean((f) => f.exactModel / TASKS)),
    exactMedian: round(mean((f) => f.exactMedian / TASKS)),
    completedShare: round(mean((f) => f.completed / TASKS)),
    failedShare: round(mean((f) => f.failed / TASKS)),
    meanAnswers: round(mean((f) => f.used / TASKS)),
    answersUsedShare: round(mean((f) => f.used / (TASKS * SERVICE_REPLAY.maxResponses))),
  };
}
