// The pairwise answer kind on a simulated crowd: pairs of candidates with a known better one (or a tie),
// answered by good, position-biased and spamming annotators who each see the two candidates in a random
// order, replayed one answer at a time through the pairwise model and its stop rule (re-fitted as the
// answers grow, as model-replay.ts does for single choice), and compared with majority vote at the same
// answer budget over the same answer orders (majority-budget.ts). Groups of candidates are also ranked
// (Bradley–Terry on the pairs' posteriors) and compared with their true order.
// Alone: npx tsx --conditions=source bench/quality/kinds/pairwise.ts prints the JSON line of seeds 1–10.
import {
  addDecidedAnswer,
  decidePair,
  NEW_PAIRWISE_PRIOR,
  PAIR_CHOICES,
  pairLogPosterior,
  positionBias,
  rankGroup,
  refitPairs,
  UNIFORM_PAIR_CLASS_PRIOR,
  type GroupPair,
  type PairClassPrior,
  type PairwiseCounts,
  type PairwisePrior,
  type PairTaskAnswer,
} from '../../../src/consensus/kinds/pairwise.ts';
import { probabilities } from '../../../src/consensus/stop-rule.ts';
import type { IndexedDataset } from '../indexed.ts';
import { majorityAtBudget } from '../majority-budget.ts';
import { asksStopRule, refitDue, SERVICE_REPLAY } from '../model-replay.ts';
import { expectedHit, prng, shuffle } from '../random.ts';

/**
 * The simulated crowd and tasks: one configuration for every seed. Half the annotators are good, three in
 * ten pick the candidate shown on the left most of the time (judging honestly otherwise), two in ten answer
 * at random. Candidates have latent scores ~ N(0, 1); a pair's better candidate is the higher score, a tie
 * where ties are allowed and the scores are within `tieMargin`. Close pairs are harder: a judging annotator
 * guesses at random with probability exp(−|Δ| / difficultyScale).
 */
export const PAIRWISE_CROWD = Object.freeze({
  annotators: 40,
  goodShare: 0.5,
  biasedShare: 0.3,
  /** The rest are spammers. */
  goodReliability: [0.8, 0.95] as const,
  /** A biased annotator's share of "left" picks, whatever the candidates. */
  biasedLeft: [0.6, 0.9] as const,
  biasedReliability: [0.75, 0.9] as const,
  pairs: 1000,
  /** Groups of 4–6 candidates compared in every pair (a round robin); the remaining pairs stand alone. */
  groups: 60,
  groupSize: [4, 6] as const,
  /** The share of groups and of lone pairs that allow ties. */
  tieAllowedShare: 0.5,
  tieMargin: 0.2,
  difficultyScale: 0.25,
  /** Answers simulated per pair: the most the replay can take (maxResponses). */
  answersPerPair: 10,
});

type AnnotatorType = 'good' | 'biased' | 'spammer';

interface Annotator {
  type: AnnotatorType;
  /** Share of answers that go left whatever the candidates. */
  left: number;
  reliability: number;
}

interface SimAnswer {
  worker: number;
  /** Canonical: 0 A, 1 B, 2 tie. */
  choice: number;
  aLeft: boolean;
}

interface SimPair {
  a: string;
  b: string;
  group: number;
  allowTie: boolean;
  truth: number;
  answers: SimAnswer[];
}

interface Simulation {
  annotators: Annotator[];
  pairs: SimPair[];
  /** Per group: its candidates' latent scores. */
  groups: Array<Map<string, number>>;
}

const between = (range: readonly [number, number], random: () => number) => range[0] + (range[1] - range[0]) * random();

/** A standard normal draw (Box–Muller). */
const normal = (random: () => number) => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

/** Canonical (A, B, tie) ↔ shown (left, right, tie). */
const shown = (index: number, aLeft: boolean) => (index === 2 || aLeft ? index : 1 - index);

/** A shown answer: judged (right with probability r, else another allowed answer) or a guess when the pair is too close. */
function judge(annotator: Annotator, truthShown: number, m: number, clarity: number, random: () => number): number {
  if (random() >= clarity) return Math.floor(random() * m);
  if (random() < annotator.reliability) return truthShown;
  const other = Math.floor(random() * (m - 1));
  return other >= truthShown ? other + 1 : other;
}

function simulate(seed: number): Simulation {
  const random = prng(seed);
  const crowd = PAIRWISE_CROWD;
  const annotators: Annotator[] = Array.from({ length: crowd.annotators }, (_, w) => {
    const share = w / crowd.annotators;
    if (share < crowd.goodShare) return { type: 'good', left: 0, reliability: between(crowd.goodReliability, random) };
    if (share < crowd.goodShare + crowd.biasedShare)
      return { type: 'biased', left: between(crowd.biasedLeft, random), reliability: between(crowd.biasedReliability, random) };
    return { type: 'spammer', left: 0, reliability: 0 };
  });
  const workers = annotators.map((_, w) => w);
  const pairs: SimPair[] = [];
  const groups: Array<Map<string, number>> = [];
  const addPair = (a: string, b: string, scoreA: number, scoreB: number, group: number, allowTie: boolean) => {
    // Which candidate is "A" is arbitrary: the order the buyer happened to send them in.
    if (random() < 0.5) [a, b, scoreA, scoreB] = [b, a, scoreB, scoreA];
    const delta = scoreA - scoreB;
    const truth = allowTie && Math.abs(delta) < crowd.tieMargin ? 2 : delta > 0 ? 0 : 1;
    const clarity = truth === 2 ? 1 : 1 - Math.exp(-Math.abs(delta) / crowd.difficultyScale);
    const m = allowTie ? 3 : 2;
    const answers = shuffle(workers, random)
      .slice(0, crowd.answersPerPair)
      .map((worker): SimAnswer => {
        const annotator = annotators[worker] as Annotator;
        const aLeft = random() < 0.5;
        const truthShown = shown(truth, aLeft);
        let answer: number;
        if (annotator.type === 'spammer') answer = Math.floor(random() * m);
        else if (random() < annotator.left) answer = 0;
        else answer = judge(annotator, truthShown, m, clarity, random);
        return { worker, choice: shown(answer, aLeft), aLeft };
      });
    pairs.push({ a, b, group, allowTie, truth, answers });
  };
  for (let g = 0; g < crowd.groups; g++) {
    const size = crowd.groupSize[0] + Math.floor(random() * (crowd.groupSize[1] - crowd.groupSize[0] + 1));
    const allowTie = random() < crowd.tieAllowedShare;
    const scores = new Map<string, number>(Array.from({ length: size }, (_, c) => [`g${g}c${c}`, normal(random)]));
    groups.push(scores);
    const names = [...scores.keys()];
    for (let x = 0; x < size; x++)
      for (let y = x + 1; y < size; y++) {
        const a = names[x] as string;
        const b = names[y] as string;
        addPair(a, b, scores.get(a) ?? 0, scores.get(b) ?? 0, g, allowTie);
      }
  }
  while (pairs.length < crowd.pairs) {
    const n = pairs.length;
    addPair(`p${n}a`, `p${n}b`, normal(random), normal(random), -1, random() < crowd.tieAllowedShare);
  }
  return { annotators, pairs, groups };
}

/** The scope in memory: stored counts, priors and the answer log, re-fitted as model-replay.ts's is. */
class PairScope {
  readonly counts: Array<PairwiseCounts | null>;
  prior: PairwisePrior = NEW_PAIRWISE_PRIOR;
  classPrior: PairClassPrior = UNIFORM_PAIR_CLASS_PRIOR;
  private readonly log = { item: [] as number[], annotator: [] as number[], choice: [] as number[], aLeft: [] as number[] };
  /** 1 once an item is COMPLETED or FAILED: its answers then go into the stored counts. */
  readonly decided: Uint8Array;
  private readonly allowTie: Uint8Array;
  private refittedAt = 0;

  constructor(private readonly sim: Simulation) {
    this.counts = new Array<PairwiseCounts | null>(sim.annotators.length).fill(null);
    this.decided = new Uint8Array(sim.pairs.length);
    this.allowTie = Uint8Array.from(sim.pairs.map((pair) => (pair.allowTie ? 1 : 0)));
  }

  record(item: number, answer: SimAnswer) {
    this.log.item.push(item);
    this.log.annotator.push(answer.worker);
    this.log.choice.push(answer.choice);
    this.log.aLeft.push(answer.aLeft ? 1 : 0);
  }

  view(answers: readonly SimAnswer[]): PairTaskAnswer[] {
    return answers.map((answer) => ({
      counts: this.counts[answer.worker] ?? null,
      choice: PAIR_CHOICES[answer.choice] ?? 'A',
      aShownOn: answer.aLeft ? 'left' : 'right',
    }));
  }

  posterior(item: number, answers: readonly SimAnswer[]): number[] {
    const allowTie = this.allowTie[item] === 1;
    return probabilities(pairLogPosterior(this.view(answers), allowTie, { prior: this.prior, classPrior: this.classPrior }));
  }

  /** A completed task: each answerer's counts gain its answer with the result as the truth. */
  settle(item: number, answers: readonly SimAnswer[], result: number | null) {
    this.decided[item] = 1;
    if (result === null) return;
    for (const [i, answer] of this.view(answers).entries()) {
      const worker = (answers[i] as SimAnswer).worker;
      this.counts[worker] = addDecidedAnswer(answer.counts, answer, PAIR_CHOICES[result] ?? 'A');
    }
  }

  maybeRefit(): void {
    const answers = this.log.item.length;
    if (!refitDue(answers, this.refittedAt)) return;
    this.refittedAt = answers;
    const fit = refitPairs({
      itemCount: this.sim.pairs.length,
      annotatorCount: this.sim.annotators.length,
      item: Int32Array.from(this.log.item),
      annotator: Int32Array.from(this.log.annotator),
      choice: Int32Array.from(this.log.choice),
      aLeft: Uint8Array.from(this.log.aLeft),
      allowTie: this.allowTie,
      counted: this.decided,
    });
    fit.counts.forEach((counts, w) => {
      if (Array.from(counts.shown).some((cell) => cell > 0)) this.counts[w] = counts;
    });
    this.prior = fit.prior;
    this.classPrior = fit.classPrior;
  }
}

/** Spearman's correlation: Pearson's on average ranks (0 when either side has no spread). */
function spearman(x: readonly number[], y: readonly number[]): number {
  const ranks = (values: readonly number[]) => {
    const order = values.map((value, i) => ({ value, i })).sort((p, q) => p.value - q.value);
    const out = new Array<number>(values.length).fill(0);
    for (let start = 0; start < order.length;) {
      let end = start;
      while (end + 1 < order.length && (order[end + 1] as { value: number }).value === (order[start] as { value: number }).value) end += 1;
      for (let r = start; r <= end; r++) out[(order[r] as { i: number }).i] = (start + end) / 2;
      start = end + 1;
    }
    return out;
  };
  const rx = ranks(x);
  const ry = ranks(y);
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const mx = mean(rx);
  const my = mean(ry);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < rx.length; i++) {
    const dx = (rx[i] ?? 0) - mx;
    const dy = (ry[i] ?? 0) - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxx === 0 || syy === 0 ? 0 : sxy / Math.sqrt(sxx * syy);
}

/** The mean over groups of the Spearman correlation between Bradley–Terry on `posteriorOf` and the latent scores. */
function groupSpearman(sim: Simulation, posteriorOf: (item: number) => readonly number[]): number {
  const byGroup: GroupPair[][] = sim.groups.map(() => []);
  sim.pairs.forEach((pair, item) => {
    if (pair.group >= 0) byGroup[pair.group]?.push({ a: pair.a, b: pair.b, posterior: posteriorOf(item) });
  });
  let total = 0;
  sim.groups.forEach((scores, g) => {
    const ranked = rankGroup(byGroup[g] ?? []);
    total += spearman(
      ranked.map((entry) => entry.score),
      ranked.map((entry) => scores.get(entry.candidate) ?? 0),
    );
  });
  return total / Math.max(1, sim.groups.length);
}

/** Vote shares over A, B, tie. */
function votes(answers: readonly SimAnswer[]): number[] {
  const shares = [0, 0, 0];
  for (const answer of answers) shares[answer.choice] = (shares[answer.choice] ?? 0) + 1 / answers.length;
  return shares;
}

/** One seed: simulate, replay, score. */
function runSeed(seed: number): Record<string, number> {
  const sim = simulate(seed);
  const scope = new PairScope(sim);
  const random = prng(seed ^ 0x7f4a7c15);
  const results = new Array<number | null>(sim.pairs.length).fill(null);
  const taken: SimAnswer[][] = sim.pairs.map(() => []);
  let used = 0;
  for (const item of shuffle(
    sim.pairs.map((_, i) => i),
    random,
  )) {
    const pair = sim.pairs[item] as SimPair;
    const answers = taken[item] as SimAnswer[];
    for (const answer of pair.answers) {
      answers.push(answer);
      scope.record(item, answer);
      scope.maybeRefit();
      if (!asksStopRule(answers.length)) continue;
      const decision = decidePair({
        answers: scope.view(answers),
        allowTie: pair.allowTie,
        maxResponses: SERVICE_REPLAY.maxResponses,
        targetConfidence: SERVICE_REPLAY.targetConfidence,
        scope: { prior: scope.prior, classPrior: scope.classPrior },
      });
      if (decision.kind === 'continue') continue;
      const result = decision.kind === 'complete' ? PAIR_CHOICES.indexOf(decision.result) : null;
      results[item] = result;
      scope.settle(item, answers, result);
      break;
    }
    used += answers.length;
  }
  // Scoring: a COMPLETED pair by its result, any other by the latest model's most probable answer.
  const posteriors = sim.pairs.map((_, item) => scope.posterior(item, taken[item] ?? []));
  let correct = 0;
  let completed = 0;
  let completedCorrect = 0;
  let mvTaken = 0;
  const bySetting = { tie: { n: 0, correct: 0 }, noTie: { n: 0, correct: 0 } };
  sim.pairs.forEach((pair, item) => {
    const result = results[item] ?? null;
    const hit = result === null ? expectedHit(posteriors[item] ?? [], pair.truth) : result === pair.truth ? 1 : 0;
    correct += hit;
    if (result !== null) {
      completed += 1;
      completedCorrect += hit;
    }
    const setting = pair.allowTie ? bySetting.tie : bySetting.noTie;
    setting.n += 1;
    setting.correct += hit;
    mvTaken += expectedHit(votes(taken[item] ?? []), pair.truth);
  });
  const dataset: IndexedDataset = {
    name: `pairwise-seed${seed}`,
    classes: [...PAIR_CHOICES],
    itemAnswers: sim.pairs.map((pair) => pair.answers.map((answer) => ({ worker: answer.worker, label: answer.choice }))),
    truth: Int32Array.from(sim.pairs.map((pair) => pair.truth)),
    workerCount: sim.annotators.length,
    answerCount: sim.pairs.length * PAIRWISE_CROWD.answersPerPair,
  };
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
  const measured = (type: AnnotatorType) =>
    mean(sim.annotators.flatMap((annotator, w) => (annotator.type === type ? [positionBias(scope.counts[w] ?? null) ?? 0] : [])));
  return {
    accuracy: correct / sim.pairs.length,
    mvAccuracy: majorityAtBudget(dataset, dataset.itemAnswers, used),
    mvAccuracyTakenAnswers: mvTaken / sim.pairs.length,
    completedAccuracy: completedCorrect / Math.max(1, completed),
    completedShare: completed / sim.pairs.length,
    accuracyTiesAllowed: bySetting.tie.correct / Math.max(1, bySetting.tie.n),
    accuracyNoTies: bySetting.noTie.correct / Math.max(1, bySetting.noTie.n),
    answersUsedShare: used / dataset.answerCount,
    rankingSpearman: groupSpearman(sim, (item) => posteriors[item] ?? []),
    mvRankingSpearman: groupSpearman(sim, (item) => votes(taken[item] ?? [])),
    truePairsRankingSpearman: groupSpearman(sim, (item) => PAIR_CHOICES.map((_, k) => (k === sim.pairs[item]?.truth ? 1 : 0))),
    positionBiasBiased: measured('biased'),
    positionBiasBiasedTrue: mean(sim.annotators.filter((annotator) => annotator.type === 'biased').map((annotator) => annotator.left)),
    positionBiasGood: measured('good'),
    positionBiasSpammers: measured('spammer'),
  };
}

/** The figures of the pairwise kind, averaged over `seeds` (the bench registry's entry point). */
export async function figures(seeds: number[]): Promise<Record<string, unknown>> {
  const perSeed = seeds.map(runSeed);
  const round = (n: number) => Math.round(n * 10_000) / 10_000;
  const averaged: Record<string, number> = {};
  for (const key of Object.keys(perSeed[0] ?? {})) averaged[key] = round(perSeed.reduce((sum, f) => sum + (f[key] ?? 0), 0) / perSeed.length);
  return { kind: 'pairwise', seeds: seeds.length, pairs: PAIRWISE_CROWD.pairs, groups: PAIRWISE_CROWD.groups, ...averaged };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const seeds = Array.from({ length: 10 }, (_, i) => i + 1);
  process.stdout.write(`${JSON.stringify(await figures(seeds))}\n`);
}
