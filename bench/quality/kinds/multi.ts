// bench:quality --kind multi: a simulated crowd tags items with a subset of six options, and each task's
// answers are replayed one at a time through the multi-select model (src/consensus/kinds/multi.ts) as the
// service would run it: after each answer the task's posterior from every answerer's current counts and the
// stop rule; a completed task adds one count per option at (decided, ticked) to each answerer; the scope is
// re-fitted (refitMulti) whenever its answers have grown by 5 % (model-replay.ts's cadence). No golden tasks.
//
// The crowd (per seed, CROWD annotators, fixed shares): 40 % are good (tick an option that belongs 85 % of
// the time, one that does not 5 %); 10 % are as good but blind to one option (each its own: they tick it
// no more when it belongs than when it does not, 5 %); 30 % are biased, half of them careless (tick 50 % of
// what belongs, 3 % of what does not) and half over-eager (90 %, 20 %); 20 % are spammers who tick each
// option with a chance of 30 % whatever the item. Each option belongs with its own frequency
// (OPTION_SHARES, from common to rare), independently, so about one item in six has the empty set for
// truth (the tasks allow it). Each task may be answered by up to maxResponses distinct annotators drawn
// at random.
//
// Figures (the mean over the seeds): `exactSetAccuracy`, the share of tasks whose set is exactly the truth
// (the result of completed tasks, the final model's set for the others), against
// `perOptionMvExactSetAccuracy`, each option in when more than half of the same answers ticked it (a tie
// counts one half, as majority-budget.ts counts ties), so both spend the same answers; the per-option
// accuracies of both; the completed and failed shares; `answersUsedShare`, answers used over the answers
// the tasks could have had (maxResponses each); `meanAnswers` per task.
import { addMultiCounts, decideMulti, multiPosterior, NEW_TAGGER, refitMulti, taggerParams, type TaggerParams } from '../../../src/consensus/kinds/multi.ts';
import { asksStopRule, refitDue, SERVICE_REPLAY } from '../model-replay.ts';
import { prng, shuffle } from '../random.ts';

/** How often each option belongs to an item's set. */
const OPTION_SHARES = [0.5, 0.35, 0.25, 0.15, 0.1, 0.05];
const TASKS = 1_000;
const CROWD = 40;

/** The crowd's make-up (see the header): per kind of annotator, its share and P(tick | belongs), P(tick | does not). */
const KINDS_OF_ANNOTATOR = [
  { kind: 'good', share: 0.4, tickIn: 0.85, tickOut: 0.05 },
  { kind: 'blind to one option', share: 0.1, tickIn: 0.85, tickOut: 0.05, blindSpot: true },
  { kind: 'careless', share: 0.15, tickIn: 0.5, tickOut: 0.03 },
  { kind: 'over-eager', share: 0.15, tickIn: 0.9, tickOut: 0.2 },
  { kind: 'spammer', share: 0.2, tickIn: 0.3, tickOut: 0.3 },
] as const;

interface Task {
  truth: boolean[];
  /** Up to maxResponses answers in the order they arrive. */
  answers: Array<{ worker: number; chosen: number[] }>;
}

interface Annotator {
  tickIn: number;
  tickOut: number;
  /** The option it ticks no more when it belongs than when it does not (−1: none). */
  blind: number;
}

function crowd(): Annotator[] {
  let blindSpots = 0;
  return KINDS_OF_ANNOTATOR.flatMap((kind) =>
    Array.from({ length: Math.round(kind.share * CROWD) }, () => ({
      tickIn: kind.tickIn,
      tickOut: kind.tickOut,
      blind: 'blindSpot' in kind ? blindSpots++ % OPTION_SHARES.length : -1,
    })),
  );
}

function simulate(seed: number, annotators: readonly Annotator[], maxResponses: number): Task[] {
  const random = prng(seed ^ 0x3c6ef372);
  const everyone = annotators.map((_, a) => a);
  return Array.from({ length: TASKS }, (): Task => {
    const truth = OPTION_SHARES.map((share) => random() < share);
    const answers = shuffle(everyone, random)
      .slice(0, maxResponses)
      .map((worker) => {
        const { tickIn, tickOut, blind } = annotators[worker] ?? { tickIn: 0, tickOut: 0, blind: -1 };
        return { worker, chosen: truth.flatMap((belongs, o) => (random() < (belongs && o !== blind ? tickIn : tickOut) ? [o] : [])) };
      });
    return { truth, answers };
  });
}

/** The scope's state as the service would store it: four counts per annotator, the prior, the answer log. */
class MultiScope {
  readonly counts: Array<number[] | null>;
  prior: TaggerParams = { ...NEW_TAGGER };
  classPrior: number[] | null = null;
  private readonly log = { item: [] as number[], annotator: [] as number[], ticks: [] as number[] };
  readonly decided = new Uint8Array(TASKS);
  private refittedAt = 0;

  constructor(
    private readonly optionCount: number,
    annotatorCount: number,
  ) {
    this.counts = new Array<number[] | null>(annotatorCount).fill(null);
  }

  tagger(worker: number): TaggerParams {
    return taggerParams(this.counts[worker] ?? null, this.prior);
  }

  record(item: number, worker: number, chosen: readonly number[]) {
    this.log.item.push(item);
    this.log.annotator.push(worker);
    const mine = new Set(chosen);
    for (let o = 0; o < this.optionCount; o++) this.log.ticks.push(mine.has(o) ? 1 : 0);
  }

  settle(item: number, taken: ReadonlyArray<{ worker: number; chosen: number[] }>, result: number[] | null) {
    this.decided[item] = 1;
    if (result === null) return;
    for (const { worker, chosen } of taken) this.counts[worker] = addMultiCounts(this.counts[worker] ?? null, this.optionCount, result, chosen);
  }

  maybeRefit() {
    const answers = this.log.item.length;
    if (!refitDue(answers, this.refittedAt)) return;
    this.refittedAt = answers;
    const fit = refitMulti({
      optionCount: this.optionCount,
      itemCount: TASKS,
      annotatorCount: this.counts.length,
      item: Int32Array.from(this.log.item),
      annotator: Int32Array.from(this.log.annotator),
      ticks: Uint8Array.from(this.log.ticks),
      counted: this.decided,
    });
    for (let a = 0; a < this.counts.length; a++) {
      const mine = Array.from(fit.counts.subarray(a * 4, a * 4 + 4));
      if (mine.some((n) => n > 0)) this.counts[a] = mine;
    }
    this.prior = fit.prior;
    this.classPrior = fit.classPrior;
  }
}

interface SeedFigures {
  exactModel: number;
  exactMv: number;
  optionModel: number;
  optionMv: number;
  completed: number;
  failed: number;
  used: number;
}

function replay(seed: number): SeedFigures {
  const K = OPTION_SHARES.length;
  const { targetConfidence, maxResponses } = SERVICE_REPLAY;
  const tasks = simulate(seed, crowd(), maxResponses);
  const scope = new MultiScope(K, crowd().length);
  const results = new Array<number[] | null>(TASKS).fill(null);
  const taken: Array<Array<{ worker: number; chosen: number[] }>> = tasks.map(() => []);
  const posteriorOf = (mine: ReadonlyArray<{ worker: number; chosen: number[] }>) =>
    multiPosterior(
      mine.map(({ worker, chosen }) => ({ tagger: scope.tagger(worker), chosen })),
      K,
      { classPrior: scope.classPrior },
    );
  tasks.forEach((task, item) => {
    const mine = taken[item] ?? [];
    for (const answer of task.answers) {
      mine.push(answer);
      scope.record(item, answer.worker, answer.chosen);
      scope.maybeRefit();
      if (!asksStopRule(mine.length)) continue;
      const decision = decideMulti(posteriorOf(mine), { answerCount: mine.length, maxResponses, targetConfidence });
      if (decision.kind === 'continue') continue;
      scope.settle(item, mine, decision.result);
      results[item] = decision.result;
      break;
    }
  });
  const figures: SeedFigures = { exactModel: 0, exactMv: 0, optionModel: 0, optionMv: 0, completed: 0, failed: 0, used: 0 };
  tasks.forEach((task, item) => {
    const mine = taken[item] ?? [];
    // A task that did not complete is labelled by the final model, as model-replay.ts scores it.
    const label = new Set(results[item] ?? posteriorOf(mine).chosen);
    let modelExact = 1;
    let mvExact = 1;
    task.truth.forEach((belongs, o) => {
      const modelHit = label.has(o) === belongs ? 1 : 0;
      const ticks = mine.reduce((n, answer) => n + (answer.chosen.includes(o) ? 1 : 0), 0);
      const mvHit = 2 * ticks === mine.length ? 0.5 : 2 * ticks > mine.length === belongs ? 1 : 0;
      modelExact *= modelHit;
      mvExact *= mvHit;
      figures.optionModel += modelHit / K;
      figures.optionMv += mvHit / K;
    });
    figures.exactModel += modelExact;
    figures.exactMv += mvExact;
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
  return {
    kind: 'multi',
    tasks: TASKS,
    options: OPTION_SHARES.length,
    annotators: crowd().length,
    seeds: seeds.length,
    exactSetAccuracy: round(mean((f) => f.exactModel / TASKS)),
    perOptionMvExactSetAccuracy: round(mean((f) => f.exactMv / TASKS)),
    optionAccuracy: round(mean((f) => f.optionModel / TASKS)),
    perOptionMvOptionAccuracy: round(mean((f) => f.optionMv / TASKS)),
    completedShare: round(mean((f) => f.completed / TASKS)),
    failedShare: round(mean((f) => f.failed / TASKS)),
    meanAnswers: round(mean((f) => f.used / TASKS)),
    answersUsedShare: round(mean((f) => f.used / (TASKS * SERVICE_REPLAY.maxResponses))),
  };
}
