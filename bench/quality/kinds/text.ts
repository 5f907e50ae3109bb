// bench:quality --kind text: written answers decided by review (docs/answer-kinds.md, "text"). A simulated
// crowd writes WRITTEN answers to each task; the review task that follows asks other annotators "which of
// these answers is best", a single-choice task over the written answers, shown in an order drawn once per
// task; the service decides it with the single-choice label model and its stop rule, replayed exactly as
// for the datasets (model-replay.ts: the stored counts, the re-fits every 5 % of answers, no golden review
// task), and majority vote gets the same review answers (majority-budget.ts). The truth of a review task is
// its best written answer, the one of highest latent quality.
//
// The crowd (one configuration for every seed): writers of three skills (good 40 %, average 40 %, poor
// 20 %); a text's quality is its writer's skill plus noise, so a good writer's text is usually, not always,
// the best. Reviewers: half careful (they pick among the texts by a softmax of their quality, a close call
// being a near coin toss), three in ten position-biased (they pick the first text shown 60 % of the time,
// judge carefully otherwise), two in ten spammers (a text at random).
//
// Figures (the mean over the seeds): `bestAnswerShare`, the share of tasks whose result is their best
// written answer (the review's result of completed tasks, the final model's pick for the others, as the
// dataset replays score), against `mvBestAnswerShare` (majority vote on the same number of review answers)
// and `randomBestAnswerShare` (one of the written answers at random: 1/written); the completed share of
// the review tasks; `answersUsedShare`, review answers used over the answers the review tasks could have had (maxResponses
// each); `meanReviewAnswers` per task.
// Alone: npx tsx --conditions=source bench/quality/kinds/text.ts prints the JSON line of seeds 1–10.
import { pathToFileURL } from 'node:url';
import type { IndexedAnswer, IndexedDataset } from '../indexed.ts';
import { majorityAtBudget } from '../majority-budget.ts';
import { replayModel, SERVICE_REPLAY } from '../model-replay.ts';
import { prng, shuffle } from '../random.ts';

export const TEXT_CROWD = Object.freeze({
  tasks: 1_000,
  /** Written answers per task: the default validationsNeeded, which is what a text task waits for before its review. */
  written: 3,
  writers: 40,
  writerSkills: [
    { share: 0.4, skill: [0.6, 1] as const },
    { share: 0.4, skill: [0.3, 0.6] as const },
    { share: 0.2, skill: [0, 0.3] as const },
  ],
  /** The spread of a text's quality around its writer's skill. */
  textNoise: 0.15,
  reviewers: 40,
  carefulShare: 0.5,
  biasedShare: 0.3,
  /** The rest are spammers. */
  biasedFirst: 0.6,
  /** A careful pick is a softmax of the texts' qualities at this temperature (0.1: a 0.1 better text is e times likelier). */
  temperature: 0.1,
  /** Review answers simulated per task: the most the replay can take (maxResponses). */
  reviewAnswersPerTask: SERVICE_REPLAY.maxResponses,
});

type Reviewer = 'careful' | 'biased' | 'spammer';

interface SeedFigures {
  best: number;
  mvBest: number;
  completed: number;
  used: number;
}

const uniform = (random: () => number, [lo, hi]: readonly [number, number]) => lo + (hi - lo) * random();
/** A standard normal draw (Box–Muller). */
const normal = (random: () => number) => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

/** One careful pick among texts of these qualities: softmax at the crowd's temperature. */
function carefulPick(qualities: readonly number[], random: () => number): number {
  const weights = qualities.map((q) => Math.exp(q / TEXT_CROWD.temperature));
  let draw = random() * weights.reduce((sum, w) => sum + w, 0);
  for (let i = 0; i < weights.length; i++) {
    draw -= weights[i] ?? 0;
    if (draw <= 0) return i;
  }
  return weights.length - 1;
}

/** The review stage of one seed as a dataset: items are review tasks, labels the positions the texts were shown in. */
function reviewDataset(seed: number): IndexedDataset {
  const random = prng(seed);
  const skills = Array.from({ length: TEXT_CROWD.writers }, () => {
    let draw = random();
    for (const { share, skill } of TEXT_CROWD.writerSkills) {
      if ((draw -= share) < 0) return uniform(random, skill);
    }
    return uniform(random, TEXT_CROWD.writerSkills[0]?.skill ?? [0, 1]);
  });
  const reviewers: Reviewer[] = Array.from({ length: TEXT_CROWD.reviewers }, (_, r) =>
    r < TEXT_CROWD.reviewers * TEXT_CROWD.carefulShare
      ? 'careful'
      : r < TEXT_CROWD.reviewers * (TEXT_CROWD.carefulShare + TEXT_CROWD.biasedShare)
        ? 'biased'
        : 'spammer',
  );
  const classes = Array.from({ length: TEXT_CROWD.written }, (_, i) => String.fromCharCode(65 + i));
  const itemAnswers: IndexedAnswer[][] = [];
  const truth = new Int32Array(TEXT_CROWD.tasks);
  for (let t = 0; t < TEXT_CROWD.tasks; t++) {
    // Distinct writers; their texts in the order the review shows them.
    const writers = shuffle(
      skills.map((_, w) => w),
      random,
    ).slice(0, TEXT_CROWD.written);
    const shown = writers.map((w) => (skills[w] ?? 0) + TEXT_CROWD.textNoise * normal(random));
    truth[t] = shown.indexOf(Math.max(...shown));
    const answerers = shuffle(
      reviewers.map((_, r) => r),
      random,
    ).slice(0, TEXT_CROWD.reviewAnswersPerTask);
    itemAnswers.push(
      answerers.map((worker) => {
        const kind = reviewers[worker];
        const label =
          kind === 'spammer'
            ? Math.floor(random() * TEXT_CROWD.written)
            : kind === 'biased' && random() < TEXT_CROWD.biasedFirst
              ? 0
              : carefulPick(shown, random);
        return { worker, label };
      }),
    );
  }
  return {
    name: 'text-review',
    classes,
    itemAnswers,
    truth,
    workerCount: TEXT_CROWD.reviewers,
    answerCount: itemAnswers.reduce((n, answers) => n + answers.length, 0),
  };
}

function replay(seed: number): SeedFigures {
  const data = reviewDataset(seed);
  // No golden review task: a buyer's golden tasks are of the task's own kind, not reviews of written answers.
  const outcome = replayModel(data, seed, { ...SERVICE_REPLAY, goldenShare: 0 });
  return {
    best: outcome.correctAll / outcome.scored,
    mvBest: majorityAtBudget(data, outcome.orders, outcome.usedScored),
    completed: outcome.completed / outcome.scored,
    used: outcome.usedAll / TEXT_CROWD.tasks,
  };
}

export async function figures(seeds: number[]): Promise<Record<string, unknown>> {
  const perSeed = seeds.map(replay);
  const mean = (figure: (f: SeedFigures) => number) => perSeed.reduce((sum, f) => sum + figure(f), 0) / perSeed.length;
  const round = (n: number) => Math.round(n * 10_000) / 10_000;
  return {
    kind: 'text',
    tasks: TEXT_CROWD.tasks,
    writtenAnswersPerTask: TEXT_CROWD.written,
    reviewers: TEXT_CROWD.reviewers,
    seeds: seeds.length,
    bestAnswerShare: round(mean((f) => f.best)),
    mvBestAnswerShare: round(mean((f) => f.mvBest)),
    randomBestAnswerShare: round(1 / TEXT_CROWD.written),
    completedShare: round(mean((f) => f.completed)),
    meanReviewAnswers: round(mean((f) => f.used)),
    answersUsedShare: round(mean((f) => f.used / SERVICE_REPLAY.maxResponses)),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${JSON.stringify(await figures(Array.from({ length: 10 }, (_, i) => i + 1)))}\n`);
}
